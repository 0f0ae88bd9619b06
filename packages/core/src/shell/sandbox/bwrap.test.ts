/**
 * What bubblewrap is asked to do for a policy and a profile, read as a list of mount and
 * namespace operations (bwrap-probe.test.ts: finding bwrap and the probe).
 * test/sandbox*.test.ts prove the effects by running commands inside.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ending,
  ISOLATED,
  operations,
  promptBinds,
  SYSTEM,
} from '../../../test/helpers/bwrap-operations.js';
import { makeTempFolder } from '../../../test/helpers/file-system.js';
import { PROMPT_FOLDER_ROOTS } from '../../config/prompt-folders.js';
import { bwrapArgs, bwrapLaunch, bwrapShell, findBwrap, socketFilterBytes } from './bwrap.js';
import type { SandboxPolicy } from './policy.js';
import type { CoveredPaths } from './rule-paths/covered.js';

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
  promptFolders: PROMPT_FOLDER_ROOTS,
  network: 'allow',
  ...over,
});

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

describe('bwrapLaunch with a folder a Read deny rule covers', () => {
  it.skipIf(!findBwrap())('shows it empty inside the sandbox, and nothing can be put there', () => {
    const vault = path.join(ws, 'vault');
    fs.mkdirSync(vault);
    fs.mkdirSync(temp, { recursive: true });
    fs.writeFileSync(path.join(vault, 'secret.txt'), 'secret');
    const covered: CoveredPaths = {
      paths: [
        {
          path: vault,
          foundAs: vault,
          folder: true,
          effect: 'hide',
          rule: 'Read(./vault/**)',
          dev: 0,
          ino: 0,
        },
      ],
      unenforced: [],
    };
    const launch = bwrapLaunch(policy({ covered }), ws);
    try {
      const script = 'ls -A vault; if echo x > vault/new; then echo wrote; else echo refused; fi';
      const run = spawnSync(findBwrap()!, [...launch.args, '/bin/sh', '-c', script], {
        encoding: 'utf8',
      });
      expect([run.stdout, run.status], run.stderr).toEqual(['refused\n', 0]);
    } finally {
      launch.release();
    }
    expect(fs.readdirSync(vault)).toEqual(['secret.txt']);
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
