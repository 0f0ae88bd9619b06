/**
 * Writes a file so that a crash or kill at any moment leaves either the old content or
 * the new, never a mix: the bytes go to a temporary file in the same folder, are flushed
 * to disk, and the temporary file is renamed over the target.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { ToolErrorType } from '../tools/tool-error.js';

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

export async function writeFileAtomic(
  targetPath: string,
  bytes: Buffer,
  options: { mode?: number; createParents?: boolean } = {},
): Promise<void> {
  const dir = path.dirname(targetPath);
  try {
    if (options.createParents) await mkdir(dir, { recursive: true });
  } catch (error) {
    throw toWriteError(error, targetPath);
  }
  const temp = path.join(
    dir,
    `${TEMP_FILE_MARKER}${path.basename(targetPath)}.${randomBytes(6).toString('hex')}`,
  );
  try {
    const handle = await open(temp, 'wx', options.mode ?? 0o644);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // The umask may have narrowed the mode given to open(); restore the file's own.
    if (options.mode !== undefined) await chmod(temp, options.mode);
    await rename(temp, targetPath);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw toWriteError(error, targetPath);
  }
}

export function toWriteError(error: unknown, targetPath: string): FileWriteError {
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
