/**
 * Brings the workspace roots' files back to a snapshot: files that differ are written
 * from the snapshot, files created since are removed (and folders left empty by that),
 * and nothing else is touched: ignored files, `.git` folders, unchanged files and files the
 * undo checkpoint could not keep stay as they are. Symbolic links come back as links; a
 * link is never written through. Only what differs between the current state and the target is done, so a
 * restore on a large tree costs what changed.
 */
import { lstatSync, realpathSync, rmdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { EMPTY_TREE, nulFields, type ShadowGit } from './shadow-git.js';
import { indexFileFor, type SnapshotRoot } from './snapshot.js';

export interface RestoredFiles {
  /** Absolute paths written from the checkpoint. */
  written: string[];
  /** Absolute paths removed (created after the checkpoint). */
  removed: string[];
  /** Absolute paths left as they are: the state before the restore could not keep them. */
  left: string[];
}

interface FileChange {
  status: string;
  /** Relative to the root, with `/`. */
  file: string;
}

export async function restoreFiles(
  git: ShadowGit,
  stateDir: string,
  currentTree: string,
  targetTree: string,
  roots: readonly SnapshotRoot[],
  /** Absolute paths not to overwrite or remove (too large or unreadable to keep). */
  keep: ReadonlySet<string> = new Set(),
): Promise<RestoredFiles> {
  const restored: RestoredFiles = { written: [], removed: [], left: [] };
  for (const root of roots) {
    const from = (await subtree(git, currentTree, root.key)) ?? EMPTY_TREE;
    const to = (await subtree(git, targetTree, root.key)) ?? EMPTY_TREE;
    if (from === to) continue;
    const changes = (await diffTrees(git, from, to)).filter((change) => {
      const file = path.join(root.path, ...change.file.split('/'));
      if (!keep.has(file)) return true;
      restored.left.push(file);
      return false;
    });
    const run = { workTree: root.path, indexFile: indexFileFor(stateDir, root.key) };
    // -m keeps the stat cache of every entry whose content stays: without it each entry's
    // stat data is cleared and the next snapshot reads and hashes the whole tree again.
    await git.run(['read-tree', '-m', to], run);
    const realRoot = realpathSync.native(root.path);
    for (const change of changes.filter((c) => c.status === 'D')) {
      const removed = removeFile(realRoot, change.file);
      if (removed) restored.removed.push(removed);
    }
    const toWrite = changes.filter((c) => c.status !== 'D').map((c) => c.file);
    if (toWrite.length > 0) {
      // -u keeps the stat cache right, so the next snapshot does not read these files again.
      await git.run(['checkout-index', '--force', '-u', '-z', '--stdin'], {
        ...run,
        input: `${toWrite.join('\0')}\0`,
      });
      restored.written.push(...toWrite.map((file) => path.join(root.path, file)));
    }
  }
  return restored;
}

/** The tree of one root inside a top tree, or undefined when the snapshot lacks that root. */
export async function subtree(
  git: ShadowGit,
  tree: string,
  key: string,
): Promise<string | undefined> {
  const line = nulFields(await git.run(['ls-tree', '-z', tree, '--', key]))[0];
  return line ? /^\d+ tree ([0-9a-f]+)\t/.exec(line)?.[1] : undefined;
}

/** What differs from `from` to `to`, file by file (A added, D deleted, M/T changed). */
export async function diffTrees(git: ShadowGit, from: string, to: string): Promise<FileChange[]> {
  const fields = nulFields(await git.run(['diff-tree', '-r', '-z', '--no-renames', from, to]));
  const changes: FileChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const status = fields[i]?.split(' ').at(-1) ?? '';
    const file = fields[i + 1] ?? '';
    changes.push({ status, file });
  }
  return changes;
}

/**
 * Removes a file created after the checkpoint. The path comes from the shadow repository,
 * but is still checked: no `..` or `.git` component, and no folder on the way that is now
 * a link leading elsewhere. Returns the removed path.
 */
function removeFile(realRoot: string, file: string): string | undefined {
  const parts = file.split('/');
  if (
    parts.some(
      (part) => part === '' || part === '.' || part === '..' || part.toLowerCase() === '.git',
    )
  ) {
    return undefined;
  }
  const target = path.join(realRoot, ...parts);
  const folder = path.dirname(target);
  try {
    if (realpathSync.native(folder) !== folder) return undefined;
    if (lstatSync(target).isDirectory()) return undefined;
    unlinkSync(target);
  } catch {
    return undefined; // already gone
  }
  for (let dir = folder; dir !== realRoot && dir.startsWith(realRoot); dir = path.dirname(dir)) {
    try {
      rmdirSync(dir);
    } catch {
      break; // not empty: it holds other files (or ignored ones), and stays
    }
  }
  return target;
}
