/**
 * Who said yes decides the profile, seen through the real scheduler and run_shell_command:
 * a line proven read-only runs without asking only where the unasked profile contains it,
 * and there it still runs (the commands that ran unasked before keep doing so); where that
 * profile cannot run (here: the sandbox off), it asks, unless the person's own settings
 * take parsing alone as enough. Proven by effect: a secret printed or not, a canary made
 * by a stand-in program or not.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Config } from '../src/config/config.js';
import type { Settings } from '../src/config/settings.js';
import { sandboxStatus } from '../src/shell/sandbox/sandbox.js';
import { ShellTool } from '../src/tools/shell.js';
import { waitUntil } from './helpers/processes.js';
import { openFolder, removeFolder } from './helpers/sandbox-run.js';
import { outputOf, scriptedScheduler } from './helpers/scheduler.js';
import { caseFolder, runThroughScheduler } from './helpers/shell-policy.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

const unasked =
  process.platform === 'linux' && sandboxStatus('deny', undefined, undefined, 'unasked').available;
if (!unasked) console.warn('unasked profile tests skipped: bwrap does not work here');

let ws: TempWorkspace;
/** Outside the workspace and outside /tmp, which every profile replaces. */
let outside: string;
beforeAll(() => {
  ws = makeWorkspace();
  outside = openFolder('toolhost-unasked-outside-');
  writeFileSync(path.join(outside, 'secret.txt'), 'OUTSIDE-SECRET\n');
  mkdirSync(path.join(outside, 'sub'));
});
afterAll(() => {
  ws.cleanup();
  removeFolder(outside);
});

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-C', dir, '-c', 'user.email=t@t', '-c', 'user.name=t', ...args], {
    stdio: 'pipe',
  });

describe.skipIf(!unasked)('read-only lines in default mode, with the unasked profile', () => {
  it('still run without asking and see the workspace', async () => {
    const dir = caseFolder(ws, (d) => {
      writeFileSync(path.join(d, 'a.txt'), 'needle one\nbeta\n');
      writeFileSync(path.join(d, 'b.txt'), 'needle two\n');
      git(d, 'init', '-q');
      git(d, 'add', 'a.txt');
      git(d, 'commit', '-qm', 'first-commit');
    });
    const lines: [string, string][] = [
      ['cat a.txt', 'needle one'],
      ['ls -la', 'b.txt'],
      ['grep -rn needle .', './b.txt:1:needle two'],
      ['head -1 a.txt && wc -l b.txt', '1 b.txt'],
      ["find . -name '*.txt' | sort", './a.txt'],
      ['sort a.txt | uniq -c', 'beta'],
      ['diff a.txt b.txt', '> needle two'],
      ['git status --short', '?? b.txt'],
      ['git log --oneline', 'first-commit'],
      ['git diff --stat HEAD', ''],
      ['pwd', dir],
    ];
    for (const [line, expected] of lines) {
      const run = await runThroughScheduler(ws, line, { mode: 'default', directory: dir });
      expect(run.asked, line).toEqual([]);
      expect(run.status, `${line}: ${run.message}`).toBe('success');
      expect(run.message, line).toContain(expected);
    }
  });

  it('cannot read outside, even where a line fools the parsing (a link before ..)', async () => {
    const dir = caseFolder(ws, (d) => symlinkSync(path.join(outside, 'sub'), path.join(d, 'link')));
    for (const line of [
      'cat link/../secret.txt',
      'grep -r SECRET link/..',
      'head link/../secret.txt',
    ]) {
      const run = await runThroughScheduler(ws, line, { mode: 'default', directory: dir });
      expect(run.message, line).not.toContain('OUTSIDE-SECRET');
    }
  });

  it('runs a read-only background line in the profile too (its socket filter handed over)', async () => {
    const dir = caseFolder(ws, (d) => writeFileSync(path.join(d, 'a.txt'), 'background-read\n'));
    const config = new Config({ roots: [ws.root], homeDir: ws.home });
    try {
      const tool = new ShellTool(config);
      const params = { command: 'cat a.txt', is_background: true, directory: dir };
      expect(await tool.shouldConfirmExecute(params)).toBe(false);
      const result = await tool.execute(params, new AbortController().signal);
      const log = /Output is written to (\S+);/.exec(String(result.llmContent))?.[1];
      expect(log).toBeDefined();
      await waitUntil(() => readFileSync(log!, 'utf8').includes('background-read'), 10_000);
      expect(readFileSync(log!, 'utf8')).toContain('background-read');
    } finally {
      await config.dispose();
    }
  });

  it('runs a read-only line in the approved profile under a yes to everything (yolo)', async () => {
    const dir = caseFolder(ws, (d) => symlinkSync(path.join(outside, 'sub'), path.join(d, 'link')));
    const line = 'cat link/../secret.txt';
    const contained = await runThroughScheduler(ws, line, { mode: 'default', directory: dir });
    expect(contained.message).not.toContain('OUTSIDE-SECRET');
    // The person allowed every command, this one included: the approved profile reads outside.
    const yolo = await runThroughScheduler(ws, line, { mode: 'yolo', directory: dir });
    expect(yolo.message).toContain('OUTSIDE-SECRET');
  });

  it('runs in the approved profile once the person said yes', async () => {
    const dir = caseFolder(ws);
    // Not read-only: asked, allowed, and then the workspace is writable.
    const run = await runThroughScheduler(ws, 'touch made.txt && ls', {
      mode: 'default',
      directory: dir,
      answer: undefined,
    });
    expect(run.asked).toHaveLength(1);
    expect(existsSync(path.join(dir, 'made.txt'))).toBe(false); // the default answer declines
    const yes = await runThroughScheduler(ws, 'touch made.txt && ls', {
      mode: 'yolo',
      directory: dir,
    });
    expect(yes.status).toBe('success');
    expect(existsSync(path.join(dir, 'made.txt'))).toBe(true);
  });
});

describe('read-only lines where the unasked profile cannot run (tools.shell.sandbox "off")', () => {
  /** A folder on PATH ahead of the system's, whose `ls` leaves a canary and lists. */
  let bin: string;
  let canary: string;
  let savedPath: string | undefined;
  beforeEach(() => {
    bin = openFolder('toolhost-planted-bin-');
    canary = path.join(bin, 'canary');
    writeFileSync(path.join(bin, 'ls'), `#!/bin/sh\ntouch ${canary}\nexec /bin/ls "$@"\n`);
    chmodSync(path.join(bin, 'ls'), 0o755);
    savedPath = process.env.PATH;
    process.env.PATH = `${bin}:${savedPath ?? ''}`;
  });
  afterEach(() => {
    process.env.PATH = savedPath;
    removeFolder(bin);
  });

  const off: Settings = { tools: { shell: { sandbox: 'off' } } };

  it('ask, so with nobody to answer nothing runs', async () => {
    const dir = caseFolder(ws);
    const run = await runThroughScheduler(ws, 'ls', {
      mode: 'default',
      directory: dir,
      settings: off,
    });
    expect(run.asked).toHaveLength(1);
    expect(String(run.asked[0]?.title)).toContain('tools.shell.parseOnlyAutoApproval');
    expect(existsSync(canary)).toBe(false);
  });

  it('run unasked when the settings given to the session opt into parsing alone', async () => {
    const dir = caseFolder(ws);
    const run = await runThroughScheduler(ws, 'ls', {
      mode: 'default',
      directory: dir,
      settings: { tools: { shell: { sandbox: 'off', parseOnlyAutoApproval: true } } },
    });
    expect(run.asked).toEqual([]);
    expect(existsSync(canary)).toBe(true);
  });

  it("take the opt-in from the person's own settings file, never from the project's", async () => {
    const writeSettings = (folder: string, settings: Settings) => {
      mkdirSync(path.join(folder, '.toolhost'), { recursive: true });
      writeFileSync(path.join(folder, '.toolhost', 'settings.json'), JSON.stringify(settings));
    };
    const project = ws.mkdir(`project-${Date.now()}`);
    const home = ws.mkdir(`home-${Date.now()}`);
    const runLs = async () => {
      const { config } = Config.load({ root: project, homeDir: home, env: {} });
      const { call, asked } = scriptedScheduler(config, { answer: null });
      try {
        const done = await call('run_shell_command', { command: 'ls', is_background: false });
        return { asked, output: outputOf(done), error: done.response.error?.type };
      } finally {
        await config.dispose();
      }
    };
    writeSettings(home, off);
    writeSettings(project, { tools: { shell: { parseOnlyAutoApproval: true } } });
    // A trusted project, so that only this rule keeps its setting out.
    writeFileSync(
      path.join(home, '.toolhost', 'trustedFolders.json'),
      JSON.stringify({ [project]: 'TRUST_FOLDER' }),
    );
    const refused = await runLs();
    expect(refused.error).toBe('execution_denied');
    expect(existsSync(canary)).toBe(false);
    rmSync(path.join(project, '.toolhost'), { recursive: true });
    writeSettings(home, { tools: { shell: { sandbox: 'off', parseOnlyAutoApproval: true } } });
    const ran = await runLs();
    expect(ran.error).toBeUndefined();
    expect(existsSync(canary)).toBe(true);
  });
});
