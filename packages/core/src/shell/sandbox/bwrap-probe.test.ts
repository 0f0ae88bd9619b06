/**
 * Where toolhost finds bwrap, and the probe that decides whether a profile works here
 * (with the real bwrap and with stand-ins that fail in each way).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ending, operations, SYSTEM } from '../../../test/helpers/bwrap-operations.js';
import { makeTempFolder, openDescriptorsInto } from '../../../test/helpers/file-system.js';
import { findBwrap, probeBwrap, socketFilterBytes } from './bwrap.js';

let base: string;
beforeEach(() => {
  base = makeTempFolder('toolhost-bwrap-probe-');
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

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
    // The probe's scratch folder holds the filter that descriptor 3 reads.
    const descriptors = openDescriptorsInto('toolhost-sandbox-probe-');
    expect(probeBwrap('allow')).toEqual({ ok: true, program: '/usr/bin/bwrap' });
    expect(probeBwrap('deny')).toEqual({ ok: true, program: '/usr/bin/bwrap' });
    expect(probeBwrap('allow', undefined, 'unasked')).toEqual({
      ok: true,
      program: '/usr/bin/bwrap',
    });
    // The filter's descriptor is closed again.
    expect(openDescriptorsInto('toolhost-sandbox-probe-')).toEqual(descriptors);
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
      // One prompt folder of the probe's own stands for the caller's list.
      `--ro-bind ${scratch}/ws/.toolhost ${scratch}/ws/.toolhost`,
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
