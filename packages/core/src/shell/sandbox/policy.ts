/** What a sandboxed command may see and change; built once per command from the session. */
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
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
      const candidate = path.join(home, location);
      if (!existsSync(candidate)) continue;
      try {
        found.add(realpathSync.native(candidate));
      } catch {
        // vanished while we looked
      }
    }
  }
  return [...found].sort();
}

/**
 * Git files that would run code outside the sandbox later (hooks, configuration that can
 * name programs), for each repository at a workspace root and its submodules.
 */
export function protectedGitPaths(workspaceRoots: readonly string[]): {
  gitDirs: string[];
  readOnly: string[];
} {
  const gitDirs: string[] = [];
  const readOnly: string[] = [];
  for (const root of workspaceRoots) {
    const gitDir = realDirectory(path.join(root, '.git'));
    if (!gitDir) continue;
    gitDirs.push(gitDir);
    for (const repo of [gitDir, ...submoduleGitDirs(gitDir)]) {
      for (const name of ['hooks', 'config']) {
        const target = path.join(repo, name);
        if (existsSync(target)) readOnly.push(target);
      }
    }
  }
  return { gitDirs, readOnly };
}

function submoduleGitDirs(gitDir: string): string[] {
  const modules = realDirectory(path.join(gitDir, 'modules'));
  if (!modules) return [];
  try {
    return readdirSync(modules, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => path.join(modules, entry.name));
  } catch {
    return [];
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
