/**
 * toolhost's own files (saved tool outputs, background logs, session and checkpoint records)
 * live below folders that commands may write (the sandbox binds the project's temporary
 * folder writable), so a command can plant a link where toolhost will write next. Every
 * such file is written here: below its trusted base folder nothing is followed (a linked
 * folder or file makes the write fail), a whole file goes to a fresh temporary name and is
 * renamed over the target (replacing a link, never writing through it), and a file opened
 * to append is opened without following a final link and checked after opening.
 */
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { isWithin } from '../workspace/workspace-context.js';
import { TEMP_FILE_MARKER, writeFileAtomic } from './atomic-write.js';
import {
  assertFolderStill,
  ConfinementError,
  openFolderConfined,
  tempFileName,
  throughFolder,
} from './confined-fs.js';

/**
 * The real path `file` would have with only `base`'s own links resolved (base, the folder
 * no command may replace, is created when missing): the folders below it are taken as
 * written, and opening them refuses any link.
 */
function realBelow(base: string, file: string): string {
  if (!isWithin(base, file) || path.resolve(file) === path.resolve(base))
    throw new ConfinementError(`${file} is not inside toolhost's folder ${base}.`);
  mkdirSync(base, { recursive: true, mode: 0o700 });
  // The folders above base are the person's (a linked home is theirs); base itself is not
  // taken through a link.
  if (lstatSync(base).isSymbolicLink())
    throw new ConfinementError(`${base} is a symbolic link; toolhost does not write through it.`);
  return path.join(realpathSync.native(base), path.relative(base, file));
}

/**
 * Writes `bytes` to `file` below `base` whole (old content or new, never a mix), creating
 * missing folders, without following any link below `base`.
 */
export async function writeOwnFile(
  base: string,
  file: string,
  bytes: Buffer | string,
  mode = 0o600,
): Promise<void> {
  const target = realBelow(base, file);
  const data = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  await writeFileAtomic(target, data, {
    mode,
    createParents: true,
    confined: true,
    folderMode: 0o700,
  });
}

/** writeOwnFile for callers that cannot wait: the same steps, synchronously. */
export function writeOwnFileSync(
  base: string,
  file: string,
  bytes: Buffer | string,
  mode = 0o600,
): void {
  const target = realBelow(base, file);
  const dir = path.dirname(target);
  const folder = openFolderConfined(dir, true, true, 0o700);
  const through = throughFolder(folder, dir);
  const temp = path.join(through, tempFileName(TEMP_FILE_MARKER, path.basename(target)));
  try {
    const fd = openSync(
      temp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      mode,
    );
    try {
      writeSync(fd, typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    assertFolderStill(folder, dir);
    renameSync(temp, path.join(through, path.basename(target)));
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // never created, or already renamed
    }
    throw error;
  } finally {
    closeSync(folder);
  }
}

/**
 * Opens `file` below `base` for appending, creating it and its folders, without following
 * any link below `base`; the file must be a regular file with no other name (a hard link
 * would write into another file). Returns the descriptor; the caller closes it.
 */
export function openOwnFileToAppend(base: string, file: string, mode = 0o600): number {
  const target = realBelow(base, file);
  const folder = openFolderConfined(path.dirname(target), true, true, 0o700);
  try {
    const fd = openSync(
      path.join(throughFolder(folder, path.dirname(target)), path.basename(target)),
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
      mode,
    );
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.nlink !== 1) {
      closeSync(fd);
      throw new ConfinementError(
        `${file} is not a plain file of toolhost's own (it has another name or is no file); nothing was written to it.`,
      );
    }
    return fd;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP')
      throw new ConfinementError(`${file} is a symbolic link; toolhost does not write through it.`);
    throw error;
  } finally {
    closeSync(folder);
  }
}
