/** The git branch of a folder, read from `.git/HEAD` (no git process is started). */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export function gitBranch(folder: string): string | undefined {
  let dir = folder;
  for (;;) {
    const dotGit = path.join(dir, '.git');
    const head = headFile(dotGit);
    if (head) {
      try {
        const text = readFileSync(head, 'utf8').trim();
        const ref = /^ref: refs\/heads\/(.+)$/.exec(text);
        return ref ? ref[1] : text.slice(0, 7);
      } catch {
        return undefined;
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** `.git` is a folder, or (worktrees, submodules) a file naming the real one. */
function headFile(dotGit: string): string | undefined {
  try {
    if (statSync(dotGit).isDirectory()) return path.join(dotGit, 'HEAD');
    const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
    if (!pointer?.[1]) return undefined;
    return path.join(path.resolve(path.dirname(dotGit), pointer[1].trim()), 'HEAD');
  } catch {
    return undefined;
  }
}
