/**
 * Classes of command lines that looked read-only to the parser but read outside the
 * workspace, ran a program planted in it, or left a process behind (issue 26). Each line
 * is first run in yolo mode to show that real bash (or real git) does the harm: prints the
 * secret kept outside the workspace, or creates the canary `pwned`; then in default mode,
 * with nobody to answer, it must ask and the harm must not happen. The OS sandbox is off,
 * with the person's opt-in to parse-only auto-approval (tools.shell.parseOnlyAutoApproval):
 * parsing must hold where the sandbox does not work (and the sandbox hides this outside
 * folder, under /tmp, anyway).
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Settings } from '../src/config/settings.js';
import { readOnlyGitEnvironment } from '../src/shell/git-read-only.js';
import { shellEnvironment } from '../src/shell/shell-environment.js';
import { ToolErrorType } from '../src/tools/tools.js';
import { processesMatching, uniqueSleep, waitUntil } from './helpers/processes.js';
import { caseFolder, runThroughScheduler } from './helpers/shell-policy.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

const SECRET = 'secret-from-outside-the-workspace';
const settings: Settings = { tools: { shell: { sandbox: 'off', parseOnlyAutoApproval: true } } };

let ws: TempWorkspace;
/** Outside the workspace: secret.txt, and sub/ that the case folders' `linkdir` leads to. */
let outside: string;
let cases = 0;
beforeAll(() => {
  ws = makeWorkspace();
  outside = path.join(ws.base, 'outside');
  mkdirSync(path.join(outside, 'sub'), { recursive: true });
  writeFileSync(path.join(outside, 'secret.txt'), `${SECRET}\n`);
  writeFileSync(path.join(ws.base, 'secret.txt'), `${SECRET}\n`);
});
afterAll(() => ws.cleanup());

/** `line` with OUT and DIR replaced by the outside folder and the case folder. */
function fill(line: string, dir: string): string {
  return line.replaceAll('OUT', outside).replaceAll('DIR', dir);
}

/** Shows the line's harm in yolo mode, then that default mode asks and prevents it. */
async function expectHarmThenAsked(
  line: string,
  setup: (dir: string) => void,
  harmed: (dir: string, output: string) => boolean,
  workspace: TempWorkspace = ws,
  folder?: () => string,
) {
  const open = folder?.() ?? caseFolder(workspace, setup);
  const yolo = await runThroughScheduler(workspace, fill(line, open), {
    mode: 'yolo',
    directory: open,
    settings,
  });
  expect(harmed(open, yolo.message), `in yolo mode the line does harm: ${yolo.message}`).toBe(true);
  const dir = folder?.() ?? caseFolder(workspace, setup);
  const run = await runThroughScheduler(workspace, fill(line, dir), {
    mode: 'default',
    directory: dir,
    settings,
  });
  expect(run.asked, run.message).toHaveLength(1);
  expect(harmed(dir, run.message)).toBe(false);
}

const printsSecret = (_dir: string, output: string) => output.includes(SECRET);
const canaryMade = (dir: string) => existsSync(path.join(dir, 'pwned'));

function linked(dir: string) {
  symlinkSync(path.join(outside, 'sub'), path.join(dir, 'linkdir'));
  writeFileSync(path.join(dir, 'a.txt'), 'inside\n');
}

describe('a path is judged with its links followed before `..`, as the kernel does', () => {
  for (const line of [
    'cat linkdir/../secret.txt',
    'head linkdir/../secret.txt',
    'tail -n 1 linkdir/../secret.txt',
    'grep secret linkdir/../secret.txt',
    'grep -r secret linkdir/..',
    'sort linkdir/../secret.txt',
    'diff a.txt linkdir/../secret.txt',
    'cat ./linkdir/../secret.txt',
    'env cat linkdir/../secret.txt',
    'nice cat linkdir/../secret.txt',
    'command cat linkdir/../secret.txt',
    'timeout 5 cat linkdir/../secret.txt',
    'wc -c linkdir/../secret.txt && cat < linkdir/../secret.txt',
  ]) {
    it(JSON.stringify(line), () => expectHarmThenAsked(line, linked, printsSecret));
  }

  it.skipIf(!onPath('rg'))('"rg secret linkdir/../secret.txt"', () =>
    expectHarmThenAsked('rg secret linkdir/../secret.txt', linked, printsSecret),
  );
});

describe('other ways to name a file outside', () => {
  for (const line of [
    'env -C OUT cat secret.txt',
    'env --chdir=../.. cat outside/secret.txt',
    'git diff a.txt OUT/secret.txt',
  ]) {
    it(JSON.stringify(line), () => expectHarmThenAsked(line, linked, printsSecret));
  }

  it('"git diff a.txt OUT/secret.txt" in a repository (its implicit --no-index)', () =>
    expectHarmThenAsked(
      'git diff a.txt OUT/secret.txt',
      (d) => {
        linked(d);
        git(d, 'init', '-q');
      },
      printsSecret,
    ));

  /** The workspace with its home folder inside: `~` alone stays inside. */
  function holdingHome(): TempWorkspace {
    const home = path.join(ws.root, 'home');
    mkdirSync(home, { recursive: true });
    return { ...ws, home };
  }

  it('"cat ~-/secret.txt" (the previous folder) in a workspace holding HOME', async () => {
    const before = process.env.OLDPWD;
    process.env.OLDPWD = outside;
    try {
      await expectHarmThenAsked('cat ~-/secret.txt', linked, printsSecret, holdingHome());
    } finally {
      if (before === undefined) delete process.env.OLDPWD;
      else process.env.OLDPWD = before;
    }
  });

  it('"cat ~+/../secret.txt" at the root of a workspace holding HOME', () =>
    expectHarmThenAsked(
      'cat ~+/../secret.txt',
      () => {},
      printsSecret,
      holdingHome(),
      () => ws.root,
    ));
});

/** A file named like a read-only command, in the workspace, that creates the canary. */
function planted(dir: string) {
  const payload = `#!/bin/sh\n: > '${dir}/pwned'\n`;
  for (const file of ['ls', 'cat', 'bin/ls', 'bin/grep', 'node_modules/.bin/rg']) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), payload);
    chmodSync(path.join(dir, file), 0o755);
  }
  writeFileSync(path.join(dir, 'a.txt'), 'inside\n');
}

const PROGRAM_PATHS = [
  './ls',
  'bin/grep x a.txt',
  'node_modules/.bin/rg x',
  'DIR/ls -la',
  'timeout 5 ./ls',
  'env ./cat a.txt',
  'command ./cat a.txt',
];
/** Each already asked in default mode for setting a variable; under deny rules they ran. */
const PATH_CHANGES = [
  'for PATH in DIR/bin; do ls; done',
  'printf -v PATH %s DIR/bin; ls',
  'read PATH <<< DIR/bin; ls',
  'mapfile -t PATH <<< DIR/bin; ls',
  'unset PATH; ls',
  'declare PATH=DIR/bin; ls',
  'BASH_CMDS[ls]=DIR/ls; ls',
];

describe('a program named by its path, or found through a changed PATH, asks', () => {
  for (const line of [...PROGRAM_PATHS, ...PATH_CHANGES]) {
    it(JSON.stringify(line), () => expectHarmThenAsked(line, planted, canaryMade));
  }

  it('system programs by their absolute path still run unasked', async () => {
    const dir = caseFolder(ws, planted);
    const run = await runThroughScheduler(ws, '/bin/cat a.txt && /usr/bin/head -1 a.txt', {
      mode: 'default',
      directory: dir,
      settings,
    });
    expect(run.asked).toEqual([]);
    expect(run.message).toContain('inside');
  });
});

describe('while tools.exclude rules exist, a program path or changed PATH is refused in yolo mode', () => {
  const deny: Settings = { tools: { ...settings.tools, exclude: ['run_shell_command(rm)'] } };
  for (const line of ['./ls', 'timeout 5 ./ls', ...PATH_CHANGES]) {
    it(JSON.stringify(line), async () => {
      const open = caseFolder(ws, planted);
      await runThroughScheduler(ws, fill(line, open), { mode: 'yolo', directory: open, settings });
      expect(canaryMade(open), 'without the rule the planted program runs').toBe(true);
      const dir = caseFolder(ws, planted);
      const run = await runThroughScheduler(ws, fill(line, dir), {
        mode: 'yolo',
        directory: dir,
        settings: deny,
      });
      expect(run.errorType).toBe(ToolErrorType.EXECUTION_DENIED);
      expect(canaryMade(dir)).toBe(false);
    });
  }
});

describe('a read-only command that outlives the call asks', () => {
  it('"setsid -f tail -f FILE"', async () => {
    const marker = `follow-${uniqueSleep()}.txt`;
    const setup = (d: string) => writeFileSync(path.join(d, marker), 'x\n');
    const left = () => processesMatching(marker);
    const end = () => {
      for (const line of left()) process.kill(Number(line.trim().split(/\s+/)[0]), 'SIGKILL');
    };
    try {
      const open = caseFolder(ws, setup);
      await runThroughScheduler(ws, `setsid -f tail -f ${marker}`, {
        mode: 'yolo',
        directory: open,
        settings,
      });
      expect(await waitUntil(() => left().length > 0), 'in yolo mode tail stays').toBe(true);
      end();
      expect(await waitUntil(() => left().length === 0)).toBe(true);
      const dir = caseFolder(ws, setup);
      const run = await runThroughScheduler(ws, `setsid -f tail -f ${marker}`, {
        mode: 'default',
        directory: dir,
        settings,
      });
      expect(run.asked).toHaveLength(1);
      expect(left()).toEqual([]);
    } finally {
      end();
    }
  });
});

// ---- git ---------------------------------------------------------------------------------

const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

function git(dir: string, ...args: string[]): string {
  return execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'protocol.file.allow=always', ...args],
    { cwd: dir, env: GIT_ENV, encoding: 'utf8', stdio: 'pipe', timeout: 20_000 },
  );
}

function onPath(program: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

/** An executable in `dir` that creates the canary there, then prints its first argument. */
function payload(dir: string, name = 'x.sh'): string {
  const file = path.join(dir, name);
  writeFileSync(file, `#!/bin/sh\ntouch '${dir}/pwned'\ncat "$1" 2>/dev/null\nexit 0\n`);
  chmodSync(file, 0o755);
  return file;
}

function appendConfig(gitDir: string, text: string) {
  const file = path.join(gitDir, 'config');
  writeFileSync(file, readFileSync(file, 'utf8') + text);
}

/**
 * A partial clone in `dir` (no blobs yet) of a repository outside, then `config` set in it:
 * git fetches a missing blob from its promisor remote when a command needs one.
 */
function partialClone(dir: string, config: () => [string, string][]) {
  const source = path.join(outside, `source-${++cases}`);
  mkdirSync(source);
  writeFileSync(path.join(source, 'a.txt'), 'one\n');
  git(source, 'init', '-q');
  git(source, 'add', 'a.txt');
  git(source, 'commit', '-qm', 'one');
  git(source, 'config', 'uploadpack.allowFilter', 'true');
  git(dir, 'clone', '-q', '--filter=blob:none', '--no-checkout', `file://${source}`, '.');
  for (const [key, value] of config()) git(dir, 'config', key, value);
}

/** A commit in the git folder `gitDir` whose file is shown through a textconv that runs x.sh. */
function textconvRepository(gitDir: string, work: string, canaryDir: string) {
  git(work, `--git-dir=${gitDir}`, `--work-tree=${work}`, 'add', 'a.txt');
  git(work, `--git-dir=${gitDir}`, `--work-tree=${work}`, 'commit', '-qm', 'one');
  appendConfig(gitDir, `[diff "x"]\n\ttextconv = ${payload(canaryDir)}\n`);
  mkdirSync(path.join(gitDir, 'info'), { recursive: true });
  writeFileSync(path.join(gitDir, 'info', 'attributes'), '* diff=x\n');
}

const GIT_CASES: [string, string, (dir: string) => void][] = [
  [
    "a promisor remote's uploadpack",
    'git show HEAD',
    (d) =>
      partialClone(d, () => [['remote.origin.uploadpack', `touch '${d}/pwned'; git-upload-pack`]]),
  ],
  [
    'core.gitProxy for a promisor remote',
    'git log -p',
    (d) =>
      partialClone(d, () => [
        ['remote.origin.url', 'git://example.invalid/x'],
        ['core.gitProxy', payload(d)],
      ]),
  ],
  [
    'an ext:: promisor remote',
    'git show HEAD',
    (d) =>
      partialClone(d, () => [
        ['remote.origin.url', `ext::sh -c touch% ${d}/pwned`],
        ['protocol.ext.allow', 'always'],
      ]),
  ],
  [
    'an embedded bare repository with a textconv',
    'git -C evil show HEAD',
    (d) => {
      writeFileSync(path.join(d, 'a.txt'), 'one\n');
      git(d, 'init', '-q', '--bare', 'evil');
      textconvRepository(path.join(d, 'evil'), d, d);
    },
  ],
  [
    'the folder itself a bare repository with a textconv',
    'git show HEAD',
    (d) => {
      const work = path.join(outside, `work-${++cases}`);
      mkdirSync(work);
      writeFileSync(path.join(work, 'a.txt'), 'one\n');
      git(d, 'init', '-q', '--bare', '.');
      textconvRepository(d, work, d);
    },
  ],
  [
    'a gitlink without .gitmodules whose own git folder sets a textconv',
    'git diff --submodule=diff',
    (d) => {
      const sub = path.join(d, 'sub');
      mkdirSync(sub);
      writeFileSync(path.join(sub, 'a.txt'), 'one\n');
      git(sub, 'init', '-q');
      textconvRepository(path.join(sub, '.git'), sub, d);
      writeFileSync(path.join(sub, 'a.txt'), 'two\n');
      git(d, 'init', '-q');
      git(
        d,
        'update-index',
        '--add',
        '--cacheinfo',
        `160000,${git(sub, 'rev-parse', 'HEAD').trim()},sub`,
      );
      git(d, 'commit', '-qm', 'gitlink');
    },
  ],
  [
    'a repository reached through `-C linkdir/..`',
    'git -C linkdir/.. show HEAD',
    (d) => {
      const tree = path.join(outside, `tree-${++cases}`);
      mkdirSync(path.join(tree, 'sub'), { recursive: true });
      writeFileSync(path.join(tree, 'a.txt'), 'one\n');
      git(tree, 'init', '-q');
      textconvRepository(path.join(tree, '.git'), tree, d);
      symlinkSync(path.join(tree, 'sub'), path.join(d, 'linkdir'));
    },
  ],
];

describe('read-only git asks where a git folder it could read runs a program', () => {
  for (const [name, line, setup] of GIT_CASES) {
    it(`${name}: ${line}`, () => expectHarmThenAsked(line, setup, canaryMade));
  }
});

describe('the environment read-only git runs with switches fetching and bare discovery off', () => {
  /** Runs git in `dir` with the environment a read-only line gets, or the plain one. */
  function run(dir: string, safe: boolean, ...args: string[]) {
    const env = shellEnvironment(process.env);
    try {
      execFileSync('git', args, {
        cwd: dir,
        env: safe ? { ...env, ...readOnlyGitEnvironment(env) } : env,
        stdio: 'pipe',
        timeout: 20_000,
      });
    } catch {
      // git fails where the environment stops it: the canary tells what happened
    }
  }

  it('a partial clone fetches nothing, even when its config allows the file transport', () => {
    const setup = (d: string) =>
      partialClone(d, () => [
        ['remote.origin.uploadpack', `touch '${d}/pwned'; git-upload-pack`],
        ['protocol.file.allow', 'always'],
        ['protocol.allow', 'always'],
      ]);
    const open = caseFolder(ws, setup);
    run(open, false, 'show', 'HEAD');
    expect(canaryMade(open), 'without it the fetch runs the upload-pack command').toBe(true);
    const dir = caseFolder(ws, setup);
    for (const args of [
      ['show', 'HEAD'],
      ['log', '-p'],
      ['blame', 'a.txt'],
      ['diff', 'HEAD~0', '--', 'a.txt'],
    ])
      run(dir, true, ...args);
    expect(canaryMade(dir)).toBe(false);
  });

  it('a bare repository found by discovery is not used', () => {
    const setup = GIT_CASES.find(([name]) => name.startsWith('an embedded bare'))![2];
    const open = caseFolder(ws, setup);
    run(open, false, '-C', 'evil', 'show', 'HEAD');
    expect(canaryMade(open), 'without it the textconv runs').toBe(true);
    const dir = caseFolder(ws, setup);
    run(dir, true, '-C', 'evil', 'show', 'HEAD');
    expect(canaryMade(dir)).toBe(false);
  });
});

describe('read-only git still runs unasked in an ordinary repository', () => {
  for (const [line, marker] of [
    ['git diff a.txt', '+two'],
    ['git diff HEAD a.txt', '+two'],
    ['git log --oneline -1', 'one'],
    ['git -C sub/.. status --short', 'a.txt'],
  ] as const) {
    it(JSON.stringify(line), async () => {
      const dir = caseFolder(ws, (d) => {
        mkdirSync(path.join(d, 'sub'));
        writeFileSync(path.join(d, 'a.txt'), 'one\n');
        git(d, 'init', '-q');
        git(d, 'add', 'a.txt');
        git(d, 'commit', '-qm', 'one');
        writeFileSync(path.join(d, 'a.txt'), 'two\n');
      });
      const run = await runThroughScheduler(ws, line, {
        mode: 'default',
        directory: dir,
        settings,
      });
      expect(run.asked).toEqual([]);
      expect(run.message).toContain(marker);
    });
  }
});
