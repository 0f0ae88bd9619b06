/** What a sandboxed command may see and change; built once per command from the session. */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmdirSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import { isWithin } from '../../workspace/workspace-context.js';
import { MAX_SUBMODULE_FOLDERS, submoduleFolders } from '../git-submodule-folders.js';
import { gaveBackMountPoint, madeMountPoint } from './mount-point-janitor.js';
import type { CoveredPaths } from './rule-paths/covered.js';

export type SandboxSetting = 'auto' | 'on' | 'off';
export type NetworkSetting = 'allow' | 'deny';

export interface SandboxPolicy {
  /** Real paths writable inside: the workspace roots. */
  workspaceRoots: readonly string[];
  /** toolhost's temporary folder for this project (saved outputs, background logs). */
  projectTempDir: string;
  /** Home folders whose credential locations are hidden. */
  homeDirs: readonly string[];
  /**
   * The folders at each workspace root whose files later sessions load as prompts or
   * settings (`.toolhost`, `.qwen`...: the caller's list, config/prompt-folders.ts in
   * toolhost): kept read-only whole, made empty to mount on where missing.
   */
  promptFolders: readonly string[];
  network: NetworkSetting;
  /** False only for background commands kept after toolhost exits (keepBackgroundProcesses). */
  dieWithParent?: boolean;
  /** What the person's Read and Edit deny rules cover now, hidden or made read-only. */
  covered?: CoveredPaths;
}

/**
 * The names at a workspace root that decide what runs outside the sandbox later: the
 * repository's git folder (hooks, configuration, `commondir`, submodules), and the
 * project's prompt folders (its settings, which may turn the sandbox off or allow
 * commands, and the subagents and commands later sessions load as prompts).
 */
export function protectedRootEntries(promptFolders: readonly string[]): string[] {
  return ['.git', ...promptFolders];
}

export interface ProtectedPaths {
  /** Real paths made read-only as a whole: git folders, `.git` files, prompt folders. */
  readOnly: string[];
  /**
   * Workspace roots whose own entries cannot be added, removed or renamed: a protected
   * entry there is a link (a mount lands on its target and leaves the link replaceable), or
   * a missing prompt folder could not be made. Their other entries stay writable.
   */
  pinnedRoots: string[];
  /** Empty prompt folders made here for this command, to be given back by releaseMade. */
  made: string[];
}

/**
 * What a command must not change, because git or toolhost run later outside the sandbox
 * would act on it. The whole git folder is read-only: in a writable one a command can
 * write `commondir`, which moves hooks and configuration to a folder of its own. A missing
 * prompt folder is made empty when `makeMissing` (a bind mount needs a place to land) and
 * removed again by releaseMade once no sandbox holds it; a missing `.git` cannot be kept
 * from being made (a limit the README names).
 */
export function protectedPaths(
  workspaceRoots: readonly string[],
  promptFolders: readonly string[],
  makeMissing = true,
): ProtectedPaths {
  const entries = protectedRootEntries(promptFolders);
  const readOnly = new Set<string>();
  const pinnedRoots: string[] = [];
  const made: string[] = [];
  for (const root of workspaceRoots) {
    let pinned = entries.some((name) => isLink(path.join(root, name)));
    for (const name of promptFolders) {
      const folder = path.join(root, name);
      if (makeMissing && makeHeld(folder)) made.push(folder);
      const target = realPathOf(folder);
      if (target) readOnly.add(target);
      else if (makeMissing) pinned = true; // neither there nor made: nothing to mount on
    }
    if (pinned) pinnedRoots.push(root);
    for (const target of gitPaths(root)) if (target) readOnly.add(target);
  }
  return { readOnly: [...readOnly], pinnedRoots, made };
}

/** How many launched commands hold each prompt folder this process made. */
const holders = new Map<string, number>();

/**
 * Makes `folder` when it is missing, or counts one more holder of a folder this process
 * made earlier; true when the caller must give it back with releaseMade.
 */
function makeHeld(folder: string): boolean {
  const held = holders.get(folder);
  if (held === undefined) {
    try {
      mkdirSync(folder);
    } catch {
      return false; // there already (the person's), a link, or a root that cannot be written
    }
    // Should toolhost end before the command does (killed, or a kept background command).
    madeMountPoint(folder);
  }
  holders.set(folder, (held ?? 0) + 1);
  return true;
}

/**
 * Gives back folders protectedPaths made, once the command that held them has ended:
 * each is removed when no other command of this process holds it, it is still empty, and
 * no sandbox anywhere still has it mounted (removing a mount point in another namespace
 * would unmount it there). Whatever cannot be checked stays, empty and harmless.
 */
export function releaseMade(
  made: readonly string[],
  mounted: (folder: string) => boolean = mountedNow(),
): void {
  for (const folder of made) {
    const left = (holders.get(folder) ?? 1) - 1;
    if (left > 0) {
      holders.set(folder, left);
      continue;
    }
    if (mounted(folder)) {
      holders.set(folder, 0); // still ours: tried again shortly, and when the next holder ends
      lookAgainSoon(folder);
      continue;
    }
    giveBack(folder);
  }
}

function giveBack(folder: string): void {
  holders.delete(folder);
  try {
    rmdirSync(folder);
  } catch {
    // the person put something there meanwhile, or it is gone: it stays theirs
  }
  gaveBackMountPoint(folder);
}

/**
 * A sandbox whose exit was just reported can keep its mounts a moment longer (its
 * namespace ends when its last process is reaped), so a folder still mounted is looked at
 * again every 50 ms for two seconds, unless a command holds it again meanwhile.
 */
function lookAgainSoon(folder: string, attempt = 0): void {
  if (attempt >= 40) return;
  setTimeout(() => {
    if (holders.get(folder) !== 0) return; // held again, or already given back
    if (mountedNow()(folder)) lookAgainSoon(folder, attempt + 1);
    else giveBack(folder);
  }, 50).unref();
}

/**
 * Whether a folder is a mount point in any process's mount table, the tables read once,
 * when first asked; every folder counts as one when they cannot be read.
 */
export function mountedNow(proc = '/proc'): (folder: string) => boolean {
  let points: Set<string> | null | undefined;
  return (folder) => {
    if (points === undefined) points = mountPoints(proc);
    return points === null || points.has(folder);
  };
}

/** The mount points of every process this one can see; null when `proc` cannot be read. */
function mountPoints(proc: string): Set<string> | null {
  let pids: string[];
  try {
    pids = readdirSync(proc).filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const points = new Set<string>();
  for (const pid of pids) {
    for (const line of readText(path.join(proc, pid, 'mountinfo')).split('\n')) {
      const point = line.split(' ')[4];
      if (point !== undefined) points.add(unescapeMountPath(point));
    }
  }
  return points;
}

/** The kernel writes space, tab, newline and backslash in mount paths as octal escapes. */
function unescapeMountPath(text: string): string {
  return text.replace(/\\([0-7]{3})/g, (_, octal: string) =>
    String.fromCharCode(Number.parseInt(octal, 8)),
  );
}

/**
 * The real paths of a root's git data: its `.git` (a folder, or a worktree's or a
 * submodule's `.git` file), the git folder a `.git` file names and that folder's common
 * folder, their submodules' git folders, hooks and config where they link elsewhere, and
 * the `.git` of each submodule checked out in the root (null where there is none).
 */
function gitPaths(root: string): (string | null)[] {
  const dotGit = realPathOf(path.join(root, '.git'));
  const found = [dotGit];
  const gitDir = dotGit && (realDirectory(dotGit) ?? namedGitDir(dotGit));
  if (gitDir) {
    const common = realDirectory(path.resolve(gitDir, readText(path.join(gitDir, 'commondir'))));
    for (const repo of new Set([gitDir, common ?? gitDir])) {
      for (const dir of [repo, ...submoduleGitDirs(repo)]) {
        found.push(dir);
        for (const name of ['hooks', 'config']) {
          const target = realPathOf(path.join(dir, name));
          if (target && !isWithin(dir, target)) found.push(target);
        }
      }
    }
  }
  for (const match of readText(path.join(root, '.gitmodules')).matchAll(SUBMODULE_PATH)) {
    found.push(realPathOf(path.join(root, match[1]!, '.git')));
  }
  return found;
}

/** A `path = <folder>` line of `.gitmodules`. */
const SUBMODULE_PATH = /^\s*path\s*=\s*(.+?)\s*$/gm;

/** The git folder a `.git` file names (`gitdir: <path>`, relative to the file's folder). */
function namedGitDir(file: string): string | null {
  // git takes exactly this form; the text is trimmed, so `.+` ends with the line.
  const named = /^gitdir: (.+)$/m.exec(readText(file))?.[1];
  return named ? realDirectory(path.resolve(path.dirname(file), named)) : null;
}

/** A file's text, trimmed; empty when it cannot be read. */
function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

function realPathOf(target: string): string | null {
  try {
    return realpathSync.native(target);
  } catch {
    return null;
  }
}

function isLink(target: string): boolean {
  try {
    return lstatSync(target).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * The git folders of a repository's submodules, by real path: the folders under its
 * `modules/` (git-submodule-folders.ts) with a HEAD, hooks or config (hooks and config
 * cannot be removed once they are mount points). More folders than one search may look
 * at is an error, so that no command runs with some of them left writable.
 */
function submoduleGitDirs(gitDir: string): string[] {
  const folders = submoduleFolders(path.join(gitDir, 'modules'));
  if (!folders) {
    throw new Error(
      `${gitDir} has more than ${MAX_SUBMODULE_FOLDERS} folders under modules/ to keep read-only`,
    );
  }
  const found = new Set<string>();
  for (const folder of folders) {
    const dir = realDirectory(folder);
    if (dir && ['HEAD', 'hooks', 'config'].some((marker) => existsSync(path.join(dir, marker))))
      found.add(dir);
  }
  return [...found];
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
