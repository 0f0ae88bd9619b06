/** What a sandboxed command may see and change; built once per command from the session. */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

export type SandboxSetting = 'auto' | 'on' | 'off';
export type NetworkSetting = 'allow' | 'deny';

export interface SandboxPolicy {
  /** Real paths writable inside: the workspace roots. */
  workspaceRoots: readonly string[];
  /** toolhost's temporary folder for this project (saved outputs, background logs). */
  projectTempDir: string;
  /** Home folders whose credential locations are hidden. */
  homeDirs: readonly string[];
  network: NetworkSetting;
  /** False only for background commands kept after toolhost exits (keepBackgroundProcesses). */
  dieWithParent?: boolean;
}

/** Where credentials usually live, relative to a home folder. */
export const CREDENTIAL_LOCATIONS = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gcloud',
  '.kube',
  '.docker',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.toolhost',
  '.qwen',
] as const;

/** The credential locations that exist, as real paths (a link to elsewhere is hidden there). */
export function existingCredentialPaths(homeDirs: readonly string[]): string[] {
  const found = new Set<string>();
  for (const home of homeDirs) {
    for (const location of CREDENTIAL_LOCATIONS) {
      try {
        found.add(realpathSync.native(path.join(home, location)));
      } catch {
        // not there (or a link to nowhere)
      }
    }
  }
  return [...found].sort();
}

/**
 * Git files that would run code outside the sandbox later (hooks, configuration that can
 * name programs), for each repository at a workspace root and its submodules. A missing
 * hooks folder or configuration file is created empty first: left missing, a command in
 * the sandbox could create it inside the writable `.git`. Where one is a link (a mount
 * would land on its target and leave the link replaceable) or cannot be created, the whole
 * git folder is read-only instead. A `.git` file (a worktree's or a submodule's pointer to
 * its git folder) is read-only, so it cannot be pointed at a folder the command made.
 */
export function protectedGitPaths(workspaceRoots: readonly string[]): {
  gitDirs: string[];
  readOnly: string[];
} {
  const gitDirs: string[] = [];
  const readOnly: string[] = [];
  for (const root of workspaceRoots) {
    const dotGit = path.join(root, '.git');
    if (isPlainFile(dotGit)) readOnly.push(dotGit);
    const gitDir = realDirectory(dotGit);
    if (!gitDir) continue;
    gitDirs.push(gitDir);
    for (const repo of [gitDir, ...submoduleGitDirs(gitDir)]) {
      const hooks = path.join(repo, 'hooks');
      const config = path.join(repo, 'config');
      const pinnable =
        madeIfMissing(hooks, () => mkdirSync(hooks)) &&
        // `wx`: an existing file, or a link (even to nowhere), is left as it is.
        madeIfMissing(config, () => writeFileSync(config, '', { flag: 'wx' }));
      if (pinnable) readOnly.push(hooks, config);
      else readOnly.push(repo);
    }
  }
  return { gitDirs, readOnly };
}

/** How deep submodules are looked for: names with slashes and submodules of submodules. */
const SUBMODULE_DEPTH = 8;

/**
 * The git folders of a repository's submodules, by real path: `modules/<name>`, where a
 * name may hold slashes, and their own `modules/` in turn. A folder with a HEAD, hooks or
 * config is a git folder (hooks and config cannot be removed once they are mount points).
 */
function submoduleGitDirs(gitDir: string): string[] {
  const found: string[] = [];
  const walk = (folder: string, depth: number): void => {
    const dir = realDirectory(folder);
    if (!dir || depth > SUBMODULE_DEPTH) return;
    for (const name of entries(dir)) {
      const child = realDirectory(path.join(dir, name));
      if (!child) continue;
      if (['HEAD', 'hooks', 'config'].some((marker) => existsSync(path.join(child, marker)))) {
        found.push(child);
        walk(path.join(child, 'modules'), depth + 1);
      } else {
        walk(child, depth + 1);
      }
    }
  };
  walk(path.join(gitDir, 'modules'), 0);
  return found;
}

/** The names in `dir`; none when it cannot be read. */
function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Whether `target` is there and no link, after trying to make it (which fails if it is). */
function madeIfMissing(target: string, make: () => void): boolean {
  try {
    make();
  } catch {
    // already there, a link (even to nowhere), or a read-only repository
  }
  try {
    return !lstatSync(target).isSymbolicLink();
  } catch {
    return false;
  }
}

function isPlainFile(file: string): boolean {
  try {
    return lstatSync(file).isFile();
  } catch {
    return false;
  }
}

/** The real path of `dir` when it is a folder (through links), else null. */
function realDirectory(dir: string): string | null {
  try {
    const real = realpathSync.native(dir);
    return statSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}
