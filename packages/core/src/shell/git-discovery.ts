/**
 * Finds the repository git would use for a folder, as git's own discovery does: at each
 * folder up from it, a `.git` folder or file, else the folder itself when it is a git folder
 * (a bare repository, which git uses as readily as a `.git`). Shared by the read-only git
 * checks; nothing here runs git.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export interface GitDirLayout {
  /** The work tree's top, or for a bare repository the git folder itself. */
  root: string;
  /** The git folder (a worktree's own folder for a linked worktree). */
  own: string;
  /** The folder holding the shared config and objects. */
  common: string;
  /** Found as a bare repository: git has no work tree there. */
  bare: boolean;
}

export function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

export function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The folder a `.git` file names, resolved from the file's folder; null without one. */
export function pointedGitDir(dotGit: string): string | null {
  const pointer = /^gitdir:\s*(.+)$/m.exec(readText(dotGit))?.[1]?.trim();
  return pointer ? path.resolve(path.dirname(dotGit), pointer) : null;
}

/**
 * Whether git would take `folder` itself for a git folder: a HEAD beside an object store or
 * a `commondir` (git also checks HEAD's content; taking more folders for git folders only
 * makes the checks read more).
 */
export function looksLikeGitFolder(folder: string): boolean {
  return (
    existsSync(path.join(folder, 'HEAD')) &&
    (existsSync(path.join(folder, 'objects')) || existsSync(path.join(folder, 'commondir')))
  );
}

/** The git folder of the repository containing `dir`: undefined outside one, null when unreadable. */
export function findGitDir(dir: string): GitDirLayout | null | undefined {
  let current = path.resolve(dir);
  for (;;) {
    const dotGit = path.join(current, '.git');
    const bare = !existsSync(dotGit) && looksLikeGitFolder(current);
    if (bare || existsSync(dotGit)) {
      try {
        let own: string | null = bare ? current : dotGit;
        if (!bare && statSync(dotGit).isFile()) {
          own = pointedGitDir(dotGit);
          if (!own) return null;
        }
        const commondir = path.join(own, 'commondir');
        const common = existsSync(commondir)
          ? path.resolve(own, readFileSync(commondir, 'utf8').trim())
          : own;
        return { root: current, own, common, bare };
      } catch {
        return null;
      }
    }
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}
