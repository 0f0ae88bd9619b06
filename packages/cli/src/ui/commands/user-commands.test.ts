import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Config } from '@toolhost/core/config';
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
  it("skips a project's command file or folder that is a link leading out of the project", () => {
    write(path.join(base, 'outside', 'credentials'), 'OUTSIDE-SECRET');
    write(path.join(base, 'outside', 'cmds', 'leak.md'), 'OUTSIDE-PROMPT');
    mkdirSync(path.join(project, '.toolhost', 'commands'), { recursive: true });
    symlinkSync(
      path.join(base, 'outside', 'credentials'),
      path.join(project, '.toolhost', 'commands', 'review.md'),
    );
    mkdirSync(path.join(project, '.qwen'));
    symlinkSync(path.join(base, 'outside', 'cmds'), path.join(project, '.qwen', 'commands'));
    write(path.join(project, '.toolhost', 'commands', 'docs', 'inside.md'), 'INSIDE');
    symlinkSync(
      path.join(project, '.toolhost', 'commands', 'docs', 'inside.md'),
      path.join(project, '.toolhost', 'commands', 'alias.md'),
    );
    // The person's own folder may link anywhere.
    mkdirSync(path.join(home, '.toolhost'), { recursive: true });
    symlinkSync(path.join(base, 'outside', 'cmds'), path.join(home, '.toolhost', 'commands'));
    const { commands, warnings } = load();
    expect(commands.map((command) => command.name).sort()).toEqual([
      'alias',
      'docs:inside',
      'leak',
    ]);
    expect(commands.find((command) => command.name === 'leak')?.source).toBe('user');
    expect(warnings).toEqual([
      `${path.join(project, '.toolhost', 'commands', 'review.md')}: leads outside the project (to ${path.join(base, 'outside', 'credentials')}); a project's command files are read only inside it. The command was skipped.`,
      `${path.join(project, '.qwen', 'commands', 'leak.md')}: leads outside the project (to ${path.join(base, 'outside', 'cmds', 'leak.md')}); a project's command files are read only inside it. The command was skipped.`,
    ]);
  });

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

  it('reads TOML command files (Gemini CLI and Qwen Code) beside the Markdown ones', async () => {
    write(
      path.join(project, '.gemini/commands/git/fix.toml'),
      '# a comment\ndescription = "Fix an issue"\nprompt = """\nFix issue {{args}}.\nRun the tests after.\n"""\n',
    );
    write(path.join(home, '.qwen/commands/plan.toml'), "prompt = 'Plan the work first.'\n");
    write(path.join(project, '.toolhost/commands/review.md'), 'Review $ARGUMENTS.');
    const { commands, warnings } = load();
    expect(warnings).toEqual([]);
    const byName = Object.fromEntries(commands.map((command) => [command.name, command]));
    expect(Object.keys(byName).sort()).toEqual(['git:fix', 'plan', 'review']);
    expect(byName['git:fix']).toMatchObject({
      description: 'Fix an issue',
      source: 'project',
      takesArguments: true,
    });
    expect(byName.plan).toMatchObject({ description: 'Plan the work first.', source: 'user' });
    const sent: string[] = [];
    const context = { submitPrompt: (prompt: string) => sent.push(prompt) };
    await byName['git:fix']?.run(context as unknown as CommandContext, '#12');
    // No {{args}}: what was typed after the command follows the prompt.
    await byName.plan?.run(context as unknown as CommandContext, 'for the release');
    expect(sent).toEqual([
      'Fix issue #12.\nRun the tests after.',
      'Plan the work first.\n\nfor the release',
    ]);
  });

  it('names each TOML file it cannot use and says what is wrong', () => {
    const dir = path.join(project, '.qwen/commands');
    write(path.join(dir, 'unclosed.toml'), 'description = "ok"\nprompt = "no end\n');
    write(path.join(dir, 'noprompt.toml'), 'description = "only this"\n');
    write(path.join(dir, 'number.toml'), 'prompt = 42\n');
    write(path.join(dir, 'blank.toml'), 'prompt = "   "\n');
    write(path.join(dir, 'baddesc.toml'), 'prompt = "p"\ndescription = ["a"]\n');
    write(path.join(dir, 'twice.md'), 'the Markdown one');
    write(path.join(dir, 'twice.toml'), 'prompt = "the TOML one"\n');
    const { commands, warnings } = load();
    expect(commands.map((command) => command.name)).toEqual(['twice']);
    const text = warnings.join('\n');
    expect(text).toMatch(
      /unclosed\.toml: is not valid TOML \(line 2, column \d+: .+\)\. The command was skipped\./,
    );
    expect(text).toMatch(/noprompt\.toml: has no "prompt"/);
    expect(text).toMatch(/number\.toml: "prompt" must be a string/);
    expect(text).toMatch(/blank\.toml: "prompt" is empty/);
    expect(text).toMatch(/baddesc\.toml: "description" must be a string/);
    expect(text).toMatch(/twice\.toml: \/twice is also defined by twice\.md, which is used\./);
    expect(warnings).toHaveLength(6);
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
