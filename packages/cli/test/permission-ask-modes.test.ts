/**
 * Ask rules ask in every approval mode, through the installed command: `toolhost call` and
 * headless `-p` in yolo (and auto-edit) cannot ask anyone, so a call an ask rule covers is
 * refused, and the canary it would have made stays absent. The calls are a shell command
 * (which asks by itself) and a tool of a trusted MCP server (which would not ask at all, so
 * only the rule's question stands between it and the file). A question a deny rule forces
 * (the sandbox off, a Read deny rule a script could get past) is refused the same way, with
 * a message naming that deny rule rather than permissions.ask.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FILESYSTEM } from '../../core/test/helpers/mcp-servers.js';
import { startModelServer } from '../../core/test/helpers/model-server.js';
import { modelProject } from './helpers/model-project.js';
import { runCli, runCliAsync } from './run-cli.js';

const project = modelProject();

const ASK = ['Bash(touch:*)', 'mcp__fs__create_directory'];

/** User settings: the ask rules, and a trusted filesystem server (its calls never ask). */
function settings(extra: Record<string, unknown> = {}) {
  mkdirSync(path.join(project.dirs.home, '.toolhost'), { recursive: true });
  writeFileSync(
    path.join(project.dirs.home, '.toolhost', 'settings.json'),
    JSON.stringify({
      permissions: { ask: ASK },
      mcpServers: {
        fs: { command: process.execPath, args: [FILESYSTEM, project.dirs.root], trust: true },
      },
      ...extra,
    }),
  );
}

/** A Read deny rule no sandbox holds, and a script that reads past it and makes a canary. */
function ruleGapProject() {
  mkdirSync(path.join(project.dirs.home, '.toolhost'), { recursive: true });
  writeFileSync(
    path.join(project.dirs.home, '.toolhost', 'settings.json'),
    JSON.stringify({
      permissions: { deny: ['Read(./secrets/**)'] },
      tools: { shell: { sandbox: 'off' } },
    }),
  );
  mkdirSync(path.join(project.dirs.root, 'secrets'));
  writeFileSync(path.join(project.dirs.root, 'secrets', 'x.txt'), 'GAP-SECRET\n');
  writeFileSync(path.join(project.dirs.root, 'peek.sh'), 'cat secrets/x.txt; touch canary-gap\n');
}

const call = (tool: string, args: unknown, flags: string[]) =>
  runCli(['call', tool, JSON.stringify(args), ...flags], {
    cwd: project.dirs.root,
    home: project.dirs.home,
  });

const headless = (flags: string[]) =>
  runCliAsync(['-p', 'make the canaries', ...flags], {
    cwd: project.dirs.root,
    home: project.dirs.home,
    env: {
      OPENAI_BASE_URL: project.server?.baseUrl ?? '',
      OPENAI_API_KEY: 'sk-test',
      OPENAI_MODEL: 'scripted-model',
    },
  });

/** What the model was told about each of its calls, by call id. */
function toolMessages(): Map<string, string> {
  const messages = project.server?.requests.at(-1)?.body.messages ?? [];
  return new Map(
    messages
      .filter((message) => message.role === 'tool')
      .map((message) => [String(message.tool_call_id), String(message.content)]),
  );
}

describe('ask rules in yolo and auto-edit, where nobody can be asked', () => {
  for (const mode of ['yolo', 'auto-edit']) {
    it(`toolhost call --approval-mode ${mode} refuses both calls; --yes answers`, () => {
      settings();
      const flags = ['--approval-mode', mode];
      const shell = call('run_shell_command', { command: 'touch canary-shell' }, flags);
      expect(shell.code, shell.stderr).toBe(3);
      expect(shell.stderr).toContain('The rule Bash(touch:*) in permissions.ask asks');
      // Yolo is no way to let it run, so it is not offered as one.
      expect(shell.stderr).not.toContain('--approval-mode yolo');
      const made = path.join(project.dirs.root, 'canary-mcp');
      const mcp = call('create_directory', { path: made }, flags);
      expect(mcp.code, mcp.stderr).toBe(3);
      expect(mcp.stderr).toContain('mcp__fs__create_directory in permissions.ask');
      expect(existsSync(path.join(project.dirs.root, 'canary-shell'))).toBe(false);
      expect(existsSync(made)).toBe(false);
      // The person's own yes, given on the command line.
      expect(call('create_directory', { path: made }, [...flags, '--yes']).code).toBe(0);
      expect(existsSync(made)).toBe(true);
    }, 60_000);
  }

  for (const flags of [['--approval-mode', 'yolo'], ['--yolo']]) {
    it(`toolhost -p ${flags.join(' ')} refuses both calls and tells the model which rule asks`, async () => {
      settings();
      const made = path.join(project.dirs.root, 'canary-mcp');
      project.server = await startModelServer([
        {
          toolCalls: [
            { id: 'shell', name: 'run_shell_command', args: { command: 'touch canary-shell' } },
            { id: 'mcp', name: 'create_directory', args: { path: made } },
          ],
        },
        { text: 'Both were refused.' },
      ]);
      const result = await headless(flags);
      expect(result.stdout).toContain('Both were refused.');
      expect(existsSync(path.join(project.dirs.root, 'canary-shell'))).toBe(false);
      expect(existsSync(made)).toBe(false);
      const told = toolMessages();
      expect(told.get('shell')).toContain('The rule Bash(touch:*) in permissions.ask asks');
      expect(told.get('mcp')).toContain('The rule mcp__fs__create_directory in permissions.ask');
    }, 60_000);
  }
});

describe('a question a deny rule forces, where nobody can be asked', () => {
  it('toolhost call in yolo: not run, and the message names the deny rule', () => {
    ruleGapProject();
    const done = call('run_shell_command', { command: 'sh peek.sh' }, ['--approval-mode', 'yolo']);
    expect(done.code, done.stderr).toBe(3);
    expect(done.stdout + done.stderr).not.toContain('GAP-SECRET');
    expect(done.stderr).toContain('The deny rule Read(./secrets/**) (permissions.deny) forces');
    expect(done.stderr).not.toContain('permissions.ask');
    expect(existsSync(path.join(project.dirs.root, 'canary-gap'))).toBe(false);
  }, 60_000);

  it('toolhost -p --yolo: not run, and the model is told which deny rule forced it', async () => {
    ruleGapProject();
    project.server = await startModelServer([
      { toolCalls: [{ id: 'gap', name: 'run_shell_command', args: { command: 'sh peek.sh' } }] },
      { text: 'It was refused.' },
    ]);
    const result = await headless(['--yolo']);
    expect(result.stdout).toContain('It was refused.');
    expect(existsSync(path.join(project.dirs.root, 'canary-gap'))).toBe(false);
    const told = toolMessages().get('gap') ?? '';
    expect(told).toContain('The deny rule Read(./secrets/**) (permissions.deny) forces');
    expect(told).not.toContain('permissions.ask');
    expect(told).not.toContain('GAP-SECRET');
  }, 60_000);
});
