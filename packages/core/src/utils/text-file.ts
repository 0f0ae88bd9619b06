/**
 * Reading a text file for changing it, and writing the change back the way the file was:
 * same encoding, BOM, line endings and mode. Used by write_file, edit and save_memory.
 */
import { closeSync, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { ToolErrorType } from '../contract/tool-error.js';
import { writeFileAtomic } from './atomic-write.js';
import { ConfinementError, openFileConfined } from './confined-fs.js';
import {
  type DecodedText,
  decodeText,
  encodeText,
  isBinary,
  MAX_FILE_SIZE_BYTES,
} from './file-content.js';

export interface TextFileFormat {
  encoding: string;
  bom: boolean;
  lineEnding: '\n' | '\r\n';
}

export type ExistingTextFile =
  | { exists: false }
  | { exists: true; bytes: Buffer; text: string; format: TextFileFormat; mode: number };

export class TextFileError extends Error {
  constructor(
    readonly type: ToolErrorType,
    message: string,
  ) {
    super(message);
  }
}

/** Reads a file that is about to be changed; `exists: false` when there is none yet. */
export async function readTextForChange(
  realPath: string,
  shownPath: string,
  preferredEncodings?: readonly string[],
): Promise<ExistingTextFile> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(realPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { exists: false };
    if (code === 'ENOTDIR') {
      throw new TextFileError(
        ToolErrorType.FILE_WRITE_FAILURE,
        `A part of the folder path of ${shownPath} is a file, not a folder.`,
      );
    }
    throw new TextFileError(
      ToolErrorType.READ_CONTENT_FAILURE,
      `Could not read ${shownPath}: ${(error as Error).message}`,
    );
  }
  if (info.isDirectory()) {
    throw new TextFileError(
      ToolErrorType.TARGET_IS_DIRECTORY,
      `${shownPath} is a folder, not a file.`,
    );
  }
  if (info.size > MAX_FILE_SIZE_BYTES) {
    throw new TextFileError(
      ToolErrorType.FILE_TOO_LARGE,
      `${shownPath} is over 20 MB; it cannot be changed with this tool.`,
    );
  }
  let bytes: Buffer;
  try {
    bytes = readConfined(realPath);
  } catch (error) {
    if (error instanceof ConfinementError)
      throw new TextFileError(ToolErrorType.PATH_NOT_IN_WORKSPACE, error.message);
    const code = (error as NodeJS.ErrnoException).code;
    const type =
      code === 'EACCES' || code === 'EPERM'
        ? ToolErrorType.PERMISSION_DENIED
        : ToolErrorType.READ_CONTENT_FAILURE;
    throw new TextFileError(type, `Could not read ${shownPath}: ${(error as Error).message}`);
  }
  if (isBinary(bytes.subarray(0, 8192))) {
    throw new TextFileError(
      ToolErrorType.BINARY_FILE,
      `${shownPath} is a binary file; it cannot be changed as text.`,
    );
  }
  const decoded: DecodedText = decodeText(bytes, preferredEncodings);
  return {
    exists: true,
    bytes,
    text: decoded.text,
    format: { encoding: decoded.encoding, bom: decoded.bom, lineEnding: decoded.lineEnding },
    mode: info.mode & 0o7777,
  };
}

/** The whole file, read through a handle checked to be exactly `realPath`. */
function readConfined(realPath: string): Buffer {
  const fd = openFileConfined(realPath);
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Turns the model's text (any line endings) into the file's line endings. */
export function toFileLineEndings(text: string, lineEnding: '\n' | '\r\n'): string {
  const lf = text.replace(/\r\n/g, '\n');
  return lineEnding === '\r\n' ? lf.replace(/\n/g, '\r\n') : lf;
}

/** Format of a new file: UTF-8, LF, with a BOM only when settings ask for one. */
export function newFileFormat(defaultEncoding: 'utf-8' | 'utf-8-bom' | undefined): TextFileFormat {
  return { encoding: 'utf-8', bom: defaultEncoding === 'utf-8-bom', lineEnding: '\n' };
}

/**
 * Encodes `text` (already in the line endings wanted) in the file's encoding and BOM, and
 * writes it atomically; returns the bytes written.
 */
export async function writeTextFile(
  realPath: string,
  text: string,
  format: Pick<TextFileFormat, 'encoding' | 'bom'>,
  mode?: number,
): Promise<Buffer> {
  const bytes = encodeText(text, format);
  await writeFileAtomic(realPath, bytes, { mode, createParents: true, confined: true });
  return bytes;
}
