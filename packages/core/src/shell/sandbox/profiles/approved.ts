/**
 * The approved profile: the whole file system read-only, the workspace roots writable
 * again (a root holding a linked `.git` or prompt folder with only its entries writable),
 * git folders and prompt folders read-only, a private /tmp, credential locations covered,
 * and toolhost's temporary folder for the project visible but read-only, so a command can
 * read saved outputs and logs and plant no link that toolhost would write through.
 */
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Mount } from '../mount.js';
import {
  protectedPaths,
  protectedRootEntries,
  releaseMade,
  type SandboxPolicy,
} from '../policy.js';
import { existingCredentialPaths } from './credentials.js';

export function approvedMounts(policy: SandboxPolicy): { mounts: Mount[]; release: () => void } {
  const mounts: Mount[] = [
    { kind: 'read-only', path: '/' },
    { kind: 'devices', path: '/dev' },
    { kind: 'processes', path: '/proc' },
    { kind: 'empty-folder', path: '/tmp' },
  ];
  for (const root of policy.workspaceRoots) mounts.push({ kind: 'writable', path: root });
  const kept = protectedPaths(policy.workspaceRoots, policy.promptFolders);
  const protectedNames = protectedRootEntries(policy.promptFolders);
  for (const root of kept.pinnedRoots) {
    // The root's own entries become mount points, which cannot be removed or renamed, and
    // no entry can be added beside them; links stay as they are, read-only.
    mounts.push({ kind: 'read-only', path: root });
    for (const entry of readdirSync(root, { withFileTypes: true })) {
      const protectedName = protectedNames.includes(entry.name);
      if (protectedName || entry.isSymbolicLink()) continue;
      mounts.push({ kind: 'writable', path: path.join(root, entry.name) });
    }
  }
  // Before the credentials are covered: a settings folder in a home folder that is a
  // root must stay covered.
  for (const target of kept.readOnly) mounts.push({ kind: 'read-only', path: target });
  mounts.push(...credentialMounts(policy.homeDirs));
  // After ~/.toolhost is covered, so that only this folder of it shows.
  mkdirSync(policy.projectTempDir, { recursive: true });
  mounts.push({ kind: 'read-only', path: policy.projectTempDir });
  let released = false;
  const release = () => {
    if (!released) releaseMade(kept.made);
    released = true;
  };
  return { mounts, release };
}

/** Each existing credential location covered: a folder by an empty one, a file by an empty file. */
export function credentialMounts(homeDirs: readonly string[], keep = (_: string) => true): Mount[] {
  return existingCredentialPaths(homeDirs)
    .filter(keep)
    .map((hidden) => ({
      kind: statSync(hidden).isDirectory() ? 'empty-folder' : 'empty-file',
      path: hidden,
    }));
}
