/**
 * The one walk through a git folder's `modules/` that finds where submodules keep their
 * git folders, shared by the read-only git check (whose configs it reads) and the sandbox
 * policy (which keeps them read-only). It never looks into a git folder beyond its own
 * `modules/` (its objects can be many), and it gives up, for its caller to fail closed,
 * after a bounded number of folders.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** How many folders one search may look at before it gives up. */
export const MAX_SUBMODULE_FOLDERS = 500;

/** What is left of a search's allowance, shared by the walks of one search. */
export interface FolderBudget {
  left: number;
}

/**
 * Every folder under `modulesDir`, nested submodules' included: a folder with a HEAD is a
 * git folder, searched further only in its `modules/`; any other folder is part of a name
 * with slashes and searched whole. Links to folders count as folders. Null when the
 * budget runs out first.
 */
export function submoduleFolders(
  modulesDir: string,
  budget: FolderBudget = { left: MAX_SUBMODULE_FOLDERS },
): string[] | null {
  const found: string[] = [];
  const pending = [modulesDir];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (--budget.left < 0) return null;
    for (const name of folderNames(next)) {
      const child = path.join(next, name);
      found.push(child);
      pending.push(existsSync(path.join(child, 'HEAD')) ? path.join(child, 'modules') : child);
    }
  }
  return found;
}

/** The folders in `dir` (links to folders included); none when it cannot be read. */
function folderNames(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}
