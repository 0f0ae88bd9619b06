/**
 * read_file: one file's text (a window of lines), or an image, PDF or audio file as data
 * the model can see.
 */
import type { Config } from '../config/config.js';
import {
  DEFAULT_LINE_LIMIT,
  loadFileForModel,
  MAX_LINE_LENGTH,
  windowNotes,
} from '../utils/file-loader.js';
import { plural } from '../utils/plural.js';
import { requireAbsolute, resolveToolPath } from './path-checks.js';
import { BaseTool, errorResult, Kind, type ToolLocation, type ToolResult } from './tools.js';

export interface ReadFileToolParams {
  absolute_path: string;
  offset?: number;
  limit?: number;
}

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
    return `Read ${where} from line ${first}${params.limit ? `, ${plural(params.limit, 'line')}` : ''}`;
  }

  override toolLocations(params: ReadFileToolParams): ToolLocation[] {
    return [{ path: params.absolute_path, line: params.offset }];
  }

  async execute(params: ReadFileToolParams, _signal?: AbortSignal): Promise<ToolResult> {
    const resolved = resolveToolPath(this.config, params.absolute_path, 'read');
    if (resolved.error) return resolved.error;
    const shownPath = params.absolute_path;
    const loaded = await loadFileForModel(
      resolved.realPath,
      shownPath,
      params,
      () => this.config.legacyEncodings,
    );
    if (loaded.kind === 'error') return errorResult(loaded.type, loaded.message);
    if (loaded.kind === 'media') {
      // The media facts load with the first image, PDF or audio file, not with the tool.
      const { describeMedia } = await import('../utils/image-size.js');
      const facts = describeMedia(loaded.mimeType, loaded.size, loaded.part.inlineData?.data);
      const what = `${loaded.fileKind === 'pdf' ? 'PDF' : loaded.fileKind} file ${shownPath} (${facts})`;
      return {
        llmContent: [{ text: `Contents of the ${what}:` }, loaded.part],
        returnDisplay: `Read ${what}; attached for the model`,
      };
    }

    this.config.fileReads.record(resolved.realPath, loaded.bytes);
    if (loaded.totalLines === 0) {
      return { llmContent: `${shownPath} is empty.`, returnDisplay: `${shownPath} is empty` };
    }
    const notes = windowNotes(loaded, shownPath);
    const isWhole = loaded.start === 0 && loaded.end === loaded.totalLines;
    const range = isWhole
      ? `${loaded.totalLines} line${loaded.totalLines === 1 ? '' : 's'}`
      : `lines ${loaded.start + 1}-${loaded.end} of ${loaded.totalLines}`;
    return {
      llmContent: notes.length > 0 ? `[${notes.join(' ')}]\n${loaded.body}` : loaded.body,
      returnDisplay: `Read ${range} of ${this.config.workspace.relative(shownPath)}`,
    };
  }
}
