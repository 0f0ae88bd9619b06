/**
 * read_file: one file's text (a window of lines), or an image, PDF or audio file as data
 * the model can see.
 */
import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/config.js';
import type { Part } from '../core/content.js';
import { closestNames } from '../utils/closest-names.js';
import {
  decodeText,
  detectFileType,
  formatBytes,
  MAX_FILE_SIZE_BYTES,
} from '../utils/file-content.js';
import { requireAbsolute, resolveToolPath } from './path-checks.js';
import {
  BaseTool,
  errorResult,
  Kind,
  ToolErrorType,
  type ToolLocation,
  type ToolResult,
} from './tools.js';

export interface ReadFileToolParams {
  absolute_path: string;
  offset?: number;
  limit?: number;
}

export const DEFAULT_LINE_LIMIT = 2000;
export const MAX_LINE_LENGTH = 2000;

const DESCRIPTION = `Reads one file from the workspace.
Text files: returns up to ${DEFAULT_LINE_LIMIT} lines starting at offset (0-based line number); a header gives the lines shown and the total, so you can page with offset and limit. Lines longer than ${MAX_LINE_LENGTH} characters are cut. The text comes back exactly as in the file (no line numbers), so it can be used for edit's old_string.
Images (PNG, JPEG, GIF, WebP, BMP), PDF and audio files are returned as data you can see or hear. Other binary files are refused. Files over 20 MB are refused.`;

export class ReadFileTool extends BaseTool<ReadFileToolParams> {
  static readonly Name = 'read_file';

  constructor(private readonly config: Config) {
    super(
      ReadFileTool.Name,
      'ReadFile',
      DESCRIPTION,
      Kind.Read,
      {
        type: 'object',
        properties: {
          absolute_path: { type: 'string', description: 'Absolute path of the file to read.' },
          offset: {
            type: 'number',
            minimum: 0,
            description: 'First line to return, counting from 0. Use with limit for large files.',
          },
          limit: {
            type: 'number',
            minimum: 1,
            description: `How many lines to return (default ${DEFAULT_LINE_LIMIT}).`,
          },
        },
        required: ['absolute_path'],
      },
      { parameterAliases: { file_path: 'absolute_path' } },
    );
  }

  protected override validateSemantics(params: ReadFileToolParams): string | null {
    return requireAbsolute('absolute_path', params.absolute_path, this.config);
  }

  override getDescription(params: ReadFileToolParams): string {
    const where = this.config.workspace.relative(params.absolute_path);
    if (params.offset === undefined && params.limit === undefined) return `Read ${where}`;
    const first = (params.offset ?? 0) + 1;
    return `Read ${where} from line ${first}${params.limit ? `, ${params.limit} lines` : ''}`;
  }

  override toolLocations(params: ReadFileToolParams): ToolLocation[] {
    return [{ path: params.absolute_path, line: params.offset }];
  }

  async execute(params: ReadFileToolParams, _signal?: AbortSignal): Promise<ToolResult> {
    const resolved = resolveToolPath(this.config, params.absolute_path, 'read');
    if (resolved.error) return resolved.error;
    const realPath = resolved.realPath;
    const shownPath = params.absolute_path;

    let size: number;
    try {
      const stats = await stat(realPath);
      if (stats.isDirectory()) {
        return errorResult(
          ToolErrorType.TARGET_IS_DIRECTORY,
          `${shownPath} is a folder, not a file. Use list_directory to see what it contains.`,
        );
      }
      size = stats.size;
    } catch (error) {
      return this.statError(shownPath, realPath, error as NodeJS.ErrnoException);
    }
    if (size > MAX_FILE_SIZE_BYTES) {
      return errorResult(
        ToolErrorType.FILE_TOO_LARGE,
        `${shownPath} is ${formatBytes(size)}, over the ${formatBytes(MAX_FILE_SIZE_BYTES)} limit of read_file. Search it with grep_search, or read parts of it with run_shell_command (head, tail, sed -n).`,
      );
    }

    let bytes: Buffer;
    try {
      bytes = await readWhole(realPath);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM') {
        return errorResult(
          ToolErrorType.PERMISSION_DENIED,
          `Permission denied when reading ${shownPath}.`,
        );
      }
      return errorResult(
        ToolErrorType.READ_CONTENT_FAILURE,
        `Could not read ${shownPath}: ${(error as Error).message}`,
      );
    }

    const type = detectFileType(realPath, bytes.subarray(0, 8192));
    if (type.kind === 'binary') {
      return errorResult(
        ToolErrorType.BINARY_FILE,
        `${shownPath} is a binary file (${formatBytes(size)}) and cannot be shown as text.`,
      );
    }
    if (type.kind !== 'text') {
      const part: Part = {
        inlineData: { mimeType: type.mimeType!, data: bytes.toString('base64') },
      };
      const what = `${type.kind === 'pdf' ? 'PDF' : type.kind} file ${shownPath} (${type.mimeType}, ${formatBytes(size)})`;
      return {
        llmContent: [{ text: `Contents of the ${what}:` }, part],
        returnDisplay: `Read ${what}`,
      };
    }

    this.config.fileReads.record(realPath, bytes);
    return this.textWindow(shownPath, bytes, params);
  }

  private textWindow(shownPath: string, bytes: Buffer, params: ReadFileToolParams): ToolResult {
    const { text, encoding } = decodeText(bytes);
    const lines = splitLines(text);
    const total = lines.length;
    const offset = Math.floor(params.offset ?? 0);
    const limit = Math.floor(params.limit ?? DEFAULT_LINE_LIMIT);
    if (total === 0) {
      return { llmContent: `${shownPath} is empty.`, returnDisplay: `${shownPath} is empty` };
    }
    if (offset >= total) {
      return errorResult(
        ToolErrorType.INVALID_TOOL_PARAMS,
        `offset ${offset} is past the end of ${shownPath}, which has ${total} line${total === 1 ? '' : 's'}; use an offset from 0 to ${total - 1}.`,
      );
    }
    const end = Math.min(total, offset + limit);
    let cutLines = 0;
    const shown = lines.slice(offset, end).map((line) => {
      if (line.length <= MAX_LINE_LENGTH) return line;
      cutLines++;
      return `${line.slice(0, MAX_LINE_LENGTH)}… [line cut: ${line.length} characters in all]`;
    });
    const body = shown.join('\n');
    const isWhole = offset === 0 && end === total;
    const notes: string[] = [];
    if (!isWhole) {
      notes.push(`Showing lines ${offset + 1}-${end} of ${total} in ${shownPath}.`);
      if (end < total) notes.push(`To read on, call read_file again with offset ${end}.`);
    }
    if (cutLines > 0) {
      notes.push(
        `${cutLines} line${cutLines === 1 ? ' was' : 's were'} longer than ${MAX_LINE_LENGTH} characters and cut; use grep_search or run_shell_command to see them whole.`,
      );
    }
    if (encoding !== 'utf-8')
      notes.push(`The file is encoded as ${encoding}; it was decoded to text.`);
    const llmContent = notes.length > 0 ? `[${notes.join(' ')}]\n${body}` : body;
    const range = isWhole
      ? `${total} line${total === 1 ? '' : 's'}`
      : `lines ${offset + 1}-${end} of ${total}`;
    return {
      llmContent,
      returnDisplay: `Read ${range} of ${this.config.workspace.relative(shownPath)}`,
    };
  }

  private async statError(
    shownPath: string,
    realPath: string,
    error: NodeJS.ErrnoException,
  ): Promise<ToolResult> {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') {
      const suggestions = await similarFiles(realPath);
      const hint =
        suggestions.length > 0
          ? ` Similar files in that folder: ${suggestions.map((name) => path.join(path.dirname(shownPath), name)).join(', ')}.`
          : ' Use glob or list_directory to find the right path.';
      return errorResult(ToolErrorType.FILE_NOT_FOUND, `File ${shownPath} does not exist.${hint}`);
    }
    if (error.code === 'EACCES' || error.code === 'EPERM') {
      return errorResult(
        ToolErrorType.PERMISSION_DENIED,
        `Permission denied when reading ${shownPath}.`,
      );
    }
    return errorResult(
      ToolErrorType.READ_CONTENT_FAILURE,
      `Could not read ${shownPath}: ${error.message}`,
    );
  }
}

/** Splits text into lines; a final line ending does not make an extra empty line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

async function similarFiles(missingPath: string): Promise<string[]> {
  try {
    const names = await readdir(path.dirname(missingPath));
    return closestNames(path.basename(missingPath), names, 3);
  } catch {
    return [];
  }
}

async function readWhole(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
