/**
 * Takes the state of the workspace roots into the shadow repository as one tree: each
 * root's files (as the file tools list them: ignore rules applied, `.git` folders of the
 * project and of nested repositories left out) go into that root's own index, where git's
 * stat cache means only files that changed are read again; the roots' trees become the
 * entries of one top tree, named by a digest of each root's path.
 */
import { createHash } from 'node:crypto';
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
  /** Files that could not be read and are not in the snapshot (relative to their root). */
  skipped: string[];
}

const MAX_SKIPPED = 50;

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
  /** Folders never taken (toolhost's own ~/.toolhost, when a root holds it). */
  excluded: readonly string[],
  signal?: AbortSignal,
): Promise<Snapshot> {
  const entries: string[] = [];
  const skipped: string[] = [];
  const snapshotRoots: SnapshotRoot[] = [];
  for (const root of new Set(roots)) {
    const key = rootKey(root);
    const tree = await snapshotRoot(git, stateDir, root, key, roots, excluded, skipped, signal);
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
  excluded: readonly string[],
  skipped: string[],
  signal: AbortSignal | undefined,
): Promise<string> {
  const run = {
    workTree: root,
    indexFile: indexFileFor(stateDir, key),
    ...(signal ? { signal } : {}),
  };
  const listing = listFiles(root, {
    roots,
    respectGitIgnore: true,
    respectToolhostIgnore: true,
    ...(signal ? { signal } : {}),
  }).catch((error: unknown) => {
    throw new CheckpointError(`cannot list the files of ${root}: ${(error as Error).message}`);
  });
  const [listed, indexedOutput] = await Promise.all([listing, git.run(['ls-files', '-z'], run)]);
  const wanted = new Set<string>();
  for (const file of listed) {
    if (excluded.some((folder) => isWithin(folder, file))) continue;
    wanted.add(path.relative(root, file).split(path.sep).join('/'));
  }
  const indexed = nulFields(indexedOutput);
  const gone = indexed.filter((file) => !wanted.has(file));
  if (gone.length > 0) {
    await git.run(['update-index', '--force-remove', '-z', '--stdin'], {
      ...run,
      input: `${gone.join('\0')}\0`,
    });
  }
  // A file that cannot be read (permissions, or one that a command is replacing) is left
  // out and named, rather than failing the whole checkpoint.
  for (;;) {
    const files = [...wanted];
    if (files.length === 0) break;
    try {
      await git.run(['update-index', '--add', '--remove', '-z', '--stdin'], {
        ...run,
        input: `${files.join('\0')}\0`,
      });
      break;
    } catch (error) {
      const bad = unprocessablePath(error);
      if (!bad || !wanted.delete(bad) || skipped.length >= MAX_SKIPPED) throw error;
      skipped.push(bad);
    }
  }
  return (await git.run(['write-tree'], run)).trim();
}

function unprocessablePath(error: unknown): string | undefined {
  if (!(error instanceof CheckpointError)) return undefined;
  return (
    /^fatal: Unable to process path (.+)$/m.exec(error.gitStderr)?.[1] ??
    /[Ii]nvalid path '([^']+)'/.exec(error.gitStderr)?.[1]
  );
}
