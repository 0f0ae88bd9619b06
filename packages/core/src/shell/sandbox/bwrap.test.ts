/**
 * What bubblewrap is asked to do for a policy, read as a list of mount and namespace
 * operations, and the probe that decides whether it works here (with the real bwrap and
 * with stand-ins that fail in each way). test/sandbox.test.ts proves the effects by
 * running commands inside.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempFolder, openDescriptorCount } from '../../../test/helpers/file-system.js';
import { PROMPT_FOLDER_ROOTS } from '../../config/prompt-folders.js';
import {
  bwrapArgs,
  bwrapLaunch,
  bwrapShell,
  findBwrap,
  probeBwrap,
  socketFilterBytes,
} from './bwrap.js';
import type { SandboxPolicy } from './policy.js';

let base: string;
let home: string;
let ws: string;
let temp: string;
beforeEach(() => {
  base = makeTempFolder('toolhost-bwrap-');
  home = path.join(base, 'home');
  ws = path.join(base, 'ws');
  temp = path.join(base, 'tmp', 'project');
  fs.mkdirSync(home);
  fs.mkdirSync(ws);
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

const policy = (over: Partial<SandboxPolicy> = {}): SandboxPolicy => ({
  workspaceRoots: [ws],
  projectTempDir: temp,
  homeDirs: [home],
  network: 'allow',
  ...over,
});

/** How many operands each bwrap option takes. */
const OPERANDS: Record<string, number> = {
  '--die-with-parent': 0,
  '--unshare-pid': 0,
  '--unshare-ipc': 0,
  '--unshare-net': 0,
  '--seccomp': 1,
  '--cap-drop': 1,
  '--symlink': 2,
  '--ro-bind': 2,
  '--bind': 2,
  '--dev': 1,
  '--proc': 1,
  '--tmpfs': 1,
  '--setenv': 2,
  '--chdir': 1,
};

/** bwrap's arguments as operations (`--bind /a /a`), in order; `--` ends them. */
function operations(args: string[]): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < args.length && args[i] !== '--') {
    const option = args[i]!;
    const count = OPERANDS[option];
    if (count === undefined) throw new Error(`unexpected bwrap option ${option}`);
    out.push([option, ...args.slice(i + 1, i + 1 + count)].join(' '));
    i += 1 + count;
  }
  expect(args.slice(i), 'the arguments end with --').toEqual(['--']);
  return out;
}

const SYSTEM = ['--ro-bind / /', '--dev /dev', '--proc /proc', '--tmpfs /tmp'];
const ISOLATED = ['--die-with-parent', '--unshare-pid', '--unshare-ipc', '--cap-drop ALL'];
/** The prompt folders of a root, made read-only (made first where missing). */
const promptBinds = (root: string) =>
  PROMPT_FOLDER_ROOTS.map((name) => `--ro-bind ${root}/${name} ${root}/${name}`);
const ending = (cwd: string) => ['--setenv TOOLHOST_SANDBOX bwrap', `--chdir ${cwd}`];

describe('bwrapArgs', () => {
  it('makes everything read-only, the roots writable, and shows the project temporary folder read-only', () => {
    const other = path.join(base, 'other');
    fs.mkdirSync(other);
    const cwd = path.join(ws, 'sub');
    expect(operations(bwrapArgs(policy({ workspaceRoots: [ws, other] }), cwd))).toEqual([
      ...ISOLATED,
      ...SYSTEM,
      `--bind ${ws} ${ws}`,
      `--bind ${other} ${other}`,
      ...promptBinds(ws),
      ...promptBinds(other),
      `--ro-bind ${temp} ${temp}`,
      ...ending(cwd),
    ]);
    // The project temporary folder is made, so that it can be bound.
    expect(fs.existsSync(temp)).toBe(true);
  });

  it('cuts the network and filters sockets when it is denied, and drops every capability', () => {
    expect(operations(bwrapArgs(policy({ network: 'deny' }), ws)).slice(0, 6)).toEqual([
      '--die-with-parent',
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-net',
      '--seccomp 3',
      '--cap-drop ALL',
    ]);
    const launch = bwrapLaunch(policy({ network: 'deny' }), ws);
    launch.release();
    expect(launch.seccomp).toEqual(socketFilterBytes());
    const open = bwrapLaunch(policy(), ws);
    open.release();
    expect(open.seccomp).toBeUndefined();
  });

  it('refuses a sandbox without network where sockets cannot be filtered, giving back what it made', () => {
    expect(() => bwrapLaunch(policy({ network: 'deny' }), ws, 'approved', 'riscv64')).toThrow(
      'unix sockets cannot be filtered on this machine (riscv64)',
    );
    expect(fs.readdirSync(ws)).toEqual([]);
    expect(bwrapLaunch(policy(), ws, 'approved', 'riscv64').seccomp).toBeUndefined();
    expect(() => bwrapLaunch(policy(), ws, 'unasked', 'riscv64')).toThrow('riscv64');
  });

  it('lets a command outlive toolhost only when asked', () => {
    const kept = operations(bwrapArgs(policy({ dieWithParent: false }), ws));
    expect(kept).not.toContain('--die-with-parent');
    expect(kept.slice(0, 3)).toEqual(['--unshare-pid', '--unshare-ipc', '--cap-drop ALL']);
    const tied = operations(bwrapArgs(policy({ dieWithParent: true }), ws));
    expect(tied[0]).toBe('--die-with-parent');
  });

  it('hides credential folders under an empty tmpfs and files behind /dev/null, after the roots', () => {
    fs.mkdirSync(path.join(home, '.ssh'));
    fs.writeFileSync(path.join(home, '.netrc'), 'x');
    const ops = operations(bwrapArgs(policy({ workspaceRoots: [home] }), home));
    // The settings folder made read-only as the project's is hidden afterwards as the user's.
    expect(ops.slice(ops.indexOf(`--bind ${home} ${home}`))).toEqual([
      `--bind ${home} ${home}`,
      ...promptBinds(home),
      `--ro-bind /dev/null ${path.join(home, '.netrc')}`,
      `--tmpfs ${path.join(home, '.qwen')}`,
      `--tmpfs ${path.join(home, '.ssh')}`,
      `--tmpfs ${path.join(home, '.toolhost')}`,
      `--ro-bind ${temp} ${temp}`,
      ...ending(home),
    ]);
  });

  it('makes the whole .git and the settings folder read-only, after the roots', () => {
    const gitDir = path.join(ws, '.git');
    fs.mkdirSync(path.join(gitDir, 'hooks'), { recursive: true });
    expect(operations(bwrapArgs(policy(), ws))).toEqual([
      ...ISOLATED,
      ...SYSTEM,
      `--bind ${ws} ${ws}`,
      ...promptBinds(ws),
      `--ro-bind ${gitDir} ${gitDir}`,
      `--ro-bind ${temp} ${temp}`,
      ...ending(ws),
    ]);
  });

  it('pins a root whose .git is a link: read-only, with its other entries writable again', () => {
    const realGit = path.join(base, 'real-git');
    fs.mkdirSync(realGit);
    fs.symlinkSync(realGit, path.join(ws, '.git'));
    fs.writeFileSync(path.join(ws, 'a.txt'), '');
    fs.mkdirSync(path.join(ws, 'src'));
    // A link is left as it is: bound, its target would become writable.
    fs.symlinkSync('/etc', path.join(ws, 'etc-link'));
    const other = path.join(base, 'other');
    fs.mkdirSync(other);
    const ops = operations(bwrapArgs(policy({ workspaceRoots: [ws, other] }), ws));
    const pinned = ops.indexOf(`--ro-bind ${ws} ${ws}`);
    expect(ops.slice(ISOLATED.length + SYSTEM.length, pinned)).toEqual([
      `--bind ${ws} ${ws}`,
      `--bind ${other} ${other}`,
    ]);
    expect(ops.slice(pinned + 1, pinned + 3).sort()).toEqual([
      `--bind ${ws}/a.txt ${ws}/a.txt`,
      `--bind ${ws}/src ${ws}/src`,
    ]);
    expect(ops.slice(pinned + 3)).toEqual([
      ...promptBinds(ws),
      `--ro-bind ${realGit} ${realGit}`,
      ...promptBinds(other),
      `--ro-bind ${temp} ${temp}`,
      ...ending(ws),
    ]);
  });
});

describe('bwrapLaunch', () => {
  it('removes the prompt folders it made once the command has ended, and only those', () => {
    fs.mkdirSync(path.join(ws, '.claude'));
    const made = PROMPT_FOLDER_ROOTS.filter((name) => name !== '.claude');
    const first = bwrapLaunch(policy(), ws);
    const second = bwrapLaunch(policy(), ws);
    expect(fs.readdirSync(ws).sort()).toEqual([...PROMPT_FOLDER_ROOTS].sort());
    first.release();
    expect(fs.readdirSync(ws).sort(), 'still held by the second').toEqual(
      [...PROMPT_FOLDER_ROOTS].sort(),
    );
    first.release(); // a second call gives nothing back twice
    expect(fs.readdirSync(ws).length).toBe(PROMPT_FOLDER_ROOTS.length);
    second.release();
    expect(fs.readdirSync(ws)).toEqual(['.claude']);
    expect(made.every((name) => !fs.existsSync(path.join(ws, name)))).toBe(true);
  });
});

describe('bwrapShell', () => {
  it('runs the shell with its arguments after the sandbox options', () => {
    const shell = { file: '/bin/bash', args: (command: string) => ['-c', command] };
    const sandboxed = bwrapShell('/usr/bin/bwrap', shell, policy(), ws);
    expect(sandboxed.file).toBe('/usr/bin/bwrap');
    const args = sandboxed.args('echo hi');
    expect(args.slice(args.indexOf('--'))).toEqual(['--', '/bin/bash', '-c', 'echo hi']);
    expect(args.slice(0, args.indexOf('--') + 1)).toEqual(bwrapArgs(policy(), ws));
    expect(sandboxed.fd3).toBeUndefined();
    sandboxed.release?.();
    const offline = bwrapShell('/usr/bin/bwrap', shell, policy({ network: 'deny' }), ws);
    offline.release?.();
    expect(offline.fd3).toEqual(socketFilterBytes());
    const unasked = bwrapShell('/usr/bin/bwrap', shell, policy(), ws, 'unasked');
    expect(unasked.fd3).toEqual(socketFilterBytes());
    expect(unasked.args('x')).not.toContain('--bind');
  });
});

describe('findBwrap', () => {
  /** An executable stand-in for bwrap in a new folder `dir`. */
  const executable = (dir: string) => {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'bwrap'), '#!/bin/sh\n');
    fs.chmodSync(path.join(dir, 'bwrap'), 0o755);
    return path.join(dir, 'bwrap');
  };

  it('takes the first system location that holds an executable file, before PATH', () => {
    const plain = path.join(base, 'plain', 'bwrap');
    fs.mkdirSync(path.dirname(plain));
    fs.writeFileSync(plain, '');
    const folder = path.join(base, 'folder', 'bwrap');
    fs.mkdirSync(folder, { recursive: true });
    const system = executable(path.join(base, 'system'));
    const onPath = executable(path.join(base, 'bin'));
    const missing = path.join(base, 'missing', 'bwrap');
    expect(findBwrap(path.dirname(onPath), [missing, plain, folder, system])).toBe(system);
  });

  it('searches the absolute folders on PATH in order when no system location has it', () => {
    const first = executable(path.join(base, 'first'));
    const second = executable(path.join(base, 'second'));
    const notExecutable = path.join(base, 'plain');
    fs.mkdirSync(notExecutable);
    fs.writeFileSync(path.join(notExecutable, 'bwrap'), '');
    const envPath = ['', notExecutable, path.dirname(first), path.dirname(second)];
    expect(findBwrap(envPath.join(path.delimiter), [])).toBe(first);
    expect(findBwrap(notExecutable, [])).toBeNull();
    // A relative entry, which would find a bwrap planted in the current folder, is skipped.
    expect(findBwrap(path.relative(process.cwd(), path.dirname(first)), [])).toBeNull();
  });

  it("finds this machine's bwrap in /usr/bin, and on this process's PATH", () => {
    expect(findBwrap('')).toBe('/usr/bin/bwrap');
    const onPath = findBwrap(undefined, []);
    expect(onPath).not.toBeNull();
    expect(onPath).toBe(findBwrap(process.env.PATH, []));
  });
});

describe('probeBwrap', () => {
  /** A stand-in bwrap: a shell script that logs its arguments, then runs `body`. */
  const fakeBwrap = (body: string) => {
    const file = path.join(base, 'fake-bwrap');
    fs.writeFileSync(
      file,
      `#!/bin/sh\nprintf '%s\\n' "$@" > ${path.join(base, 'args.log')}\n${body}\n`,
    );
    fs.chmodSync(file, 0o755);
    return file;
  };
  const loggedArgs = () =>
    fs.readFileSync(path.join(base, 'args.log'), 'utf8').trimEnd().split('\n');

  it('succeeds with the real bwrap, with and without the network, in both profiles', () => {
    const descriptors = openDescriptorCount();
    expect(probeBwrap('allow')).toEqual({ ok: true, program: '/usr/bin/bwrap' });
    expect(probeBwrap('deny')).toEqual({ ok: true, program: '/usr/bin/bwrap' });
    expect(probeBwrap('allow', undefined, 'unasked')).toEqual({
      ok: true,
      program: '/usr/bin/bwrap',
    });
    // The filter's descriptor is closed again.
    expect(openDescriptorCount()).toBe(descriptors);
  });

  it('tries the same isolation, filter and mounts as a command, in a scratch workspace, then cleans up', () => {
    const fake = fakeBwrap(`cat <&3 > ${path.join(base, 'filter.bin')}; exit 1`);
    probeBwrap('deny', fake);
    const args = loggedArgs();
    const end = args.indexOf('--');
    const ops = operations(args.slice(0, end + 1));
    const bound = ops.find((op) => op.startsWith('--bind '))!;
    const scratch = path.dirname(bound.split(' ')[1]!);
    expect(ops).toEqual([
      '--die-with-parent',
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-net',
      '--seccomp 3',
      '--cap-drop ALL',
      ...SYSTEM,
      `--bind ${scratch}/ws ${scratch}/ws`,
      ...promptBinds(`${scratch}/ws`),
      `--tmpfs ${scratch}/home/.ssh`,
      `--ro-bind ${scratch}/tmp ${scratch}/tmp`,
      ...ending(`${scratch}/ws`),
    ]);
    expect(args.slice(end + 1, end + 3)).toEqual(['/bin/sh', '-c']);
    expect(args[end + 3]).toContain(`touch ${scratch}/ws/probe && test -e ${scratch}/ws/seen`);
    expect(fs.readFileSync(path.join(base, 'filter.bin'))).toEqual(socketFilterBytes());
    expect(scratch.startsWith(path.join(os.tmpdir(), 'toolhost-sandbox-probe-'))).toBe(true);
    expect(fs.existsSync(scratch)).toBe(false);
  });

  it('tries the unasked profile with its own mounts and a workspace that must stay unwritten', () => {
    const fake = fakeBwrap('exit 1');
    probeBwrap('allow', fake, 'unasked');
    const args = loggedArgs();
    const end = args.indexOf('--');
    const ops = operations(args.slice(0, end + 1));
    expect(ops.slice(0, 6)).toEqual([
      '--die-with-parent',
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-net',
      '--seccomp 3',
      '--cap-drop ALL',
    ]);
    expect(ops).not.toContain('--ro-bind / /');
    const ws = ops.find((op) => op.endsWith('/ws') && op.startsWith('--ro-bind'))!.split(' ')[1]!;
    const scratch = path.dirname(ws);
    expect(ops).toContain(`--tmpfs ${scratch}/home`);
    expect(args[end + 3]).toContain(`! touch ${ws}/probe`);
  });

  it('fails when the command inside sees the covered file or cannot write', () => {
    // Runs the probe's command unsandboxed: the covered file shows.
    const leaky = fakeBwrap('while [ "$1" != "--" ]; do shift; done; shift; exec "$@"');
    expect(probeBwrap('allow', leaky)).toEqual({
      ok: false,
      reason: 'bwrap fails here: exit code 1',
    });
  });

  it('says why it fails: not installed, not runnable, its error, its exit code', () => {
    expect(probeBwrap('allow', null)).toEqual({
      ok: false,
      reason: 'bwrap is not installed (on Debian or Ubuntu: apt-get install bubblewrap)',
    });
    const missing = path.join(base, 'no-such-bwrap');
    expect(probeBwrap('allow', missing)).toEqual({
      ok: false,
      reason: `bwrap could not be run: spawnSync ${missing} ENOENT`,
    });
    const refusing = fakeBwrap(
      "echo 'bwrap: No permissions to create new namespace' >&2; echo second line >&2; exit 1",
    );
    expect(probeBwrap('allow', refusing)).toEqual({
      ok: false,
      reason: 'bwrap fails here: bwrap: No permissions to create new namespace',
    });
    const blankFirst = fakeBwrap(
      "echo >&2; echo '  bwrap: Creating new namespace failed' >&2; exit 1",
    );
    expect(probeBwrap('allow', blankFirst)).toEqual({
      ok: false,
      reason: 'bwrap fails here: bwrap: Creating new namespace failed',
    });
    expect(probeBwrap('allow', fakeBwrap('exit 3'))).toEqual({
      ok: false,
      reason: 'bwrap fails here: exit code 3',
    });
    // Both count: the exit code and the command inside having run to its end.
    expect(probeBwrap('allow', fakeBwrap('echo inside; exit 2'))).toEqual({
      ok: false,
      reason: 'bwrap fails here: exit code 2',
    });
    expect(probeBwrap('allow', fakeBwrap('echo outside; exit 0'))).toEqual({
      ok: false,
      reason: 'bwrap fails here: exit code 0',
    });
  });
});
