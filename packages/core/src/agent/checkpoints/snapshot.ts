/**
 * Takes the state of the workspace roots into the shadow repository as one tree: each
 * root's files (as the file tools list them: ignore rules applied, `.git` folders of the
 * project and of nested repositories left out) and its symbolic links (kept as links,
 * never followed) go into that root's own index. git's stat cache says which indexed files
 * changed, so only those and new files are looked at and read; a file over the size limit
 * or one that cannot be read is left out and named. The roots' trees become the entries
 * of one top tree, named by a digest of each root's path.
 */
import { createHash } from 'node:crypto';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { listFiles } from '../../utils/file-listing.js';
import { isWithin } from '../../workspace/workspace-context.js';
import { CheckpointError, nulFields, type ShadowGit } from './shadow-git.js';

export interface SnapshotRoot {
  /** The entry name of the root's tree in the top tree. */
  key: string;
  path: string;
}

export interface Snapshot {
  /** The top tree: one entry per root. */
  tree: string;
  roots: SnapshotRoot[];
  /** Files left out of the snapshot, with why. */
  skipped: SkippedFile[];
}

export interface SkippedFile {
  /** Absolute path. */
  file: string;
  reason: 'too_large' | 'unreadable';
  /** Bytes, for a file too large. */
  size?: number;
}

export interface SnapshotOptions {
  /** Folders never taken (toolhost's own ~/.toolhost, when a root holds it). */
  excluded: readonly string[];
  /** Bytes; larger files are left out (0: no limit). */
  maxFileSize: number;
  /** A root's key when it is not its path's digest (a moved project keeps its old keys). */
  keyFor?: (root: string) => string | undefined;
  signal?: AbortSignal;
}

/** Files that cannot be read before the snapshot gives up rather than naming them all. */
const MAX_UNREADABLE = 50;
const STAT_BATCH = 256;

export function rootKey(root: string): string {
  return `r-${createHash('sha256').update(root).digest('hex').slice(0, 12)}`;
}

export function indexFileFor(stateDir: string, key: string): string {
  return path.join(stateDir, 'indexes', key);
}

export async function takeSnapshot(
  git: ShadowGit,
  stateDir: string,
  roots: readonly string[],
  options: SnapshotOptions,
): Promise<Snapshot> {
  const entries: string[] = [];
  const skipped: SkippedFile[] = [];
  const snapshotRoots: SnapshotRoot[] = [];
  for (const root of new Set(roots)) {
    const key = options.keyFor?.(root) ?? rootKey(root);
    const tree = await snapshotRoot(git, stateDir, root, key, roots, options, skipped);
    entries.push(`040000 tree ${tree}\t${key}\0`);
    snapshotRoots.push({ key, path: root });
  }
  const tree = (await git.run(['mktree', '-z'], { input: entries.join('') })).trim();
  return { tree, roots: snapshotRoots, skipped };
}

async function snapshotRoot(
  git: ShadowGit,
  stateDir: string,
  root: string,
  key: string,
  roots: readonly string[],
  options: SnapshotOptions,
  skipped: SkippedFile[],
): Promise<string> {
  const { signal } = options;
  const run = {
    workTree: root,
    indexFile: indexFileFor(stateDir, key),
    ...(signal ? { signal } : {}),
  };
  const listingOptions = {
    roots,
    respectGitIgnore: true,
    respectToolhostIgnore: true,
    ...(signal ? { signal } : {}),
  };
  const links: string[] = [];
  const listing = Promise.all([
    listFiles(root, listingOptions),
    listFiles(root, { ...listingOptions, onLink: (link) => links.push(link) }),
  ]).catch((error: unknown) => {
    throw new CheckpointError(`cannot list the files of ${root}: ${(error as Error).message}`);
  });
  const [[listed], indexedOutput, changedOutput] = await Promise.all([
    listing,
    git.run(['ls-files', '-z'], run),
    // Indexed entries whose file differs from the index by git's stat cache (or is gone).
    git.run(['diff-files', '--name-only', '-z'], run),
  ]);
  const wanted = new Set<string>();
  for (const file of [...listed, ...links]) {
    if (options.excluded.some((folder) => isWithin(folder, file))) continue;
    wanted.add(path.relative(root, file).split(path.sep).join('/'));
  }
  const indexed = new Set(nulFields(indexedOutput));
  const toRemove = [...indexed].filter((file) => !wanted.has(file));
  const toAdd = new Set([...wanted].filter((file) => !indexed.has(file)));
  for (const file of nulFields(changedOutput)) if (wanted.has(file)) toAdd.add(file);
  if (options.maxFileSize > 0) {
    for (const { file, size } of await oversized(root, [...toAdd], options.maxFileSize)) {
      toAdd.delete(file);
      // An older, smaller version must not stand in for the file as it is now.
      if (indexed.has(file)) toRemove.push(file);
      skipped.push({ file: path.join(root, file), reason: 'too_large', size });
    }
  }
  if (toRemove.length > 0) {
    await git.run(['update-index', '--force-remove', '-z', '--stdin'], {
      ...run,
      input: `${toRemove.join('\0')}\0`,
    });
  }
  // A file that cannot be read (permissions, or one that a command is replacing) is left
  // out and named, rather than failing the whole checkpoint.
  let unreadable = 0;
  for (;;) {
    const files = [...toAdd];
    if (files.length === 0) break;
    try {
      await git.run(['update-index', '--add', '--remove', '-z', '--stdin'], {
        ...run,
        input: `${files.join('\0')}\0`,
      });
      break;
    } catch (error) {
      const bad = unprocessablePath(error);
      if (!bad || !toAdd.delete(bad) || ++unreadable > MAX_UNREADABLE) throw error;
      if (indexed.has(bad)) {
        await git.run(['update-index', '--force-remove', '-z', '--stdin'], {
          ...run,
          input: `${bad}\0`,
        });
      }
      skipped.push({ file: path.join(root, bad), reason: 'unreadable' });
    }
  }
  return (await git.run(['write-tree'], run)).trim();
}

/** One line for the person: the file (relative to `base` when inside it) and why it is left out. */
export function describeSkipped(skipped: SkippedFile, base: string): string {
  const relative = path.relative(base, skipped.file);
  const name = relative && !relative.startsWith('..') ? relative : skipped.file;
  if (skipped.reason === 'unreadable') return `${name} (could not be read)`;
  const mb = ((skipped.size ?? 0) / (1024 * 1024)).toFixed(1);
  return `${name} (${mb} MiB, over general.checkpointing.maxFileSize)`;
}

/** The regular files among `files` (relative to root) larger than `limit` bytes. */
async function oversized(
  root: string,
  files: string[],
  limit: number,
): Promise<{ file: string; size: number }[]> {
  const found: { file: string; size: number }[] = [];
  for (let start = 0; start < files.length; start += STAT_BATCH) {
    const batch = files.slice(start, start + STAT_BATCH);
    const stats = await Promise.all(
      batch.map((file) => lstat(path.join(root, file)).catch(() => undefined)),
    );
    stats.forEach((stat, index) => {
      const file = batch[index];
      if (file !== undefined && stat?.isFile() && stat.size > limit) {
        found.push({ file, size: stat.size });
      }
    });
  }
  return found;
}

function unprocessablePath(error: unknown): string | undefined {
  if (!(error instanceof CheckpointError)) return undefined;
  return (
    /^fatal: Unable to process path (.+)$/m.exec(error.gitStderr)?.[1] ??
    /[Ii]nvalid path '([^']+)'/.exec(error.gitStderr)?.[1]
  );
}
