/**
 * The OS sandbox around shell commands, tried as an attacker would, with real bwrap. Each
 * test proves its point by an effect: a canary file outside the workspace kept, a secret
 * not printed, a server that saw no connection, a process that is gone.
 */

import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Config } from '../src/config/config.js';
import type { Settings } from '../src/config/settings.js';
import { CoreToolScheduler } from '../src/scheduler/core-tool-scheduler.js';
import { sandboxStatus } from '../src/shell/sandbox/sandbox.js';
import { createToolRegistry } from '../src/tools/builtin.js';
import { ShellTool, type ShellToolParams } from '../src/tools/shell.js';
import { ToolConfirmationOutcome, ToolErrorType } from '../src/tools/tools.js';
import { SECRET_FILES, VISIBLE_FILES, writeCredentialHome } from './helpers/credentials.js';
import { startServer, type TestServer } from './helpers/http-server.js';
import { processesRunning, uniqueSleep, waitUntil } from './helpers/processes.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

const status = sandboxStatus('allow');
const unavailable = status.available ? null : status.reason;
if (unavailable) {
  // Visible in the test output, not only as a skipped name.
  console.warn(`sandbox tests skipped: the sandbox does not work here (${unavailable})`);
}
const describeSandbox = describe.skipIf(!status.available || process.platform !== 'linux');
const label = unavailable ? ` (skipped: ${unavailable})` : '';

let ws: TempWorkspace;
/** A folder outside both the workspace and /tmp (which the sandbox replaces). */
let outside: string;

beforeAll(() => {
  outside = mkdtempSync('/var/tmp/toolhost-sandbox-canary-');
});
afterAll(() => rmSync(outside, { recursive: true, force: true }));
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(async () => {
  await ws.config.dispose();
  ws.cleanup();
});

function shellWith(
  shell: NonNullable<NonNullable<Settings['tools']>['shell']>,
  roots?: string[],
  home?: string,
) {
  const config = new Config({
    roots: roots ?? [ws.root],
    homeDir: home ?? ws.home,
    settings: { tools: { shell } },
  });
  return { config, tool: new ShellTool(config) };
}

async function run(
  tool: ShellTool,
  command: string,
  extra: Partial<ShellToolParams> = {},
): Promise<{ text: string; output: string; error?: string }> {
  const result = await tool.execute(
    { command, is_background: false, ...extra },
    new AbortController().signal,
  );
  const text = String(result.llmContent);
  // Only what the command printed: the result also repeats the command line.
  const output = text.includes('\nOutput:') ? text.slice(text.indexOf('\nOutput:')) : text;
  return { text, output, error: result.error?.type };
}

describeSandbox(`sandbox: the file system${label}`, () => {
  it('keeps files outside the workspace as they were, while the workspace is writable', async () => {
    const canary = path.join(outside, 'canary.txt');
    const doomed = path.join(outside, 'doomed.txt');
    writeFileSync(canary, 'keep');
    writeFileSync(doomed, 'keep');
    const beside = path.join(ws.base, 'beside.txt'); // next to the workspace, under /tmp
    writeFileSync(beside, 'keep');
    const { tool } = shellWith({ sandbox: 'on' });
    const { text } = await run(
      tool,
      [
        `echo pwned > ${canary}`,
        `rm -f ${doomed}`,
        `touch ${outside}/created`,
        `echo pwned > ${beside}`,
        `mkdir ${outside}/dir`,
        `ln -s /etc ${outside}/link`,
        'echo inside > inside.txt',
        'echo done',
      ].join('; '),
    );
    expect(text).toContain('done');
    expect(readFileSync(canary, 'utf8')).toBe('keep');
    expect(readFileSync(doomed, 'utf8')).toBe('keep');
    expect(readFileSync(beside, 'utf8')).toBe('keep');
    for (const made of ['created', 'dir', 'link'])
      expect(existsSync(path.join(outside, made))).toBe(false);
    expect(readFileSync(ws.p('inside.txt'), 'utf8')).toBe('inside\n');
  });

  it("gives a private /tmp, and toolhost's project temporary folder read-only", async () => {
    const { tool, config } = shellWith({ sandbox: 'on' });
    const marker = `toolhost-private-${process.pid}-${Date.now()}`;
    mkdirSync(config.projectTempDir, { recursive: true });
    writeFileSync(path.join(config.projectTempDir, 'saved'), 'saved-by-toolhost');
    const { output } = await run(
      tool,
      `echo x > /tmp/${marker} && cat /tmp/${marker}; echo y > ${config.projectTempDir}/note; cat ${config.projectTempDir}/saved`,
    );
    expect(output).toContain('x\n');
    expect(existsSync(`/tmp/${marker}`)).toBe(false);
    expect(existsSync(path.join(config.projectTempDir, 'note'))).toBe(false);
    expect(output).toContain('saved-by-toolhost');
  });

  it('hides credentials in the home folder, even when the home folder is the workspace', async () => {
    const home = ws.home;
    writeCredentialHome(home);
    const { tool } = shellWith({ sandbox: 'on' }, [home], home);
    const { output } = await run(
      tool,
      [
        `cat ${Object.keys(SECRET_FILES)
          .map((file) => path.join(home, file))
          .join(' ')}`,
        `grep -r SECRET ${home}`,
        `echo ssh-rsa-evil >> ${home}/.ssh/authorized_keys`,
        `umount ${home}/.ssh`,
        `cat ${Object.keys(VISIBLE_FILES)
          .map((file) => path.join(home, file))
          .join(' ')}`,
      ].join('; '),
    );
    for (const content of Object.values(VISIBLE_FILES)) expect(output).toContain(content);
    expect(output).not.toContain('SECRET');
    expect(existsSync(path.join(home, '.ssh/authorized_keys'))).toBe(false);
    expect(readFileSync(path.join(home, '.netrc'), 'utf8')).toBe('SECRET-NETRC');
  });

  /** git in `root` outside the sandbox, with an identity to commit as. */
  const gitIn = (root: string, ...args: string[]) =>
    execFileSync('git', ['-C', root, '-c', 'user.email=t@t', '-c', 'user.name=t', ...args], {
      stdio: 'pipe',
    });
  /** Commits in `root` outside the sandbox, as the person would later; hooks run. */
  const commitOutside = (root: string) =>
    gitIn(root, 'commit', '-q', '--allow-empty', '-m', 'later');
  /** Shell lines that make `dir` a git folder whose post-commit hook writes `canary`. */
  const plantRepository = (dir: string, canary: string) => [
    `mkdir -p ${dir}/hooks ${dir}/objects ${dir}/refs`,
    `cp -r .git/objects .git/refs .git/HEAD ${dir}/ 2>/dev/null`,
    `printf "#!/bin/sh\\necho planted > ${canary}\\n" > ${dir}/hooks/post-commit`,
    `chmod +x ${dir}/hooks/post-commit`,
  ];

  it('keeps .git read-only and in place, so no hook is planted for a later git outside', async () => {
    execFileSync('git', ['init', '-q', ws.root]);
    gitIn(ws.root, 'commit', '-q', '--allow-empty', '-m', 'one');
    const config = readFileSync(ws.p('.git/config'), 'utf8');
    const canary = path.join(outside, 'git-canary');
    const { tool } = shellWith({ sandbox: 'on' });
    const { text } = await run(
      tool,
      [
        ...plantRepository(ws.p('evil'), canary),
        // commondir moves hooks and config to another folder for every later git run.
        `echo ${ws.p('evil')} > .git/commondir`,
        `printf "#!/bin/sh\\necho planted > ${canary}\\n" > .git/hooks/post-commit`,
        'printf "[core]\\n\\tfsmonitor = ./evil\\n" >> .git/config',
        'mv .git .git-old',
        'git -c user.email=t@t -c user.name=t commit -qm two --allow-empty || echo commit-refused',
        'echo done',
      ].join('; '),
    );
    expect(text).toContain('commit-refused');
    expect(text).toContain('done');
    expect(existsSync(ws.p('.git/commondir'))).toBe(false);
    expect(readFileSync(ws.p('.git/config'), 'utf8')).toBe(config);
    expect(existsSync(ws.p('.git-old'))).toBe(false);
    commitOutside(ws.root);
    expect(existsSync(canary)).toBe(false);
    expect(execFileSync('git', ['-C', ws.root, 'log', '--format=%s'], { encoding: 'utf8' })).toBe(
      'later\none\n',
    );
  });

  it('keeps a linked .git from being swapped for a folder with a planted hook', async () => {
    const realGit = path.join(ws.base, 'real-git');
    execFileSync('git', ['init', '-q', '--separate-git-dir', realGit, ws.root]);
    // git made a .git file; the layout in question has a link instead.
    rmSync(ws.p('.git'));
    symlinkSync(realGit, ws.p('.git'));
    ws.write('kept.txt', 'old\n');
    ws.write('src/a.txt', 'old\n');
    const canary = path.join(outside, 'linked-canary');
    const { tool } = shellWith({ sandbox: 'on' });
    const { output } = await run(
      tool,
      [
        'cp -r .git .git-copy',
        'rm -f .git || echo remove-refused',
        'mv .git .git-moved || echo move-refused',
        ...plantRepository('.git-copy', canary),
        'ln -sfn .git-copy .git',
        `printf "#!/bin/sh\\necho planted > ${canary}\\n" > ${realGit}/hooks/post-commit`,
        // The rest of the root is as writable as before.
        'echo new > kept.txt && echo new > src/a.txt && echo new > src/b.txt && echo written',
      ].join('; '),
    );
    expect(output).toContain('remove-refused');
    expect(output).toContain('move-refused');
    expect(output).toContain('written');
    expect(readlinkSync(ws.p('.git'))).toBe(realGit);
    expect(readFileSync(ws.p('kept.txt'), 'utf8')).toBe('new\n');
    expect(readFileSync(ws.p('src/b.txt'), 'utf8')).toBe('new\n');
    commitOutside(ws.root);
    expect(existsSync(canary)).toBe(false);
  });

  it("keeps the project's settings from being written, even through a linked .toolhost", async () => {
    const { tool } = shellWith({ sandbox: 'on' });
    const settings = ws.p('.toolhost/settings.json');
    await run(
      tool,
      `mkdir -p .toolhost; echo '{"tools":{"shell":{"sandbox":"off"}}}' > ${settings}`,
    );
    expect(existsSync(settings)).toBe(false);
    // The empty folder made to mount on is gone again: given back once the sandbox's mounts
    // are gone, a moment after its exit under load (sandbox/policy.ts, lookAgainSoon).
    expect(await waitUntil(() => !existsSync(ws.p('.toolhost')), 5_000)).toBe(true);
    const realSettings = path.join(ws.base, 'settings-elsewhere');
    mkdirSync(realSettings);
    symlinkSync(realSettings, ws.p('.toolhost'));
    const { output } = await run(
      tool,
      `echo '{}' > .toolhost/settings.json; rm .toolhost || echo remove-refused; mkdir -p x/.toolhost; echo done`,
    );
    expect(output).toContain('remove-refused');
    expect(output).toContain('done');
    expect(readlinkSync(ws.p('.toolhost'))).toBe(realSettings);
    expect(existsSync(path.join(realSettings, 'settings.json'))).toBe(false);
  });

  it('keeps a worktree pointing where it did, and its git folders read-only', async () => {
    execFileSync('git', ['init', '-q', ws.root]);
    rmSync(ws.p('.git/hooks'), { recursive: true });
    const git = (...args: string[]) => gitIn(ws.root, ...args);
    git('commit', '-q', '--allow-empty', '-m', 'first');
    const worktree = path.join(ws.base, 'linked');
    git('worktree', 'add', '-q', '--detach', worktree);
    const pointer = readFileSync(path.join(worktree, '.git'), 'utf8');
    const { tool } = shellWith({ sandbox: 'on' }, [ws.root, worktree]);
    const { text } = await run(
      tool,
      [
        'mkdir -p .git/hooks && printf "#!/bin/sh\\necho planted\\n" > .git/hooks/post-checkout',
        `echo "gitdir: ${ws.root}/evil" > ${worktree}/.git`,
        `rm -f ${worktree}/.git`,
        'echo done',
      ].join('; '),
    );
    expect(text).toContain('done');
    expect(existsSync(ws.p('.git/hooks/post-checkout'))).toBe(false);
    expect(readFileSync(path.join(worktree, '.git'), 'utf8')).toBe(pointer);
  });

  it('tells the model a failure may come from the sandbox and how to ask to leave it', async () => {
    const { tool } = shellWith({ sandbox: 'auto' });
    const { text } = await run(tool, `touch ${outside}/x`);
    expect(text).toMatch(/ran in toolhost's OS sandbox/);
    expect(text).toContain('outside_sandbox: true');
    expect(existsSync(path.join(outside, 'x'))).toBe(false);
  });
});

describeSandbox(`sandbox: processes${label}`, () => {
  it("cannot read toolhost's environment or see processes outside", async () => {
    const { tool } = shellWith({ sandbox: 'on' });
    const { output: text } = await run(
      tool,
      `ls /proc | grep -c '^[0-9]'; test -e /proc/${process.pid} && echo parent-visible; cat /proc/$PPID/comm`,
    );
    expect(text).not.toContain('parent-visible');
    // Its parent is the sandbox's own first process, not toolhost.
    expect(text).toContain('bwrap');
    const count = Number(/Output:\n(\d+)/.exec(text)?.[1]);
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(10);
  });

  it('ends whatever the command left running, even a process that left the group', async () => {
    const { tool } = shellWith({ sandbox: 'on' });
    const marker = `sleep ${uniqueSleep()}`;
    try {
      const { text } = await run(tool, `setsid ${marker} > /dev/null 2>&1 & echo started`);
      expect(text).toContain('started');
      expect(await waitUntil(() => processesRunning(marker).length === 0, 10_000)).toBe(true);
    } finally {
      for (const pid of processesRunning(marker)) process.kill(pid, 'SIGKILL');
    }
  });

  it('runs background commands in the sandbox too', async () => {
    const canary = path.join(outside, 'background-canary.txt');
    writeFileSync(canary, 'keep');
    const { tool, config } = shellWith({ sandbox: 'on' });
    try {
      await run(tool, `echo pwned > ${canary}; echo finished > done.txt`, { is_background: true });
      expect(await waitUntil(() => existsSync(ws.p('done.txt')), 20_000)).toBe(true);
      expect(readFileSync(canary, 'utf8')).toBe('keep');
    } finally {
      await config.dispose();
    }
  });
});

describeSandbox(`sandbox: the network${label}`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer((_req, res) => res.end('reached'));
  });
  afterAll(() => server.close());

  const fetchCommand = () =>
    `exec 3<>/dev/tcp/127.0.0.1/${server.port} && printf 'GET /probe HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`;

  it('is on by default', async () => {
    const { tool } = shellWith({ sandbox: 'on' });
    const { text } = await run(tool, fetchCommand());
    expect(text).toContain('reached');
    expect(server.requests).toContain('GET /probe');
  });

  it('is off with tools.shell.network "deny": nothing reaches even a server on this machine', async () => {
    const before = server.requests.length;
    const { tool } = shellWith({ sandbox: 'on', network: 'deny' });
    const { text } = await run(tool, fetchCommand());
    expect(text).not.toContain('reached');
    expect(server.requests.length).toBe(before);
    expect(text).toContain('there is no network');
  });
});

describeSandbox(`sandbox: settings and leaving it${label}`, () => {
  it('"off" runs commands without it', async () => {
    const { tool } = shellWith({ sandbox: 'off' });
    await run(tool, `echo made > ${outside}/off.txt`);
    expect(readFileSync(path.join(outside, 'off.txt'), 'utf8')).toBe('made\n');
  });

  it('outside_sandbox asks the person, even for a read-only command', async () => {
    const { tool } = shellWith({ sandbox: 'auto' });
    const details = await tool.shouldConfirmExecute({
      command: 'ls',
      is_background: false,
      outside_sandbox: true,
    });
    expect(details).toMatchObject({ title: expect.stringMatching(/outside the sandbox/) });
    expect(await tool.shouldConfirmExecute({ command: 'ls', is_background: false })).toBe(false);
  });

  it('outside_sandbox runs outside once the person agrees, and not when they decline', async () => {
    const config = new Config({
      roots: [ws.root],
      homeDir: ws.home,
      settings: { tools: { shell: { sandbox: 'auto' } } },
    });
    const answers: string[] = [];
    const schedule = async (outcome: ToolConfirmationOutcome, file: string) => {
      const scheduler = new CoreToolScheduler({
        config,
        toolRegistry: createToolRegistry(config),
        onConfirmationRequest: async (call) => {
          answers.push(call.confirmationDetails.title);
          return { outcome };
        },
      });
      return scheduler.schedule(
        {
          callId: file,
          name: 'run_shell_command',
          args: {
            command: `touch ${outside}/${file}`,
            is_background: false,
            outside_sandbox: true,
          },
        },
        new AbortController().signal,
      );
    };
    await schedule(ToolConfirmationOutcome.Cancel, 'declined');
    await schedule(ToolConfirmationOutcome.ProceedOnce, 'agreed');
    expect(answers).toHaveLength(2);
    expect(existsSync(path.join(outside, 'declined'))).toBe(false);
    expect(existsSync(path.join(outside, 'agreed'))).toBe(true);
  });

  it('"on" refuses to run outside it', async () => {
    const { tool } = shellWith({ sandbox: 'on' });
    const { error, text } = await run(tool, `touch ${outside}/refused`, { outside_sandbox: true });
    expect(error).toBe(ToolErrorType.EXECUTION_DENIED);
    expect(text).toContain('tools.shell.sandbox is "on"');
    expect(existsSync(path.join(outside, 'refused'))).toBe(false);
  });
});
