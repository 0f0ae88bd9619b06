/**
 * Writes a file so that a crash or kill at any moment leaves either the old content or
 * the new, never a mix: the bytes go to a temporary file in the same folder, are flushed
 * to disk, and the temporary file is renamed over the target. The folder is held open
 * while this happens and checked right before the rename (see confined-fs.ts), so a folder
 * swapped for a symbolic link cannot send the write elsewhere. Temporary files of writers
 * that were killed are removed on the next write in their folder.
 */
import { closeSync, constants } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { ToolErrorType } from '../contract/tool-error.js';
import {
  assertFolderStill,
  ConfinementError,
  openFolderConfined,
  sweepStaleTempFiles,
  tempFileName,
  throughFolder,
} from './confined-fs.js';

export class FileWriteError extends Error {
  constructor(
    readonly type: ToolErrorType,
    message: string,
  ) {
    super(message);
  }
}

/** The prefix of toolhost's temporary files, so they are easy to recognise and clean. */
export const TEMP_FILE_MARKER = '.toolhost-write-';

/**
 * With `confined`, `targetPath` is a real path the path policy resolved, and the write
 * fails rather than land anywhere else (a folder swapped for a link meanwhile).
 */
export async function writeFileAtomic(
  targetPath: string,
  bytes: Buffer,
  options: {
    mode?: number;
    createParents?: boolean;
    confined?: boolean;
    /** The mode of the folders it creates (default 0o777 less umask). */
    folderMode?: number;
  } = {},
): Promise<void> {
  const dir = path.dirname(targetPath);
  const name = path.basename(targetPath);
  let folder: number;
  try {
    folder = openFolderConfined(
      dir,
      options.createParents ?? false,
      options.confined ?? false,
      options.folderMode,
    );
  } catch (error) {
    throw toWriteError(error, targetPath);
  }
  const base = throughFolder(folder, dir);
  const temp = path.join(base, tempFileName(TEMP_FILE_MARKER, name));
  try {
    sweepStaleTempFiles(base, TEMP_FILE_MARKER);
    const handle = await open(
      temp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      options.mode ?? 0o644,
    );
    try {
      await handle.writeFile(bytes);
      // The umask may have narrowed the mode given to open(); restore the file's own.
      if (options.mode !== undefined) await handle.chmod(options.mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (options.confined) assertFolderStill(folder, dir);
    await rename(temp, path.join(base, name));
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw toWriteError(error, targetPath);
  } finally {
    closeSync(folder);
  }
}

export function toWriteError(error: unknown, targetPath: string): FileWriteError {
  if (error instanceof FileWriteError) return error;
  if (error instanceof ConfinementError)
    return new FileWriteError(ToolErrorType.PATH_NOT_IN_WORKSPACE, error.message);
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return new FileWriteError(
        ToolErrorType.PERMISSION_DENIED,
        `Permission denied when writing ${targetPath}${code === 'EROFS' ? ' (read-only file system)' : ''}. Ask the person to check the permissions of the file and its folder.`,
      );
    case 'ENOSPC':
    case 'EDQUOT':
      return new FileWriteError(
        ToolErrorType.NO_SPACE_LEFT,
        `No space left on the device to write ${targetPath}; the file was left as it was. Ask the person to free some disk space.`,
      );
    case 'EISDIR':
      return new FileWriteError(
        ToolErrorType.TARGET_IS_DIRECTORY,
        `${targetPath} is a folder, not a file.`,
      );
    case 'ENOTDIR':
      return new FileWriteError(
        ToolErrorType.FILE_WRITE_FAILURE,
        `Cannot write ${targetPath}: a part of its folder path is a file, not a folder.`,
      );
    default:
      return new FileWriteError(
        ToolErrorType.FILE_WRITE_FAILURE,
        `Could not write ${targetPath}: ${(error as Error).message ?? String(error)}`,
      );
  }
}
