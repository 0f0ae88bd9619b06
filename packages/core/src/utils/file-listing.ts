/**
 * Lists the files under a folder the way every search tool sees the workspace: ignore
 * rules applied, hidden files included, .git and symbolic links left out. ripgrep does
 * the walk when it is available; a JavaScript walk gives the same list when it is not.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { isWithin } from '../workspace/workspace-context.js';
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
}

/** Absolute paths of the files under `dir` (inside the workspace), in no particular order. */
export async function listFiles(dir: string, options: ListFilesOptions): Promise<string[]> {
  const root = options.roots.find((candidate) => isWithin(candidate, dir)) ?? dir;
  const engine = options.engine ?? (ripgrepPath() ? 'ripgrep' : 'javascript');
  return engine === 'ripgrep'
    ? listWithRipgrep(root, dir, options)
    : listWithJavaScript(dir, options);
}

async function listWithRipgrep(
  root: string,
  dir: string,
  options: ListFilesOptions,
): Promise<string[]> {
  const files: string[] = [];
  const relativeDir = path.relative(root, dir) || '.';
  const byName = options.nameGlob
    ? ['--type-add', `toolhost:${options.nameGlob}`, '--type', 'toolhost']
    : [];
  const args = ['--files', ...ignoreArguments(root, options), ...byName, '--', relativeDir];
  const run = await runRipgrep(args, {
    cwd: root,
    signal: options.signal,
    onLine: (line) => {
      if (line) files.push(path.join(root, line));
      return undefined;
    },
  });
  // rg exits 1 when it finds no files; 2 with partial results when some folders were unreadable.
  if (run.exitCode !== 0 && run.exitCode !== 1 && files.length === 0 && !run.stopped) {
    throw new Error(
      `listing ${dir} failed: ${run.stderr.trim() || `rg exited with ${run.exitCode}`}`,
    );
  }
  return files;
}

async function listWithJavaScript(dir: string, options: ListFilesOptions): Promise<string[]> {
  const rules = new IgnoreRules(options.roots, {
    respectGitIgnore: options.respectGitIgnore,
    respectToolhostIgnore: options.respectToolhostIgnore,
  });
  const files: string[] = [];
  const pending = [dir];
  while (pending.length > 0) {
    if (options.signal?.aborted) break;
    const current = pending.pop()!;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(current, { withFileTypes: true });
    } catch {
      continue; // unreadable folders are skipped, as rg skips them
    }
    for (const entry of entries) {
      if (entry.name === '.git') continue;
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (!rules.isIgnored(full, true)) pending.push(full);
      } else if (entry.isFile() && !rules.isIgnored(full, false)) {
        files.push(full);
      }
    }
  }
  return files;
}
