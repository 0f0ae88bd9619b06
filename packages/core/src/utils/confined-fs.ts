/**
 * File access that stays where the path policy said, even while someone swaps a folder for
 * a symbolic link between the check and the access. A file is opened without following a
 * final link, then the real path of what was actually opened (/proc/self/fd on Linux) is
 * checked; a write creates its temporary file and renames it through a handle on the
 * folder, whose real path is checked again right before the rename, so the rename lands in
 * the folder that was checked. Elsewhere (no /proc) the path is resolved again instead: a
 * narrower window, not none.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  type Dirent,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  unlinkSync,
} from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** Whether a real path (as the kernel reports it) may be used. */
export type PathGuard = (realPath: string) => boolean;

export class ConfinementError extends Error {}

const HAS_PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd');

/** The real path of an open file or folder; null where the system cannot tell. */
export function openedPath(fd: number): string | null {
  if (!HAS_PROC_FD) return null;
  try {
    return readlinkSync(`/proc/self/fd/${fd}`).replace(/ \(deleted\)$/, '');
  } catch {
    return null;
  }
}

/** A path through which names inside the open folder `fd` are reached, whatever happens to its path. */
export function throughFolder(fd: number, fallback: string): string {
  return HAS_PROC_FD ? `/proc/self/fd/${fd}` : fallback;
}

function where(fd: number, shownPath: string): string {
  const opened = openedPath(fd);
  if (opened !== null) return opened;
  try {
    return realpathSync.native(shownPath);
  } catch {
    return shownPath;
  }
}

function leftMessage(shownPath: string, actual: string): string {
  return `${shownPath} was changed while it was being opened: it now leads to ${actual}, outside the allowed folders (a folder was replaced, perhaps by a symbolic link). Nothing was read or written there; check the folder and try again.`;
}

/**
 * Opens a file for reading and checks where it really is: by default `realPath` (a path the
 * policy resolved) is opened without following a final link and must be exactly what was
 * opened; with a guard, a final link is followed and the guard judges what was opened.
 */
export function openFileConfined(realPath: string, guard?: PathGuard): number {
  const flags = guard ? constants.O_RDONLY : constants.O_RDONLY | constants.O_NOFOLLOW;
  let fd: number;
  try {
    fd = openSync(realPath, flags);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP' && !guard)
      throw new ConfinementError(
        `${realPath} became a symbolic link after it was checked; it was not opened. Check the file and try again.`,
      );
    throw error;
  }
  const actual = where(fd, realPath);
  if (guard ? !guard(actual) : actual !== realPath) {
    closeSync(fd);
    throw new ConfinementError(leftMessage(realPath, actual));
  }
  return fd;
}

/**
 * Folders up to this size (what the system reports for the folder itself: a few hundred
 * entries) are read synchronously. Under many callers a thread-pool trip for a folder of a
 * handful of entries cost list_directory more than the rest of its work together; a large
 * folder is still read off the event loop.
 */
const SYNC_FOLDER_BYTES = 16 * 1024;

/**
 * The entries of the folder `realDir` (a real path) as it is, never through a link: the
 * folder is opened without following a final link and must be where its path says (one
 * swapped for a link meanwhile gives a ConfinementError), and is read through that handle.
 */
export async function readFolderConfined(realDir: string): Promise<Dirent[]> {
  const fd = openSync(realDir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  try {
    const actual = openedPath(fd);
    if (actual !== null && actual !== realDir)
      throw new ConfinementError(leftMessage(realDir, actual));
    const through = throughFolder(fd, realDir);
    if (fstatSync(fd).size <= SYNC_FOLDER_BYTES)
      return readdirSync(through, { withFileTypes: true });
    return await readdir(through, { withFileTypes: true });
  } finally {
    closeSync(fd);
  }
}

/** Folders kept open by a FolderHandles at once; the oldest is closed past this. */
const MAX_OPEN_FOLDERS = 64;

/**
 * Opens many files with one real-path check per folder instead of one per file, for tools
 * that read files by the thousand. Each folder is opened once and its real path read from
 * /proc; a file is then opened through that handle without following a final link, so it
 * is the entry of the folder that was checked, whatever happens to the folder's path
 * meanwhile, and its real path is the folder's plus its name: the guard judges that. A
 * final link (ELOOP), or a system without /proc, takes openFileConfined's way.
 */
export class FolderHandles {
  private readonly folders = new Map<string, { fd: number; real: string } | null>();

  constructor(private readonly guard: PathGuard) {}

  openFile(file: string): number {
    const folder = HAS_PROC_FD ? this.folder(path.dirname(file)) : null;
    const name = path.basename(file);
    if (folder) {
      const real = path.join(folder.real, name);
      const through = `${throughFolder(folder.fd, folder.real)}/${name}`;
      try {
        if (this.guard(real)) return openSync(through, constants.O_RDONLY | constants.O_NOFOLLOW);
      } catch (error) {
        const failure = error as NodeJS.ErrnoException;
        if (failure.code !== 'ELOOP') {
          // The message names the file, not the handle it was reached through.
          failure.message = failure.message.replace(through, real);
          failure.path = real;
          throw failure;
        }
      }
    }
    return openFileConfined(file, this.guard);
  }

  /** Closes every folder still open. */
  close(): void {
    for (const folder of this.folders.values()) if (folder) closeSync(folder.fd);
    this.folders.clear();
  }

  private folder(dir: string): { fd: number; real: string } | null {
    const known = this.folders.get(dir);
    if (known !== undefined) return known;
    let opened: { fd: number; real: string } | null = null;
    try {
      const fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
      const real = openedPath(fd);
      if (real === null) closeSync(fd);
      else opened = { fd, real };
    } catch {
      // Missing or not a folder: each file's own open says what is wrong.
    }
    if (this.folders.size >= MAX_OPEN_FOLDERS) {
      const [oldest, handle] = this.folders.entries().next().value as [
        string,
        { fd: number } | null,
      ];
      if (handle) closeSync(handle.fd);
      this.folders.delete(oldest);
    }
    this.folders.set(dir, opened);
    return opened;
  }
}

/**
 * Opens the folder `realDir` (a real path), creating missing folders when asked, each one
 * created and opened inside the one before without following links. The result is a
 * handle on exactly `realDir`, or a ConfinementError.
 */
export function openFolderConfined(
  realDir: string,
  create: boolean,
  exact = true,
  /** The mode of folders it creates (toolhost's own are private); default 0o777 less umask. */
  folderMode?: number,
): number {
  const missing: string[] = [];
  let existing = realDir;
  while (create && !existsSync(existing)) {
    missing.unshift(path.basename(existing));
    const parent = path.dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  let fd = openSync(existing, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    const actual = where(fd, existing);
    if (exact && actual !== existing) throw new ConfinementError(leftMessage(existing, actual));
    for (const name of missing) {
      const next = path.join(throughFolder(fd, existing), name);
      try {
        mkdirSync(next, folderMode === undefined ? undefined : { mode: folderMode });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      let child: number;
      try {
        child = openSync(
          next,
          constants.O_RDONLY | constants.O_DIRECTORY | (exact ? constants.O_NOFOLLOW : 0),
        );
      } catch (error) {
        // A link where a folder was made: Linux answers ENOTDIR for O_DIRECTORY | O_NOFOLLOW,
        // other systems ELOOP.
        const code = (error as NodeJS.ErrnoException).code;
        if (exact && (code === 'ENOTDIR' || code === 'ELOOP'))
          throw new ConfinementError(
            `${realDir} was changed while it was being created: a folder became a symbolic link. Nothing was written; check the folder and try again.`,
          );
        throw error;
      }
      closeSync(fd);
      fd = child;
      existing = path.join(existing, name);
    }
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** Checks that the open folder is still where it was opened, right before a change lands. */
export function assertFolderStill(fd: number, realDir: string): void {
  const actual = openedPath(fd);
  if (actual !== null && actual !== realDir)
    throw new ConfinementError(leftMessage(realDir, actual));
}

/** The name of a temporary file for `target`, carrying the writer's PID so it can be swept. */
export function tempFileName(marker: string, target: string): string {
  return `${marker}${target}.${process.pid}-${randomBytes(6).toString('hex')}`;
}

/**
 * Removes temporary files that writers left behind when they were killed: those whose PID
 * is no longer running. A live writer's file (its PID running) is never touched.
 */
export function sweepStaleTempFiles(folder: string, marker: string): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return removed;
  }
  const pattern = /\.(\d+)-[0-9a-f]{12}$/;
  for (const name of names) {
    if (!name.startsWith(marker)) continue;
    const pid = Number(pattern.exec(name)?.[1]);
    if (!pid || pid === process.pid || isRunning(pid)) continue;
    try {
      unlinkSync(path.join(folder, name));
      removed.push(name);
    } catch {
      // another writer swept it first
    }
  }
  return removed;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
