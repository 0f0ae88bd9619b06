/**
 * Loads a file the way the model sees it: a window of text lines (long lines cut), or a
 * media part, or the reason it cannot be shown. read_file and read_many_files both use it,
 * so both apply the same limits.
 */
import { closeSync, fstatSync, readSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Part } from '../contract/content.js';
import { ToolErrorType } from '../contract/tool-error.js';
import { closestNames } from './closest-names.js';
import {
  ConfinementError,
  type FolderHandles,
  openFileConfined,
  type PathGuard,
} from './confined-fs.js';
import {
  decodeText,
  detectFileType,
  type EncodingPreference,
  type FileKind,
  formatBytes,
  MAX_FILE_SIZE_BYTES,
} from './file-content.js';

export const DEFAULT_LINE_LIMIT = 2000;
export const MAX_LINE_LENGTH = 2000;

export interface TextWindow {
  kind: 'text';
  bytes: Buffer;
  /** The lines shown, joined with \n. */
  body: string;
  totalLines: number;
  /** 0-based first line shown and the line after the last one. */
  start: number;
  end: number;
  cutLines: number;
  encoding: string;
}

export type LoadedFile =
  | TextWindow
  | { kind: 'media'; part: Part; mimeType: string; fileKind: FileKind; size: number }
  | { kind: 'error'; type: ToolErrorType; message: string };

/**
 * `guard`: judges the real path of what was opened (or FolderHandles, which does so with
 * one check per folder); without it `realPath` must be a path the policy resolved, opened
 * exactly (see confined-fs.ts).
 */
export async function loadFileForModel(
  realPath: string,
  shownPath: string,
  window: { offset?: number; limit?: number } = {},
  preferredEncodings?: EncodingPreference,
  guard?: PathGuard | FolderHandles,
): Promise<LoadedFile> {
  const fail = (type: ToolErrorType, message: string): LoadedFile => ({
    kind: 'error',
    type,
    message,
  });
  // Synchronous calls: for the small files tools read by the thousand, a thread-pool round
  // trip per system call costs several times the work itself.
  let fd: number;
  try {
    fd =
      guard === undefined || typeof guard === 'function'
        ? openFileConfined(realPath, guard)
        : guard.openFile(realPath);
  } catch (error) {
    if (error instanceof ConfinementError)
      return fail(ToolErrorType.PATH_NOT_IN_WORKSPACE, error.message);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      const suggestions = await similarFiles(realPath);
      const hint =
        suggestions.length > 0
          ? ` Similar files in that folder: ${suggestions.map((name) => path.join(path.dirname(shownPath), name)).join(', ')}.`
          : ' Use glob or list_directory to find the right path.';
      return fail(ToolErrorType.FILE_NOT_FOUND, `File ${shownPath} does not exist.${hint}`);
    }
    if (code === 'EISDIR') return isFolder(shownPath);
    return readFailure(shownPath, error as NodeJS.ErrnoException);
  }
  let bytes: Buffer;
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) return isFolder(shownPath);
    if (stats.size > MAX_FILE_SIZE_BYTES) {
      return fail(
        ToolErrorType.FILE_TOO_LARGE,
        `${shownPath} is ${formatBytes(stats.size)}, over the ${formatBytes(MAX_FILE_SIZE_BYTES)} limit for reading files. Search it with grep_search, or read parts of it with run_shell_command (head, tail, sed -n).`,
      );
    }
    bytes = Buffer.allocUnsafe(stats.size);
    let filled = 0;
    while (filled < bytes.length) {
      const count = readSync(fd, bytes, filled, bytes.length - filled, filled);
      if (count === 0) break;
      filled += count;
    }
    bytes = bytes.subarray(0, filled);
  } catch (error) {
    return readFailure(shownPath, error as NodeJS.ErrnoException);
  } finally {
    closeSync(fd);
  }
  const size = bytes.length;

  const type = detectFileType(realPath, bytes.subarray(0, 8192));
  if (type.kind === 'binary') {
    return fail(
      ToolErrorType.BINARY_FILE,
      `${shownPath} is a binary file (${formatBytes(size)}) and cannot be shown as text.`,
    );
  }
  if (type.kind !== 'text') {
    return {
      kind: 'media',
      part: {
        inlineData: {
          mimeType: type.mimeType!,
          data: bytes.toString('base64'),
          displayName: path.basename(realPath),
        },
      },
      mimeType: type.mimeType!,
      fileKind: type.kind,
      size,
    };
  }

  const { text, encoding } = decodeText(bytes, preferredEncodings);
  const start = Math.floor(window.offset ?? 0);
  const limit = Math.floor(window.limit ?? DEFAULT_LINE_LIMIT);
  const whole = start === 0 ? wholeText(text, limit) : undefined;
  if (whole) return { kind: 'text', bytes, ...whole, start: 0, end: whole.totalLines, encoding };
  const lines = splitLines(text);
  if (lines.length > 0 && start >= lines.length) {
    return fail(
      ToolErrorType.INVALID_TOOL_PARAMS,
      `offset ${start} is past the end of ${shownPath}, which has ${lines.length} line${lines.length === 1 ? '' : 's'}; use an offset from 0 to ${lines.length - 1}.`,
    );
  }
  const end = Math.min(lines.length, start + limit);
  let cutLines = 0;
  const body = lines
    .slice(start, end)
    .map((line) => {
      if (line.length <= MAX_LINE_LENGTH) return line;
      cutLines++;
      return `${line.slice(0, MAX_LINE_LENGTH)}… [line cut: ${line.length} characters in all]`;
    })
    .join('\n');
  // The file's final line ending stays: edit's old_string built from this text must match.
  const finalNewline = end === lines.length && text.endsWith('\n') ? '\n' : '';
  return {
    kind: 'text',
    bytes,
    body: body + finalNewline,
    totalLines: lines.length,
    start,
    end,
    cutLines,
    encoding,
  };
}

/**
 * The body of a file shown whole, without splitting it into lines: when it has at most
 * `limit` lines, none too long and no carriage returns, the text itself is the body.
 */
function wholeText(
  text: string,
  limit: number,
): { body: string; totalLines: number; cutLines: 0 } | undefined {
  if (text.includes('\r')) return undefined;
  let lines = 0;
  let from = 0;
  while (from < text.length) {
    const newline = text.indexOf('\n', from);
    const end = newline === -1 ? text.length : newline;
    if (end - from > MAX_LINE_LENGTH || ++lines > limit) return undefined;
    from = end + 1;
  }
  // The final newline stays, as in the window below.
  return { body: text, totalLines: lines, cutLines: 0 };
}

/** Notes for the model about what part of a text file it is seeing. */
export function windowNotes(window: TextWindow, shownPath: string): string[] {
  const notes: string[] = [];
  const isWhole = window.start === 0 && window.end === window.totalLines;
  if (!isWhole) {
    notes.push(
      `Showing lines ${window.start + 1}-${window.end} of ${window.totalLines} in ${shownPath}.`,
    );
    if (window.end < window.totalLines)
      notes.push(`To read on, call read_file again with offset ${window.end}.`);
  }
  if (window.cutLines > 0) {
    notes.push(
      `${window.cutLines} line${window.cutLines === 1 ? ' was' : 's were'} longer than ${MAX_LINE_LENGTH} characters and cut; use grep_search or run_shell_command to see them whole.`,
    );
  }
  if (window.encoding !== 'utf-8')
    notes.push(`The file is encoded as ${window.encoding}; it was decoded to text.`);
  return notes;
}

/** Splits text into lines; a final line ending does not make an extra empty line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.includes('\r') ? text.split(/\r?\n/) : text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function isFolder(shownPath: string): LoadedFile {
  return {
    kind: 'error',
    type: ToolErrorType.TARGET_IS_DIRECTORY,
    message: `${shownPath} is a folder, not a file. Use list_directory to see what it contains.`,
  };
}

function readFailure(shownPath: string, error: NodeJS.ErrnoException): LoadedFile {
  if (error.code === 'EACCES' || error.code === 'EPERM') {
    return {
      kind: 'error',
      type: ToolErrorType.PERMISSION_DENIED,
      message: `Permission denied when reading ${shownPath}.`,
    };
  }
  return {
    kind: 'error',
    type: ToolErrorType.READ_CONTENT_FAILURE,
    message: `Could not read ${shownPath}: ${error.message}`,
  };
}

async function similarFiles(missingPath: string): Promise<string[]> {
  try {
    return closestNames(path.basename(missingPath), await readdir(path.dirname(missingPath)), 3);
  } catch {
    return [];
  }
}
