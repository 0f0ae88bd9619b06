/**
 * write_file: creates or replaces a whole file, safely (atomic rename) and faithfully (an
 * existing file keeps its encoding, BOM, line endings and mode).
 */
import type { Config } from '../config/config.js';
import { FileWriteError } from '../utils/atomic-write.js';
import { plural } from '../utils/plural.js';
import type { ExistingTextFile } from '../utils/text-file.js';
import { fileChangeModules } from './file-change-modules.js';
import { requireAbsolute, resolveToolPath } from './path-checks.js';
import {
  BaseTool,
  errorResult,
  Kind,
  type ModifyContext,
  type ToolEditConfirmationDetails,
  ToolErrorType,
  type ToolLocation,
  type ToolResult,
} from './tools.js';

export interface WriteFileToolParams {
  file_path: string;
  content: string;
}

const DESCRIPTION = `Writes a whole file: creates it (with any missing parent folders) or replaces all of its content.
To change part of an existing file, prefer edit, which cannot lose the rest of the file. An existing file keeps its encoding, byte order mark, line endings (LF or CRLF) and permissions; send the content with plain \\n line endings. The write is atomic: the file is never left half-written.
If the file changed on disk since you last read it, the write is refused; read it again first.`;

export class WriteFileTool extends BaseTool<WriteFileToolParams> {
  static readonly Name = 'write_file';

  constructor(private readonly config: Config) {
    super(WriteFileTool.Name, 'WriteFile', DESCRIPTION, Kind.Edit, {
      type: 'object',
      properties: {
        file_path: { type: 'string', description: 'Absolute path of the file to write.' },
        content: { type: 'string', description: 'The complete new content of the file.' },
      },
      required: ['file_path', 'content'],
    });
  }

  protected override validateSemantics(params: WriteFileToolParams): string | null {
    return requireAbsolute('file_path', params.file_path, this.config);
  }

  override getDescription(params: WriteFileToolParams): string {
    return `Write ${this.config.workspace.relative(params.file_path)}`;
  }

  override toolLocations(params: WriteFileToolParams): ToolLocation[] {
    return [{ path: params.file_path }];
  }

  override async shouldConfirmExecute(
    params: WriteFileToolParams,
  ): Promise<ToolEditConfirmationDetails | false> {
    const plan = await this.plan(params);
    if ('error' in plan) return false; // execute reports the problem
    const [, { editConfirmation, fileChangeDiff }] = await fileChangeModules();
    const { existing, newText } = plan;
    const diff = fileChangeDiff(
      this.config,
      params.file_path,
      existing.exists ? existing.text : null,
      newText,
    );
    const verb = existing.exists ? 'Overwrite' : 'Create';
    return editConfirmation(`${verb} ${this.config.workspace.relative(params.file_path)}?`, diff, {
      modifiable: true,
    });
  }

  override getModifyContext(): ModifyContext<WriteFileToolParams> {
    return {
      getFilePath: (params) => params.file_path,
      getCurrentContent: async (params) => {
        const plan = await this.plan(params);
        return 'error' in plan || !plan.existing.exists ? '' : plan.existing.text;
      },
      getProposedContent: async (params) => params.content,
      createUpdatedParams: (_old, modified, params) => ({ ...params, content: modified }),
    };
  }

  async execute(params: WriteFileToolParams, _signal?: AbortSignal): Promise<ToolResult> {
    const plan = await this.plan(params);
    if ('error' in plan) return plan.error;
    const { realPath, existing, newText } = plan;
    if (existing.exists && this.config.fileReads.changedSinceSeen(realPath, existing.bytes)) {
      return errorResult(
        ToolErrorType.FILE_CHANGED_SINCE_READ,
        `${params.file_path} changed on disk since you last read it; writing now would throw those changes away. Read it again with read_file, then write.`,
      );
    }
    const [{ newFileFormat, writeTextFile }, { fileChangeDiff }] = await fileChangeModules();
    const format = existing.exists
      ? existing.format
      : newFileFormat(this.config.settings.files?.defaultEncoding);
    let written: Buffer;
    try {
      written = await writeTextFile(
        realPath,
        newText,
        format,
        existing.exists ? existing.mode : undefined,
      );
    } catch (error) {
      if (error instanceof FileWriteError) return errorResult(error.type, error.message);
      throw error;
    }
    this.config.fileReads.record(realPath, written);

    const diff = fileChangeDiff(
      this.config,
      params.file_path,
      existing.exists ? existing.text : null,
      newText,
      'applied',
    );
    const lineCount =
      newText === '' ? 0 : newText.split('\n').length - (newText.endsWith('\n') ? 1 : 0);
    const kept = existing.exists ? describeFormat(format) : '';
    const llmContent = existing.exists
      ? `Overwrote ${params.file_path} (${plural(lineCount, 'line')}; ${diff.diffStat.linesAdded} added, ${diff.diffStat.linesRemoved} removed${kept}).`
      : `Created ${params.file_path} (${plural(lineCount, 'line')}).`;
    return { llmContent, returnDisplay: diff };
  }

  /** Resolves the path and reads what is there now; shared by confirmation and execution. */
  private async plan(
    params: WriteFileToolParams,
  ): Promise<
    { realPath: string; existing: ExistingTextFile; newText: string } | { error: ToolResult }
  > {
    const resolved = resolveToolPath(this.config, params.file_path, 'write');
    if (resolved.error) return { error: resolved.error };
    const [{ readTextForChange, TextFileError, toFileLineEndings }] = await fileChangeModules();
    let existing: ExistingTextFile;
    try {
      existing = await readTextForChange(
        resolved.realPath,
        params.file_path,
        this.config.legacyEncodings,
      );
    } catch (error) {
      if (error instanceof TextFileError) {
        // A binary file may be replaced by text: the model asked for the whole content.
        if (error.type === ToolErrorType.BINARY_FILE) existing = { exists: false };
        else return { error: errorResult(error.type, error.message) };
      } else {
        throw error;
      }
    }
    const newText = existing.exists
      ? toFileLineEndings(params.content, existing.format.lineEnding)
      : params.content;
    return { realPath: resolved.realPath, existing, newText };
  }
}

function describeFormat(format: { encoding: string; bom: boolean; lineEnding: string }): string {
  const parts: string[] = [];
  if (format.encoding !== 'utf-8') parts.push(format.encoding);
  if (format.bom) parts.push('BOM');
  if (format.lineEnding === '\r\n') parts.push('CRLF');
  return parts.length > 0 ? `; kept its ${parts.join(', ')}` : '';
}
