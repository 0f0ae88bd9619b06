import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandBraces, expandWord, MAX_EXPANDED } from './glob-expansion.js';

let dir: string;
beforeAll(() => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'glob-expansion-')));
  mkdirSync(path.join(dir, 'd/e'), { recursive: true });
  for (const name of ['a1', 'a2', 'b', '.h', 'd/x', 'd/.y', 'd/e/z', '[a]', 'sp ace'])
    writeFileSync(path.join(dir, name), '');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What bash itself makes of the word, one name per line. */
function bash(word: string): string[] {
  const out = execFileSync('bash', ['-c', `printf '%s\\n' ${word}`], {
    cwd: dir,
    encoding: 'utf8',
  });
  return out.split('\n').filter((line) => line !== '');
}

const expand = (word: string) => {
  const result = expandWord(word, dir, (value) => value);
  if ('problem' in result) throw new Error(result.problem);
  return result.words;
};

describe('expandWord gives the names bash gives', () => {
  const PATTERNS = [
    'a*',
    '?',
    '[ab]*',
    '[!a]*',
    '[^a]*',
    '.*',
    '*',
    'd/*',
    'd/.*',
    '*/*',
    '*/e/*',
    'nomatch*',
    '[a]',
    '[[]a]',
    'a[12]',
    '{a,b}*',
    'x{1..3}',
    '{01..03}',
    '{a..c}',
    '{5..1..2}',
    'a{b}c',
    '{a,{b,c}}',
    '[[:alpha:]]*',
    '*1',
    'd/e',
    '.[h]',
    '[.]h',
    'd/*/',
    'sp*',
    '*/x',
    '*/nothing',
    'd*/.y',
  ];
  for (const pattern of PATTERNS)
    it(pattern, () => {
      expect(new Set(expand(pattern))).toEqual(new Set(bash(pattern)));
    });

  it('absolute patterns', () => {
    expect(new Set(expand(`${dir}/a*`))).toEqual(new Set(bash(`${dir}/a*`)));
  });
});

describe('expandWord refuses what it cannot bound', () => {
  it('a brace list too long', () => {
    expect(expandBraces(`{1..${MAX_EXPANDED + 5}}`)).toBeNull();
    expect(expandBraces('{a,b}{c,d}{e,f}')).toHaveLength(8);
  });

  it('extended globbing and an unknown tilde form', () => {
    expect(expandWord('@(a|b)*', dir, (v) => v)).toHaveProperty('problem');
    expect(expandWord('~x/*', dir, () => null)).toHaveProperty('problem');
  });
});
