/**
 * Permission rules through the real scheduler and real tools: what they allow runs, what
 * they deny or ask about does not, proven by files made or left alone.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { Config } from '../src/config/config.js';
import type { ApprovalMode, Settings } from '../src/config/settings.js';
import { createToolRegistry } from '../src/tools/builtin.js';
import { outputOf, scriptedScheduler } from './helpers/scheduler.js';
import { makeTempDirs, type TempDirs } from './helpers/temp-workspace.js';

let dirs: TempDirs | undefined;
const configs: Config[] = [];
afterEach(async () => {
  for (const config of configs.splice(0)) await config.dispose();
  dirs?.cleanup();
  dirs = undefined;
});

/** A scheduler with nobody to ask: a call that would ask is refused. */
function session(
  permissions: Settings['permissions'],
  approvalMode: ApprovalMode = 'default',
  tools: Settings['tools'] = {},
) {
  dirs = makeTempDirs();
  const config = new Config({
    roots: [dirs.root],
    homeDir: dirs.home,
    settings: { permissions, tools: { ...tools, approvalMode } },
  });
  configs.push(config);
  return { config, root: dirs.root, ...scriptedScheduler(config, { answer: null }) };
}

const shell = (command: string) => ({ command, is_background: false });

describe('shell rules, by effect', () => {
  it('Bash(git diff:*) runs git diff unasked but not a second command or a substitution', async () => {
    const s = session({ allow: ['Bash(git diff:*)'] });
    const plain = await s.call(
      'run_shell_command',
      shell('git diff --no-index /dev/null /dev/null'),
    );
    expect(plain.status).toBe('success');
    for (const line of [
      'git diff; touch canary1',
      'git diff && touch canary2',
      'git diff $(touch canary3)',
      'git diff `touch canary4`',
    ]) {
      const done = await s.call('run_shell_command', shell(line));
      expect(done.status, line).toBe('error');
    }
    for (const name of ['canary1', 'canary2', 'canary3', 'canary4'])
      expect(existsSync(`${s.root}/${name}`), name).toBe(false);
  });

  it('Bash(rm:*) in deny keeps the file in yolo mode, wherever rm stands', async () => {
    const s = session({ deny: ['Bash(rm:*)'] }, 'yolo');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${s.root}/keep`, 'x');
    for (const line of ['ls && rm keep', 'true; rm -f keep', 'echo $(rm keep)']) {
      const done = await s.call('run_shell_command', shell(line));
      expect(done.status, line).toBe('error');
      expect(done.response.error?.message, line).toMatch(/Bash\(rm:\*\) in permissions\.deny/);
    }
    expect(existsSync(`${s.root}/keep`)).toBe(true);
    // What no rule names still runs in yolo mode.
    expect((await s.call('run_shell_command', shell('touch made'))).status).toBe('success');
    expect(existsSync(`${s.root}/made`)).toBe(true);
  });

  it('an ask rule stops a command in yolo mode when nobody can be asked', async () => {
    const s = session({ allow: ['Bash'], ask: ['Bash(touch:*)'] }, 'yolo');
    const done = await s.call('run_shell_command', shell('touch asked'));
    expect(done.status).toBe('error');
    expect(done.response.error?.message).toMatch(/Bash\(touch:\*\)/);
    expect(existsSync(`${s.root}/asked`)).toBe(false);
  });
});

describe('ask rules ask in every approval mode', () => {
  const modes: ApprovalMode[] = ['default', 'auto-edit', 'yolo'];

  it.each(modes)(
    'in %s, a read an ask rule covers is refused when nobody can be asked',
    async (mode) => {
      // read_file never asks by itself: the rule's question is the only one.
      const s = session({ ask: ['Read(./secret.txt)'] }, mode);
      const { writeFileSync } = await import('node:fs');
      writeFileSync(`${s.root}/secret.txt`, 'ASKED-SECRET');
      const done = await s.call('read_file', { absolute_path: `${s.root}/secret.txt` });
      expect(done.status).toBe('error');
      expect(JSON.stringify(done.response)).not.toContain('ASKED-SECRET');
      expect(done.response.error?.message).toContain('Read(./secret.txt) in permissions.ask');
      expect(done.response.error?.message).not.toContain('permissions.deny');
    },
  );

  it.each(modes)('in %s, the person is asked, and their yes runs it', async (mode) => {
    dirs = makeTempDirs();
    const config = new Config({
      roots: [dirs.root],
      homeDir: dirs.home,
      settings: { permissions: { ask: ['TodoWrite', 'Edit(./notes/**)'] } },
    });
    config.setApprovalMode(mode);
    configs.push(config);
    const s = scriptedScheduler(config);
    const todo = await s.call('todo_write', { todos: [] });
    const write = await s.call('write_file', {
      file_path: `${dirs.root}/notes/a.md`,
      content: 'x',
    });
    expect([todo.status, write.status]).toEqual(['success', 'success']);
    expect(s.asked.map((details) => details.askedByRules)).toEqual([
      ['TodoWrite'],
      ['Edit(./notes/**)'],
    ]);
  });

  it('a question a deny rule forces names that rule, not permissions.ask', async () => {
    const s = session({ deny: ['Read(./secrets/**)'] }, 'yolo', { shell: { sandbox: 'off' } });
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(`${s.root}/secrets`);
    writeFileSync(`${s.root}/secrets/x.txt`, 'GAP-SECRET');
    // A script the analysis cannot see into: only the sandbox could hold the rule.
    writeFileSync(`${s.root}/peek.sh`, 'cat secrets/x.txt; touch canary\n');
    const done = await s.call('run_shell_command', shell('sh peek.sh'));
    expect(done.status).toBe('error');
    const message = done.response.error?.message ?? '';
    expect(message).toContain('The deny rule Read(./secrets/**) (permissions.deny) forces');
    expect(message).not.toContain('permissions.ask');
    expect(JSON.stringify(done.response)).not.toContain('GAP-SECRET');
    expect(existsSync(`${s.root}/canary`)).toBe(false);
  });
});

describe('file rules, by effect', () => {
  it('a Read deny keeps a secret from read_file and read_many_files', async () => {
    const s = session({ deny: ['Read(./secrets/**)'] }, 'yolo');
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(`${s.root}/secrets`);
    writeFileSync(`${s.root}/secrets/token.txt`, 'SECRET-4711');
    const read = await s.call('read_file', { absolute_path: `${s.root}/secrets/token.txt` });
    expect(read.status).toBe('error');
    expect(JSON.stringify(read.response)).not.toContain('SECRET-4711');
    const many = await s.call('read_many_files', { paths: ['secrets/token.txt'] });
    expect(JSON.stringify(many.response)).not.toContain('SECRET-4711');
  });

  it('a Read deny makes a shell command that names the file ask instead of running as read-only', async () => {
    dirs = makeTempDirs();
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(`${dirs.root}/secrets`);
    writeFileSync(`${dirs.root}/secrets/token.txt`, 'SECRET-4711');
    writeFileSync(`${dirs.root}/open.txt`, 'PUBLIC-1');
    // Read-only lines run unasked here whether or not a sandbox works on this machine.
    const config = new Config({
      roots: [dirs.root],
      homeDir: dirs.home,
      settings: { permissions: { deny: ['Read(./secrets/**)'] } },
      parseOnlyAutoApproval: true,
    });
    configs.push(config);
    const s = scriptedScheduler(config, { answer: null });
    const open = await s.call('run_shell_command', shell('cat open.txt'));
    expect(outputOf(open)).toContain('PUBLIC-1');
    const secret = await s.call('run_shell_command', shell('cat secrets/token.txt'));
    expect(secret.status).toBe('error');
    expect(JSON.stringify(secret.response)).not.toContain('SECRET-4711');
  });

  it('a Read deny leaves the file out of searches over the folders above it', async () => {
    const s = session({ deny: ['Read(./secrets/**)'] }, 'yolo');
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(`${s.root}/secrets`);
    writeFileSync(`${s.root}/secrets/token.txt`, 'SECRET-4711');
    writeFileSync(`${s.root}/open.txt`, 'PUBLIC-1 SECRET-4711 mentioned');
    const grep = await s.call('grep_search', { pattern: 'SECRET-4711' });
    expect(outputOf(grep)).toContain('open.txt');
    expect(outputOf(grep)).not.toContain('token.txt');
    const glob = await s.call('glob', { pattern: '**/*.txt' });
    expect(outputOf(glob)).toContain('open.txt');
    expect(outputOf(glob)).not.toContain('token.txt');
    const many = await s.call('read_many_files', { paths: ['**/*.txt'] });
    expect(outputOf(many)).toContain('PUBLIC-1');
    // Only the public file's mention: the secret file's content is not read.
    expect(outputOf(many).match(/SECRET-4711/g)).toHaveLength(1);
    const ls = await s.call('list_directory', { path: `${s.root}/secrets` });
    expect(ls.status).toBe('error');
  });

  it('an Edit deny keeps the file as it was in yolo mode; Edit(src/**) allows writes there', async () => {
    const s = session({ deny: ['Edit(config/**)'], allow: ['Edit(src/**)'] });
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(`${s.root}/config`);
    writeFileSync(`${s.root}/config/app.json`, 'old');
    s.config.setApprovalMode('yolo');
    const denied = await s.call('write_file', {
      file_path: `${s.root}/config/app.json`,
      content: 'new',
    });
    expect(denied.status).toBe('error');
    expect(readFileSync(`${s.root}/config/app.json`, 'utf8')).toBe('old');
    s.config.setApprovalMode('default');
    const allowed = await s.call('write_file', { file_path: `${s.root}/src/a.ts`, content: 'ok' });
    expect(allowed.status, outputOf(allowed)).toBe('success');
    expect(readFileSync(`${s.root}/src/a.ts`, 'utf8')).toBe('ok');
    const elsewhere = await s.call('write_file', { file_path: `${s.root}/b.ts`, content: 'no' });
    expect(elsewhere.status).toBe('error');
    expect(existsSync(`${s.root}/b.ts`)).toBe(false);
  });

  it('a bare deny takes the tool away from the model', () => {
    dirs = makeTempDirs();
    const config = new Config({
      roots: [dirs.root],
      homeDir: dirs.home,
      settings: { permissions: { deny: ['WebFetch', 'Bash'] } },
    });
    configs.push(config);
    const names = createToolRegistry(config, { env: {} }).getAllToolNames();
    expect(names).not.toContain('web_fetch');
    expect(names).not.toContain('run_shell_command');
    expect(names).toContain('read_file');
  });
});

describe('rules in a project folder the person has not trusted', () => {
  it('drops the allow rules of the project and keeps its deny rules', async () => {
    dirs = makeTempDirs();
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(`${dirs.root}/.toolhost`);
    writeFileSync(
      `${dirs.root}/.toolhost/settings.json`,
      JSON.stringify({ permissions: { allow: ['Bash(touch:*)'], deny: ['Bash(rm:*)'] } }),
    );
    writeFileSync(`${dirs.root}/keep`, 'x');
    const { config, settings } = Config.load({
      root: dirs.root,
      homeDir: dirs.home,
      env: {},
      systemSettingsPath: `${dirs.base}/none.json`,
    });
    configs.push(config);
    expect(settings.untrustedProject?.keys).toEqual(['permissions.allow']);
    const s = scriptedScheduler(config, { answer: null });
    expect((await s.call('run_shell_command', shell('touch made'))).status).toBe('error');
    expect(existsSync(`${dirs.root}/made`)).toBe(false);
    config.setApprovalMode('yolo');
    expect((await s.call('run_shell_command', shell('rm keep'))).status).toBe('error');
    expect(existsSync(`${dirs.root}/keep`)).toBe(true);
  });
});
