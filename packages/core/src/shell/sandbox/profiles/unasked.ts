/**
 * The unasked profile: a file system built from nothing but the system's program folders,
 * the workspace roots and toolhost's temporary folder for the project (saved outputs,
 * background logs), all read-only; the home folders empty, /tmp private, secrets kept in
 * /etc (password hashes, host keys) and credential locations inside the workspace covered.
 * Nothing else of the machine is there, so neither is any unix socket of it.
 */
import { lstatSync, mkdirSync, readlinkSync, statSync } from 'node:fs';
import path from 'node:path';
import { isWithin } from '../../../workspace/workspace-context.js';
import type { Mount } from '../mount.js';
import type { SandboxPolicy } from '../policy.js';
import { credentialMounts } from './approved.js';
import { expandLocation } from './credentials.js';

/** Where programs, their libraries and their configuration live (those that exist). */
export const SYSTEM_FOLDERS = [
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/etc',
  '/opt',
  '/nix',
  '/gnu',
] as const;

/** What in /etc holds secrets readable by root (and root runs commands too), relative to it. */
export const SYSTEM_SECRETS = [
  'shadow',
  'shadow-',
  'gshadow',
  'gshadow-',
  'sudoers',
  'sudoers.d',
  'ssl/private',
  'security/opasswd',
  'ssh/*_key',
] as const;

export function unaskedMounts(
  policy: SandboxPolicy,
  systemFolders: readonly string[] = SYSTEM_FOLDERS,
): Mount[] {
  const mounts: Mount[] = [];
  for (const folder of systemFolders) {
    const mount = systemMount(folder);
    if (mount) mounts.push(mount);
  }
  mounts.push(
    { kind: 'devices', path: '/dev' },
    { kind: 'processes', path: '/proc' },
    { kind: 'empty-folder', path: '/tmp' },
  );
  // A home folder that holds a system folder (a home of `/`) cannot be emptied.
  const homes = policy.homeDirs.filter(
    (home) => !systemFolders.some((folder) => isWithin(home, folder)),
  );
  const roots = policy.workspaceRoots;
  for (const home of homes) mounts.push({ kind: 'empty-folder', path: home });
  for (const root of roots) mounts.push({ kind: 'read-only', path: root });
  // A root around a home folder brought it back: empty it again, with the roots inside it.
  for (const home of homes) {
    if (!roots.some((root) => root !== home && isWithin(root, home))) continue;
    mounts.push({ kind: 'empty-folder', path: home });
    // A root that is the home folder itself stays shown: the workspace is what it holds.
    for (const root of roots)
      if (isWithin(home, root)) mounts.push({ kind: 'read-only', path: root });
  }
  const visible = (file: string) => roots.some((root) => isWithin(root, file));
  mounts.push(...credentialMounts(policy.homeDirs, visible));
  for (const folder of systemFolders)
    if (path.basename(folder) === 'etc') mounts.push(...secretMounts(folder));
  // Saved outputs and background logs, which read-only commands may read as the file
  // tools do; made first, as in the approved profile, so that there is a place to mount.
  mkdirSync(policy.projectTempDir, { recursive: true });
  mounts.push({ kind: 'read-only', path: policy.projectTempDir });
  return mounts;
}

/** A system folder as it is: read-only, or the same link where it is one (`/bin -> usr/bin`). */
function systemMount(folder: string): Mount | null {
  const stat = lstatSync(folder, { throwIfNoEntry: false });
  if (stat?.isSymbolicLink()) return { kind: 'link', path: folder, target: readlinkSync(folder) };
  return stat?.isDirectory() ? { kind: 'read-only', path: folder } : null;
}

/** SYSTEM_SECRETS found in the `etc` folder shown: a folder covered by an empty one, a file by an empty file. */
function secretMounts(etc: string): Mount[] {
  const mounts: Mount[] = [];
  for (const secret of SYSTEM_SECRETS.flatMap((name) => expandLocation(path.join(etc, name)))) {
    // Through a link: bwrap mounts on what it leads to.
    const stat = statSync(secret, { throwIfNoEntry: false });
    if (stat?.isDirectory()) mounts.push({ kind: 'empty-folder', path: secret });
    else if (stat?.isFile()) mounts.push({ kind: 'empty-file', path: secret });
  }
  return mounts;
}
