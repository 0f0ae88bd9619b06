/**
 * The covered paths (covered-paths.ts) laid over a profile's mounts: a path Read deny covers
 * becomes an empty read-only folder or an empty file wherever the profile shows it; a path
 * Edit deny covers is bound read-only over itself wherever the profile lets it be written.
 * In a writable place, every folder between the writable root and a covered path is made a
 * mount point of itself (still writable), so no command can rename the covered path out
 * from under its rule, nor a folder above it. A mount that lands on a folder holding
 * earlier mounts brings them back (bwrap binds from the machine, not from the sandbox).
 */
import { lstatSync, readdirSync, rmdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { isWithin } from '../../../workspace/workspace-context.js';
import type { Mount } from '../mount.js';
import { mountedNow } from '../policy.js';
import type { CoveredPath, CoveredPaths } from './covered.js';

export interface RuleLayout {
  mounts: Mount[];
  /** Removes mount points bwrap had to make because a covered path vanished meanwhile. */
  release: () => void;
}

/** The mount that decides what `file` is in a sandbox built from `mounts` (the last above it). */
export function decidingMount(mounts: readonly Mount[], file: string): Mount | undefined {
  let deciding: Mount | undefined;
  for (const mount of mounts) if (isWithin(mount.path, file)) deciding = mount;
  return deciding;
}

const depth = (file: string) => file.split(path.sep).filter(Boolean).length;

/** `base` with `covered` laid over it. */
export function withRuleMounts(
  base: readonly Mount[],
  covered: CoveredPaths | undefined,
): RuleLayout {
  const mounts = [...base];
  if (!covered || covered.paths.length === 0) return { mounts, release: () => {} };
  const sorted = [...covered.paths].sort((a, b) => depth(a.path) - depth(b.path));

  // The folders to pin, under the writable mount each covered path lies in (none inside a
  // hidden folder: nothing there can be reached).
  const hiddenFolders = sorted.filter((file) => file.effect === 'hide' && file.folder);
  const pins = new Set<string>();
  for (const file of sorted) {
    if (hiddenFolders.some((hidden) => hidden !== file && isWithin(hidden.path, file.path)))
      continue;
    const writable = decidingMount(base, file.path);
    if (writable?.kind !== 'writable') continue;
    for (let folder = path.dirname(file.path); folder !== writable.path; ) {
      if (!isWithin(writable.path, folder)) break;
      pins.add(folder);
      const parent = path.dirname(folder);
      if (parent === folder) break;
      folder = parent;
    }
  }
  for (const folder of [...pins].sort((a, b) => depth(a) - depth(b))) {
    mounts.push({ kind: 'writable', path: folder });
    mounts.push(...inside(base, folder, true));
  }

  const made: CoveredPath[] = [];
  for (const file of sorted) {
    const deciding = decidingMount(mounts, file.path);
    if (file.effect === 'hide') {
      // Where the profile shows nothing (or an empty stand-in) it is hidden already.
      if (deciding?.kind !== 'read-only' && deciding?.kind !== 'writable') continue;
      mounts.push({ kind: file.folder ? 'hidden-folder' : 'empty-file', path: file.path });
      if (deciding.kind === 'writable') made.push(file);
      continue;
    }
    // Read-only wherever the profile shows it read-only already.
    if (deciding?.kind !== 'writable') continue;
    mounts.push({ kind: 'read-only', path: file.path });
    if (file.folder) mounts.push(...inside(base, file.path, false));
  }
  let released = false;
  return {
    mounts,
    release: () => {
      if (!released) removeMadeMountPoints(made);
      released = true;
    },
  };
}

/** The mounts of `base` below `folder` (writable ones only when `writable`), in order. */
function inside(base: readonly Mount[], folder: string, writable: boolean): Mount[] {
  return base.filter(
    (mount) =>
      mount.path !== folder &&
      isWithin(folder, mount.path) &&
      (writable || mount.kind !== 'writable'),
  );
}

/**
 * A covered path removed between the walk and bwrap's start is made again by bwrap, empty,
 * to mount on; once the command has ended, such a stand-in (another file than the one
 * found, and empty) is removed. A sandbox whose exit was just reported can hold its mounts
 * a moment longer, so one still mounted is looked at again every 50 ms for two seconds.
 */
function removeMadeMountPoints(made: readonly CoveredPath[], attempt = 0): void {
  if (made.length === 0) return;
  const mounted = mountedNow();
  const held = made.filter((file) => {
    const stats = lstatSync(file.path, { throwIfNoEntry: false });
    if (!stats || (stats.dev === file.dev && stats.ino === file.ino)) return false;
    if (mounted(file.path)) return true;
    try {
      if (file.folder && stats.isDirectory() && readdirSync(file.path).length === 0)
        rmdirSync(file.path);
      else if (!file.folder && stats.isFile() && stats.size === 0) unlinkSync(file.path);
    } catch {
      // gone meanwhile, or not ours to remove
    }
    return false;
  });
  if (held.length > 0 && attempt < 40)
    setTimeout(() => removeMadeMountPoints(held, attempt + 1), 50).unref();
}
