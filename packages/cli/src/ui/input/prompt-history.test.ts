import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PromptHistory, promptHistoryFile } from './prompt-history.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'toolhost-history-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('prompt history', () => {
  it('keeps each project its own history across runs', () => {
    const fileA = promptHistoryFile(path.join(home, '.toolhost'), '/work/project-a');
    const fileB = promptHistoryFile(path.join(home, '.toolhost'), '/work/project-b');
    const first = PromptHistory.load(fileA);
    first.add('explain the build');
    first.add('line one\nline two');
    first.add('line one\nline two');
    expect(PromptHistory.load(fileA).entries).toEqual(['explain the build', 'line one\nline two']);
    expect(PromptHistory.load(fileB).entries).toEqual([]);
    expect(fileA.startsWith(path.join(home, '.toolhost', 'prompt-history'))).toBe(true);
  });

  it('reads what it can of a file cut by a crash', () => {
    const file = path.join(home, 'history.jsonl');
    writeFileSync(file, '"kept"\n{"not":"a string"}\n"cut off');
    expect(PromptHistory.load(file).entries).toEqual(['kept']);
  });

  it('searches newest first, case-insensitively, and older from a given entry', () => {
    const history = new PromptHistory(undefined, ['Fix the parser', 'run tests', 'fix the lexer']);
    expect(history.search('fix')).toBe(2);
    expect(history.search('fix', 2)).toBe(0);
    expect(history.search('fix', 0)).toBe(-1);
    expect(history.search('nothing')).toBe(-1);
  });

  it('trims an overlong file to the newest entries', () => {
    const file = path.join(home, 'long.jsonl');
    const lines = Array.from({ length: 2500 }, (_, index) => JSON.stringify(`prompt ${index}`));
    writeFileSync(file, `${lines.join('\n')}\n`);
    const history = PromptHistory.load(file);
    expect(history.entries.at(-1)).toBe('prompt 2499');
    expect(history.entries).toHaveLength(1000);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(1000);
  });
});
