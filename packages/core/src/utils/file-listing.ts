/**
 * Lists the files under a folder the way every search tool sees the workspace: ignore
 * rules applied, hidden files included, .git and symbolic links left out (a caller that
 * keeps links, like checkpoints, asks for them on their own). ripgrep does
 * the walk when it is available; a JavaScript walk gives the same list when it is not.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { isWithin } from '../workspace/workspace-context.js';
import { readFolderConfined } from './confined-fs.js';
import { IgnoreRules } from './ignore-rules.js';
import { type IgnoreFlags, ignoreArguments, ripgrepPath, runRipgrep } from './ripgrep.js';

export type ListingEngine = 'ripgrep' | 'javascript';

export interface ListFilesOptions extends IgnoreFlags {
  /** Workspace roots; each root's ignore files apply below it. */
  roots: readonly string[];
  signal?: AbortSignal;
  /** Forces an engine (tests); by default ripgrep when available. */
  engine?: ListingEngine;
  /**
   * A glob on file names (ripgrep's type syntax, e.g. `*.{ts,tsx}`) the listing may apply
   * to leave out files early; an engine that does not apply it lists them all. Unlike a
   * --glob, it never brings back a file the ignore rules leave out.
   */
  nameGlob?: string;
  /**
   * Receives each file as the walk finds it, while it goes on (the listing then returns
   * nothing): work per file overlaps the walk instead of following it.
   */
  onFile?: (file: string) => void;
  /** False lists only the folder's own files, not those of its subfolders. */
  recursive?: boolean;
  /**
   * Receives the symbolic links the ignore rules keep (never followed), and makes the walk
   * list links only: no files. Only the JavaScript walk sees links, so this forces it.
   */
  onLink?: (link: string) => void;
}

/** Absolute paths of the files under `dir` (inside the workspace), in no particular order. */
export async function listFiles(dir: string, options: ListFilesOptions): Promise<string[]> {
  const root = options.roots.find((candidate) => isWithin(candidate, dir)) ?? dir;
  // A folder reached through a link (`link-dir/*`) is not listed, wherever it leads: the
  // walk never follows links, and the folder it starts from is no exception.
  if (!isRealFolder(dir)) return [];
  // One folder's own files take one readdir: less than starting ripgrep costs.
  const engine = options.onLink
    ? 'javascript'
    : (options.engine ?? (options.recursive !== false && ripgrepPath() ? 'ripgrep' : 'javascript'));
  const files: string[] = [];
  const onFile = options.onFile ?? ((file: string) => files.push(file));
  if (engine === 'ripgrep') {
    await listWithRipgrep(root, dir, options, onFile);
    // ripgrep follows the folder it is given: one swapped for a link meanwhile fails the
    // listing (its files may have been handed on already, so the caller must not use them).
    if (!isRealFolder(dir))
      throw new Error(
        `${dir} was replaced by a symbolic link while it was listed; nothing from it is shown. List it again.`,
      );
  } else await listWithJavaScript(dir, options, onFile);
  return files;
}

/** True when `dir` is its own real path (no link on the way), or does not exist. */
function isRealFolder(dir: string): boolean {
  try {
    return realpathSync.native(dir) === path.resolve(dir);
  } catch {
    return true; // nothing there: nothing to list
  }
}

async function listWithRipgrep(
  root: string,
  dir: string,
  options: ListFilesOptions,
  onFile: (file: string) => void,
): Promise<void> {
  const relativeDir = path.relative(root, dir) || '.';
  const byName = options.nameGlob
    ? ['--type-add', `toolhost:${options.nameGlob}`, '--type', 'toolhost']
    : [];
  const args = ['--files', '--null', ...ignoreArguments(root, options), ...byName];
  if (options.recursive === false) args.push('--max-depth', '1');
  args.push('--', relativeDir);
  // rg prints the paths as given: "./x" under ".", "sub/x" under "sub", never "..".
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  const skip = relativeDir === '.' ? 2 : 0;
  let found = 0;
  const run = await runRipgrep(args, {
    cwd: root,
    signal: options.signal,
    separator: '\0',
    onLine: (line) => {
      if (line) {
        found++;
        onFile(prefix + line.slice(skip));
      }
      return undefined;
    },
  });
  // rg exits 1 when it finds no files; 2 with partial results when some folders were unreadable.
  if (run.exitCode !== 0 && run.exitCode !== 1 && found === 0 && !run.stopped) {
    throw new Error(
      `listing ${dir} failed: ${run.stderr.trim() || `rg exited with ${run.exitCode}`}`,
    );
  }
}

async function listWithJavaScript(
  dir: string,
  options: ListFilesOptions,
  onFile: (file: string) => void,
): Promise<void> {
  const rules = new IgnoreRules(options.roots, {
    respectGitIgnore: options.respectGitIgnore,
    respectToolhostIgnore: options.respectToolhostIgnore,
    ...(options.ignoreFiles ? { ignoreFiles: options.ignoreFiles } : {}),
  });
  const pending = [path.resolve(dir)];
  while (pending.length > 0) {
    if (options.signal?.aborted) break;
    const current = pending.pop()!;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readFolderConfined(current);
    } catch {
      continue; // unreadable folders are skipped, as rg skips them
    }
    for (const entry of entries) {
      if (entry.name === '.git') continue;
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (options.recursive !== false && !rules.isIgnored(full, true)) pending.push(full);
      } else if (options.onLink) {
        if (entry.isSymbolicLink() && !rules.isIgnored(full, false)) options.onLink(full);
      } else if (entry.isFile() && !rules.isIgnored(full, false)) {
        onFile(full);
      }
    }
  }
}
