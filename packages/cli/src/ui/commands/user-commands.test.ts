import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Config } from '@toolhost/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandContext } from './command-types.js';
import { loadUserCommands, userCommandFolders } from './user-commands.js';

let base: string;
let home: string;
let project: string;

function write(file: string, text: string) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

beforeEach(() => {
  base = mkdtempSync(path.join(os.tmpdir(), 'toolhost-commands-'));
  home = path.join(base, 'home');
  project = path.join(base, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function load(reserved: string[] = []) {
  const config = new Config({ roots: [project], homeDir: home });
  return loadUserCommands(userCommandFolders(config), new Set(reserved));
}

describe('user commands', () => {
  it('reads project and user folders, names nested files with namespaces, project first', () => {
    write(
      path.join(project, '.toolhost/commands/review.md'),
      '---\ndescription: Review a change\nargument-hint: "[path]"\n---\nReview $ARGUMENTS carefully.\n',
    );
    write(
      path.join(project, '.qwen/commands/git/commit.md'),
      'Write a commit message for {{args}}',
    );
    write(
      path.join(home, '.toolhost/commands/review.md'),
      'the user version, hidden by the project',
    );
    write(path.join(home, '.qwen/commands/explain.md'), '# Explain the code\n\nExplain it simply.');
    write(path.join(project, '.toolhost/commands/notes.txt'), 'not a command');
    const { commands, warnings } = load();
    expect(warnings).toEqual([]);
    const byName = Object.fromEntries(commands.map((command) => [command.name, command]));
    expect(Object.keys(byName).sort()).toEqual(['explain', 'git:commit', 'review']);
    expect(byName.review).toMatchObject({
      description: 'Review a change',
      argumentHint: '[path]',
      source: 'project',
      takesArguments: true,
    });
    expect(byName.explain).toMatchObject({
      description: 'Explain the code',
      source: 'user',
      takesArguments: false,
    });
  });

  it('sends the expanded body as a prompt when run', async () => {
    write(path.join(project, '.toolhost/commands/fix.md'), 'Fix issue $1 in $2. Notes: $ARGUMENTS');
    const [fix] = load().commands;
    const sent: string[] = [];
    await fix?.run(
      { submitPrompt: (prompt: string) => sent.push(prompt) } as unknown as CommandContext,
      '42 "src/a b.ts"',
    );
    expect(sent).toEqual(['Fix issue 42 in src/a b.ts. Notes: 42 "src/a b.ts"']);
  });

  it('explains files it cannot use, and never lets a file hide a built-in command', () => {
    write(
      path.join(project, '.toolhost/commands/broken.md'),
      '---\ndescription: [unclosed\n---\nbody',
    );
    write(path.join(project, '.toolhost/commands/empty.md'), '---\ndescription: nothing\n---\n');
    write(path.join(project, '.toolhost/commands/help.md'), 'my own help');
    write(path.join(project, '.toolhost/commands/bad name.md'), 'spaces');
    const { commands, warnings } = load(['help']);
    expect(commands).toEqual([]);
    expect(warnings.join('\n')).toMatch(/broken\.md: its front matter is not valid YAML/);
    expect(warnings.join('\n')).toMatch(/empty\.md: has no prompt after the front matter/);
    expect(warnings.join('\n')).toMatch(/help\.md: \/help is a built-in command/);
    expect(warnings.join('\n')).toMatch(/bad name\.md: a command's folder and file names/);
  });
});
