/**
 * Extensions' commands beside the person's, the project's and the built-ins: a name already
 * held is renamed `<extension>.<name>` (Gemini CLI's rule), with one warning saying which
 * wins and why; a command file linking out of its extension is not read.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Config } from '@toolhost/core/config';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadUserCommands, userCommandFolders } from './user-commands.js';

let base: string;
let home: string;
let project: string;

function write(file: string, text: string) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** An installed Gemini CLI extension with command files `name → prompt`. */
function extension(name: string, commands: Record<string, string>) {
  const folder = path.join(home, '.toolhost', 'extensions', name);
  write(path.join(folder, 'gemini-extension.json'), JSON.stringify({ name, version: '1.0.0' }));
  for (const [file, prompt] of Object.entries(commands))
    write(path.join(folder, 'commands', file), `prompt = "${prompt}"\n`);
  return folder;
}

beforeEach(() => {
  base = mkdtempSync(path.join(os.tmpdir(), 'toolhost-ext-commands-'));
  home = path.join(base, 'home');
  project = path.join(base, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function load() {
  const { config } = Config.load({ root: project, homeDir: home, env: {} });
  return loadUserCommands(userCommandFolders(config), new Set(['help']));
}

describe("extensions' commands", () => {
  it('are offered, and renamed after their extension where a name is taken, one warning each', () => {
    extension('alpha', {
      'deploy.toml': 'ALPHA-DEPLOY',
      'review.toml': 'ALPHA-REVIEW',
      'help.toml': 'ALPHA-HELP',
      'solo.toml': 'ALPHA-SOLO {{args}}',
    });
    extension('beta', { 'deploy.toml': 'BETA-DEPLOY' });
    write(path.join(home, '.qwen', 'commands', 'review.md'), 'MY-REVIEW');
    const { commands, warnings } = load();
    const byName = new Map(commands.map((command) => [command.name, command]));
    expect(byName.get('solo')?.body).toBe('ALPHA-SOLO {{args}}');
    expect(byName.get('solo')?.source).toBe('extension');
    // The person's own /review wins; the extension's is /alpha.review.
    expect(byName.get('review')?.body).toBe('MY-REVIEW');
    expect(byName.get('alpha.review')?.body).toBe('ALPHA-REVIEW');
    // Two extensions: the first by name keeps /deploy.
    expect(byName.get('deploy')?.body).toBe('ALPHA-DEPLOY');
    expect(byName.get('beta.deploy')?.body).toBe('BETA-DEPLOY');
    // A built-in is never shadowed.
    expect(byName.has('help')).toBe(false);
    expect(byName.get('alpha.help')?.body).toBe('ALPHA-HELP');
    expect(warnings).toHaveLength(3);
    expect(warnings.find((w) => w.includes('/review'))).toMatch(
      /\/review of extension "alpha" is also defined by .*review\.md, which wins \(the project's and your own commands come first, then extensions by name\); the extension's command is \/alpha\.review\./,
    );
    expect(warnings.find((w) => w.includes('/deploy'))).toContain(
      "the extension's command is /beta.deploy",
    );
    expect(warnings.find((w) => w.includes('/help'))).toContain(
      'is also a built-in command, which wins (built-in commands come first)',
    );
  });

  it('are gone when the extension is disabled, and not read through a link leading out', () => {
    const folder = extension('alpha', { 'solo.toml': 'ALPHA-SOLO' });
    write(path.join(base, 'outside', 'leak.toml'), 'prompt = "OUTSIDE-SECRET"\n');
    symlinkSync(
      path.join(base, 'outside', 'leak.toml'),
      path.join(folder, 'commands', 'leak.toml'),
    );
    const on = load();
    expect(on.commands.map((command) => command.name)).toEqual(['solo']);
    expect(JSON.stringify(on)).not.toContain('OUTSIDE-SECRET');
    expect(on.warnings.join('\n')).toContain('leads outside the extension');
    write(
      path.join(home, '.toolhost', 'extension-enablement.json'),
      JSON.stringify({ alpha: { enabled: false } }),
    );
    expect(load().commands).toEqual([]);
  });
});
