/**
 * Linux: the command runs under bubblewrap (`bwrap`). A profile's mounts (profiles/) become
 * bwrap's mount options, applied in order, each on top of the ones before. Every profile
 * gets its own PID and IPC namespaces, no capabilities (root's included: `--cap-drop ALL`,
 * so a command cannot remount, unmount or mount anything) and bwrap's no-new-privileges;
 * without network, an empty network namespace and the socket filter (seccomp.ts), read by
 * bwrap on descriptor 3.
 */
import { spawnSync } from 'node:child_process';
import {
  accessSync,
  closeSync,
  constants,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ShellProgram } from '../shell-execution.js';
import type { SandboxPolicy } from './policy.js';
import { type Mount, type ProfileName, sandboxLayout } from './profiles/profiles.js';
import { encodeFilter, socketFilter } from './seccomp.js';

const BWRAP_LOCATIONS = ['/usr/bin/bwrap', '/bin/bwrap', '/usr/local/bin/bwrap'];

/** The descriptor bwrap reads the socket filter from. */
export const SECCOMP_FD = 3;

/** The bwrap program: a system location first, then PATH's absolute folders. */
export function findBwrap(
  envPath = process.env.PATH ?? '',
  systemLocations: readonly string[] = BWRAP_LOCATIONS,
): string | null {
  const candidates = [
    ...systemLocations,
    // A relative entry (an empty one means the current folder) could find a bwrap planted
    // in the workspace.
    ...envPath
      .split(path.delimiter)
      .filter((dir) => path.isAbsolute(dir))
      .map((dir) => path.join(dir, 'bwrap')),
  ];
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** The socket filter's bytes for this machine; null where the filter is not known. */
export function socketFilterBytes(machine: string = process.arch): Buffer | null {
  const program = socketFilter(machine);
  return program ? encodeFilter(program) : null;
}

/** The namespace and process options, shared by the real command and the probe. */
function isolationArgs(
  network: SandboxPolicy['network'],
  dieWithParent: boolean | undefined = true,
): string[] {
  return [
    ...(dieWithParent ? ['--die-with-parent'] : []),
    '--unshare-pid',
    '--unshare-ipc',
    ...(network === 'deny' ? ['--unshare-net', '--seccomp', String(SECCOMP_FD)] : []),
    '--cap-drop',
    'ALL',
  ];
}

/** Each kind of mount as bwrap's option and operands. */
const MOUNT_OPTIONS: { [K in Mount['kind']]: (mount: Extract<Mount, { kind: K }>) => string[] } = {
  'read-only': (mount) => ['--ro-bind', mount.path, mount.path],
  writable: (mount) => ['--bind', mount.path, mount.path],
  'empty-folder': (mount) => ['--tmpfs', mount.path],
  'hidden-folder': (mount) => ['--tmpfs', mount.path, '--remount-ro', mount.path],
  'empty-file': (mount) => ['--ro-bind', '/dev/null', mount.path],
  link: (mount) => ['--symlink', mount.target, mount.path],
  devices: (mount) => ['--dev', mount.path],
  processes: (mount) => ['--proc', mount.path],
};

function mountArgs(mounts: readonly Mount[]): string[] {
  return mounts.flatMap((mount) =>
    (MOUNT_OPTIONS[mount.kind] as (mount: Mount) => string[])(mount),
  );
}

export interface BwrapLaunch {
  /** bwrap's arguments, up to and including `--`. */
  args: string[];
  /** What bwrap must read on SECCOMP_FD, when anything. */
  seccomp?: Buffer;
  /** Gives back the empty prompt folders made as mount points (releaseMade). */
  release: () => void;
}

/** bwrap's arguments for one command, up to and including `--`. */
export function bwrapArgs(
  policy: SandboxPolicy,
  cwd: string,
  profile: ProfileName = 'approved',
): string[] {
  const launch = bwrapLaunch(policy, cwd, profile);
  launch.release();
  return launch.args;
}

/** How bwrap runs one command in `profile`; release() once it has ended. */
export function bwrapLaunch(
  policy: SandboxPolicy,
  cwd: string,
  profile: ProfileName = 'approved',
  machine: string = process.arch,
): BwrapLaunch {
  const layout = sandboxLayout(profile, policy);
  let seccomp: Buffer | undefined;
  if (layout.network === 'deny') {
    const filter = socketFilterBytes(machine);
    if (!filter) {
      layout.release();
      throw new Error(`unix sockets cannot be filtered on this machine (${machine})`);
    }
    seccomp = filter;
  }
  const args = [
    ...isolationArgs(layout.network, policy.dieWithParent),
    ...mountArgs(layout.mounts),
    '--setenv',
    'TOOLHOST_SANDBOX',
    'bwrap',
    '--chdir',
    cwd,
    '--',
  ];
  return { args, release: layout.release, ...(seccomp ? { seccomp } : {}) };
}

export function bwrapShell(
  bwrap: string,
  shell: ShellProgram,
  policy: SandboxPolicy,
  cwd: string,
  profile: ProfileName = 'approved',
): ShellProgram {
  const { args: prefix, release, seccomp } = bwrapLaunch(policy, cwd, profile);
  return {
    file: bwrap,
    args: (command) => [...prefix, shell.file, ...shell.args(command)],
    release,
    ...(seccomp ? { fd3: seccomp } : {}),
  };
}

/**
 * Whether bwrap can build a profile's sandbox here: the same namespaces, filter and mounts
 * as a real command, in a scratch workspace and home, checked by a command inside that
 * must see, change and miss what the profile says.
 */
export function probeBwrap(
  network: SandboxPolicy['network'],
  bwrap: string | null = findBwrap(),
  profile: ProfileName = 'approved',
): { ok: true; program: string } | { ok: false; reason: string } {
  if (!bwrap)
    return {
      ok: false,
      reason: 'bwrap is not installed (on Debian or Ubuntu: apt-get install bubblewrap)',
    };
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'toolhost-sandbox-probe-'));
  let filterFd: number | undefined;
  let release = () => {};
  try {
    const ws = path.join(scratch, 'ws');
    const home = path.join(scratch, 'home');
    // Folders, not files: whether they show is the test, not what they hold.
    mkdirSync(path.join(ws, 'seen'), { recursive: true });
    mkdirSync(path.join(home, '.ssh', 'x'), { recursive: true });
    const launch = bwrapLaunch(
      {
        workspaceRoots: [ws],
        projectTempDir: path.join(scratch, 'tmp'),
        homeDirs: [home],
        // A prompt folder of its own stands for the caller's: made, mounted read-only and
        // given back the same way, whichever names they are.
        promptFolders: ['.toolhost'],
        network,
      },
      ws,
      profile,
    );
    release = launch.release;
    // The workspace is writable in the approved profile only; the secret is never there.
    const write = profile === 'unasked' ? `! touch ${ws}/probe 2>/dev/null` : `touch ${ws}/probe`;
    const script = `${write} && test -e ${ws}/seen && ! test -e ${home}/.ssh/x && test -r /proc/1/stat && echo inside`;
    if (launch.seccomp) {
      writeFileSync(path.join(scratch, 'filter'), launch.seccomp);
      filterFd = openSync(path.join(scratch, 'filter'), 'r');
    }
    const result = spawnSync(bwrap, [...launch.args, '/bin/sh', '-c', script], {
      encoding: 'utf8',
      timeout: 10_000,
      // No descriptor 3 where there is no filter (undefined).
      stdio: ['ignore', 'pipe', 'pipe', filterFd],
    });
    if (result.error)
      return { ok: false, reason: `bwrap could not be run: ${result.error.message}` };
    if (result.status !== 0 || !result.stdout.includes('inside')) {
      const why = result.stderr.trim().split('\n')[0] || `exit code ${result.status}`;
      return { ok: false, reason: `bwrap fails here: ${why}` };
    }
    return { ok: true, program: bwrap };
  } finally {
    release();
    if (filterFd !== undefined) closeSync(filterFd);
    rmSync(scratch, { recursive: true });
  }
}
