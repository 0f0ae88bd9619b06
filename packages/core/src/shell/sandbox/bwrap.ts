/**
 * Linux: the command runs under bubblewrap (`bwrap`). Mounts are applied in order, each on
 * top of the ones before: the whole file system read-only, a fresh /dev, /proc and /tmp,
 * the workspace roots writable again (a root holding a linked `.git` or prompt folder with
 * only its entries writable), git folders and prompt folders (`.toolhost`, `.qwen`, ...)
 * read-only, credential
 * locations covered, and toolhost's project temporary folder writable.
 */
import { spawnSync } from 'node:child_process';
import {
  accessSync,
  constants,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ShellProgram } from '../shell-execution.js';
import {
  existingCredentialPaths,
  PROTECTED_ROOT_ENTRIES,
  protectedPaths,
  releaseMade,
  type SandboxPolicy,
} from './policy.js';

const BWRAP_LOCATIONS = ['/usr/bin/bwrap', '/bin/bwrap', '/usr/local/bin/bwrap'];

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

/** The namespace and process options, shared by the real command and the probe. */
function isolationArgs(
  network: SandboxPolicy['network'],
  dieWithParent: boolean | undefined = true,
): string[] {
  return [
    ...(dieWithParent ? ['--die-with-parent'] : []),
    '--unshare-pid',
    '--unshare-ipc',
    ...(network === 'deny' ? ['--unshare-net'] : []),
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
  ];
}

/** bwrap's arguments for one command, up to and including `--`. */
export function bwrapArgs(policy: SandboxPolicy, cwd: string): string[] {
  return bwrapLaunch(policy, cwd).args;
}

/**
 * bwrap's arguments for one command, and what to call once it has ended: the empty prompt
 * folders made as mount points are removed again (releaseMade).
 */
export function bwrapLaunch(
  policy: SandboxPolicy,
  cwd: string,
): { args: string[]; release: () => void } {
  const args = isolationArgs(policy.network, policy.dieWithParent);
  for (const root of policy.workspaceRoots) args.push('--bind', root, root);
  const kept = protectedPaths(policy.workspaceRoots);
  for (const root of kept.pinnedRoots) {
    // The root's own entries become mount points, which cannot be removed or renamed, and
    // no entry can be added beside them; links stay as they are, read-only.
    args.push('--ro-bind', root, root);
    for (const entry of readdirSync(root, { withFileTypes: true })) {
      const protectedName = (PROTECTED_ROOT_ENTRIES as readonly string[]).includes(entry.name);
      if (protectedName || entry.isSymbolicLink()) continue;
      const target = path.join(root, entry.name);
      args.push('--bind', target, target);
    }
  }
  // Before the credentials are covered: a settings folder in a home folder that is a
  // root must stay covered.
  for (const target of kept.readOnly) args.push('--ro-bind', target, target);
  for (const hidden of existingCredentialPaths(policy.homeDirs)) {
    if (statSync(hidden).isDirectory()) args.push('--tmpfs', hidden);
    else args.push('--ro-bind', '/dev/null', hidden);
  }
  mkdirSync(policy.projectTempDir, { recursive: true });
  args.push('--bind', policy.projectTempDir, policy.projectTempDir);
  args.push('--setenv', 'TOOLHOST_SANDBOX', 'bwrap', '--chdir', cwd, '--');
  let released = false;
  const release = () => {
    if (!released) releaseMade(kept.made);
    released = true;
  };
  return { args, release };
}

export function bwrapShell(
  bwrap: string,
  shell: ShellProgram,
  policy: SandboxPolicy,
  cwd: string,
): ShellProgram {
  const { args: prefix, release } = bwrapLaunch(policy, cwd);
  return {
    file: bwrap,
    args: (command) => [...prefix, shell.file, ...shell.args(command)],
    release,
  };
}

/**
 * Whether bwrap can build this sandbox here: the same namespaces and mounts as a real
 * command, a writable bind and a covered folder, checked by running a command inside.
 */
export function probeBwrap(
  network: SandboxPolicy['network'],
  bwrap: string | null = findBwrap(),
): { ok: true; program: string } | { ok: false; reason: string } {
  if (!bwrap)
    return {
      ok: false,
      reason: 'bwrap is not installed (on Debian or Ubuntu: apt-get install bubblewrap)',
    };
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'toolhost-sandbox-probe-'));
  try {
    const writable = path.join(scratch, 'writable');
    const hidden = path.join(scratch, 'hidden');
    mkdirSync(writable);
    mkdirSync(hidden);
    writeFileSync(path.join(hidden, 'x'), 'secret');
    const script = `echo ok > ${writable}/probe && ! ls ${hidden}/x 2>/dev/null && test -r /proc/1/stat && echo inside`;
    const result = spawnSync(
      bwrap,
      [
        ...isolationArgs(network),
        '--bind',
        writable,
        writable,
        '--ro-bind',
        hidden,
        hidden,
        '--tmpfs',
        hidden,
        '--',
        '/bin/sh',
        '-c',
        script,
      ],
      { encoding: 'utf8', timeout: 10_000 },
    );
    if (result.error)
      return { ok: false, reason: `bwrap could not be run: ${result.error.message}` };
    if (result.status !== 0 || !result.stdout.includes('inside')) {
      const why = result.stderr.trim().split('\n')[0] || `exit code ${result.status}`;
      return { ok: false, reason: `bwrap fails here: ${why}` };
    }
    return { ok: true, program: bwrap };
  } finally {
    rmSync(scratch, { recursive: true });
  }
}
