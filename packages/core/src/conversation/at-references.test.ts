import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorkspace, type TempWorkspace } from '../../test/helpers/temp-workspace.js';
import { CoreToolScheduler } from '../scheduler/core-tool-scheduler.js';
import type { CompletedToolCall } from '../scheduler/tool-call-types.js';
import { createToolRegistry } from '../tools/builtin.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import {
  atTokenBeforeCursor,
  attachReferences,
  escapePath,
  findAtReferences,
} from './at-references.js';

describe('finding @ references', () => {
  it('finds paths after a space or at the start, with escaped spaces, not e-mail addresses', () => {
    const text = '@src/main.ts and @docs/my\\ notes.md, mail me@example.com about @README.md.';
    expect(findAtReferences(text).map((reference) => reference.target)).toEqual([
      'src/main.ts',
      'docs/my notes.md',
      'README.md',
    ]);
    const [first] = findAtReferences(text);
    expect(first).toMatchObject({ start: 0, end: 12 });
  });

  it('gives the token being typed at the cursor', () => {
    expect(atTokenBeforeCursor('look at @src/ma', 15)).toEqual({
      start: 8,
      end: 15,
      target: 'src/ma',
    });
    expect(atTokenBeforeCursor('look at @src/main.ts now', 24)).toBeUndefined();
    expect(atTokenBeforeCursor('@', 1)).toEqual({ start: 0, end: 1, target: '' });
    expect(escapePath('my notes.md')).toBe('my\\ notes.md');
  });
});

describe('attaching @ references', () => {
  let session: TempWorkspace & { registry: ToolRegistry };
  beforeEach(() => {
    const workspace = makeWorkspace();
    session = { ...workspace, registry: createToolRegistry(workspace.config) };
    const { root } = session;
    mkdirSync(path.join(root, 'src'));
    writeFileSync(path.join(root, 'src/main.ts'), 'export const answer = 42;\n');
    writeFileSync(path.join(root, 'src/util.ts'), 'export function helper() {}\n');
    writeFileSync(path.join(root, 'my notes.md'), 'remember the milk\n');
    writeFileSync(path.join(root, '.gitignore'), 'secret.txt\n');
    writeFileSync(path.join(root, 'secret.txt'), 'the password\n');
    mkdirSync(path.join(root, '.git'));
  });
  afterEach(() => session.cleanup());

  const attach = (text: string) =>
    attachReferences(text, {
      config: session.config,
      registry: session.registry,
      runTool: async (name, args, signal) => {
        const scheduler = new CoreToolScheduler({
          config: session.config,
          toolRegistry: session.registry,
        });
        const [call] = await scheduler.schedule({ callId: 'attach', name, args }, signal);
        return call as CompletedToolCall;
      },
      signal: new AbortController().signal,
    });

  it('adds the files and folders named, read by read_many_files, below the text', async () => {
    const result = await attach('explain @src and @my\\ notes.md please');
    expect(result.attached).toEqual(['src', 'my notes.md']);
    expect(result.problems).toEqual([]);
    expect(
      result.prompt.startsWith(
        'explain @src and @my\\ notes.md please\n\n--- Content from referenced files ---\n',
      ),
    ).toBe(true);
    expect(result.prompt).toContain('export const answer = 42;');
    expect(result.prompt).toContain('export function helper() {}');
    expect(result.prompt).toContain('remember the milk');
    expect(result.prompt.trimEnd().endsWith('--- End of content ---')).toBe(true);
  });

  it('leaves out a file the ignore rules exclude, and says so', async () => {
    const result = await attach('what is in @secret.txt');
    expect(result.prompt).toBe('what is in @secret.txt');
    expect(result.prompt).not.toContain('the password');
    expect(result.problems).toEqual([
      '@secret.txt is left out by .gitignore, so it was not attached.',
    ]);
  });

  it('keeps names of nothing as plain text', async () => {
    const result = await attach('ask @alice about it');
    expect(result).toEqual({
      prompt: 'ask @alice about it',
      content: 'ask @alice about it',
      attached: [],
      problems: [],
    });
  });
});
