/**
 * edit: replaces exact text in a file (or creates a file when old_string is empty), with
 * deterministic recovery for near misses and a refusal when the file changed behind the
 * model's back.
 */
import type { Config } from '../config/config.js';
import { FileWriteError } from '../utils/atomic-write.js';
import type { ExistingTextFile, toFileLineEndings } from '../utils/text-file.js';
import type { lineNumbers, MatchOutcome, Replacement } from './edit-matching.js';
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

export interface EditToolParams {
  file_path: string;
  old_string: string;
  new_string: string;
  expected_replacements?: number;
}

const DESCRIPTION = `Replaces text in a file. old_string must be the exact, literal text now in the file (copy it from read_file output, with its indentation, and enough surrounding lines to be unique); every occurrence is replaced by new_string, and there must be exactly expected_replacements of them (default 1). new_string is inserted literally ($ and \\ have no special meaning).
To create a new file, send an empty old_string and the whole content as new_string.
When old_string is not found exactly, near misses are recovered only when unambiguous: typographic quotes and dashes, trailing whitespace, or different indentation; the result says which. Otherwise the error shows the most similar lines of the file, with line numbers, so you can retry precisely.
If the file changed on disk since you last read or edited it, the edit is refused; read it again first.`;

/** The file-change modules and edit's matching, imported with the first call. */
async function callHelpers() {
  const [[text, change], matching] = await Promise.all([
    fileChangeModules(),
    import('./edit-matching.js'),
  ]);
  return [text, matching, change] as const;
}

type EditPlan =
  | { kind: 'create'; realPath: string; newText: string }
  | {
      kind: 'replace';
      realPath: string;
      existing: Extract<ExistingTextFile, { exists: true }>;
      newText: string;
      outcome: Extract<MatchOutcome, { kind: 'matched' }>;
    };

export class EditTool extends BaseTool<EditToolParams> {
  static readonly Name = 'edit';

  constructor(private readonly config: Config) {
    super(EditTool.Name, 'Edit', DESCRIPTION, Kind.Edit, {
      type: 'object',
      properties: {
        file_path: { type: 'string', description: 'Absolute path of the file to change.' },
        old_string: {
          type: 'string',
          description:
            'The exact text to replace, as it is in the file; empty to create a new file.',
        },
        new_string: { type: 'string', description: 'The text to put in its place.' },
        expected_replacements: {
          type: 'number',
          minimum: 1,
          description:
            'How many occurrences old_string has and should all be replaced (default 1).',
        },
      },
      required: ['file_path', 'old_string', 'new_string'],
    });
  }

  protected override validateSemantics(params: EditToolParams): string | null {
    const notAbsolute = requireAbsolute('file_path', params.file_path, this.config);
    if (notAbsolute) return notAbsolute;
    if (
      params.expected_replacements !== undefined &&
      !Number.isInteger(params.expected_replacements)
    ) {
      return 'expected_replacements must be a whole number, 1 or more';
    }
    return null;
  }

  override getDescription(params: EditToolParams): string {
    const where = this.config.workspace.relative(params.file_path);
    return params.old_string === '' ? `Create ${where}` : `Edit ${where}`;
  }

  override toolLocations(params: EditToolParams): ToolLocation[] {
    return [{ path: params.file_path }];
  }

  override async shouldConfirmExecute(
    params: EditToolParams,
  ): Promise<ToolEditConfirmationDetails | false> {
    const plan = await this.plan(params);
    if ('error' in plan) return false; // execute reports the problem to the model
    const [, , { editConfirmation, fileChangeDiff }] = await callHelpers();
    const original = plan.kind === 'replace' ? plan.existing.text : null;
    const diff = fileChangeDiff(this.config, params.file_path, original, plan.newText);
    const verb = plan.kind === 'create' ? 'Create' : 'Edit';
    return editConfirmation(`${verb} ${this.config.workspace.relative(params.file_path)}?`, diff, {
      modifiable: true,
    });
  }

  override getModifyContext(): ModifyContext<EditToolParams> {
    return {
      getFilePath: (params) => params.file_path,
      getCurrentContent: async (params) => {
        const plan = await this.plan(params);
        return !('error' in plan) && plan.kind === 'replace' ? plan.existing.text : '';
      },
      getProposedContent: async (params) => {
        const plan = await this.plan(params);
        return 'error' in plan ? params.new_string : plan.newText;
      },
      // The person's version replaces the whole file: old_string is everything there now.
      createUpdatedParams: (oldContent, modified, params) => ({
        file_path: params.file_path,
        old_string: oldContent,
        new_string: modified,
        expected_replacements: 1,
      }),
    };
  }

  async execute(params: EditToolParams, _signal?: AbortSignal): Promise<ToolResult> {
    const plan = await this.plan(params);
    if ('error' in plan) return plan.error;
    const [
      { newFileFormat, toFileLineEndings, writeTextFile },
      { lineNumbers, STRATEGY_NOTES },
      { fileChangeDiff },
    ] = await callHelpers();
    const format =
      plan.kind === 'replace'
        ? plan.existing.format
        : newFileFormat(this.config.settings.files?.defaultEncoding);
    let written: Buffer;
    try {
      written = await writeTextFile(
        plan.realPath,
        plan.newText,
        format,
        plan.kind === 'replace' ? plan.existing.mode : undefined,
      );
    } catch (error) {
      if (error instanceof FileWriteError) return errorResult(error.type, error.message);
      throw error;
    }
    this.config.fileReads.record(plan.realPath, written);

    const original = plan.kind === 'replace' ? plan.existing.text : null;
    const diff = fileChangeDiff(this.config, params.file_path, original, plan.newText, 'applied');
    if (plan.kind === 'create') {
      return { llmContent: `Created ${params.file_path}.`, returnDisplay: diff };
    }
    const { replacements, strategy } = plan.outcome;
    const count = replacements.length;
    const how =
      strategy === 'exact'
        ? ''
        : ` (old_string was not found exactly; ${STRATEGY_NOTES[strategy]})`;
    const summary = `Replaced ${count} occurrence${count === 1 ? '' : 's'} in ${params.file_path}${how}.`;
    return {
      llmContent: `${summary}\n${changedRegions(plan.newText, replacements, toFileLineEndings, lineNumbers)}`,
      returnDisplay: diff,
    };
  }

  /** Works out the whole change, or the error that stops it; shared by confirmation and execution. */
  private async plan(params: EditToolParams): Promise<EditPlan | { error: ToolResult }> {
    const fail = (type: ToolErrorType, message: string) => ({ error: errorResult(type, message) });
    if (params.old_string === params.new_string) {
      return fail(
        ToolErrorType.EDIT_NO_CHANGE,
        'old_string and new_string are identical, so the edit would change nothing. Send the text you want in new_string.',
      );
    }
    const resolved = resolveToolPath(this.config, params.file_path, 'write');
    if (resolved.error) return { error: resolved.error };
    const realPath = resolved.realPath;
    const [
      { readTextForChange, TextFileError },
      { applyReplacements, planReplacements, STRATEGY_NOTES },
    ] = await callHelpers();
    let existing: ExistingTextFile;
    try {
      existing = await readTextForChange(realPath, params.file_path, this.config.legacyEncodings);
    } catch (error) {
      if (error instanceof TextFileError) return fail(error.type, error.message);
      throw error;
    }

    if (params.old_string === '') {
      if (existing.exists) {
        return fail(
          ToolErrorType.ATTEMPT_TO_CREATE_EXISTING_FILE,
          `${params.file_path} already exists, so it cannot be created. To change it, read it and send the text to replace as old_string; to replace all of it, use write_file.`,
        );
      }
      return { kind: 'create', realPath, newText: params.new_string };
    }
    if (!existing.exists) {
      return fail(
        ToolErrorType.FILE_NOT_FOUND,
        `${params.file_path} does not exist. To create it, call edit with an empty old_string and the whole content as new_string (or use write_file).`,
      );
    }
    if (this.config.fileReads.changedSinceSeen(realPath, existing.bytes)) {
      return fail(
        ToolErrorType.FILE_CHANGED_SINCE_READ,
        `${params.file_path} changed on disk since you last read or edited it, so old_string may no longer be right. Read the file again with read_file, then retry the edit.`,
      );
    }

    const expected = params.expected_replacements ?? 1;
    const outcome = planReplacements(existing.text, params.old_string, params.new_string, expected);
    if (outcome.kind === 'count_mismatch') {
      const how = outcome.strategy === 'exact' ? '' : `, ${STRATEGY_NOTES[outcome.strategy]}`;
      return fail(
        ToolErrorType.EDIT_EXPECTED_OCCURRENCE_MISMATCH,
        `Expected ${expected} occurrence${expected === 1 ? '' : 's'} of old_string in ${params.file_path} but found ${outcome.found}${how} (at line${outcome.lines.length === 1 ? '' : 's'} ${outcome.lines.join(', ')}). ${
          outcome.found > expected
            ? 'Add surrounding lines to old_string so it matches only the place you mean, or set expected_replacements to replace them all.'
            : 'Set expected_replacements to the number found, or adjust old_string.'
        }`,
      );
    }
    if (outcome.kind === 'not_found') {
      const closest = outcome.closest
        ? ` The most similar text is at lines ${outcome.closest.startLine}-${outcome.closest.endLine} (${Math.round(outcome.closest.similarity * 100)}% similar):\n${numbered(outcome.closest.text, outcome.closest.startLine)}\nCopy the exact text from there (without the line numbers) into old_string, or read the file again.`
        : ' Nothing in the file resembles it; read the file again to see its current content.';
      return fail(
        ToolErrorType.EDIT_NO_OCCURRENCE_FOUND,
        `old_string was not found in ${params.file_path}.${closest}`,
      );
    }
    const newText = applyReplacements(existing.text, outcome.replacements);
    if (newText === existing.text) {
      return fail(
        ToolErrorType.EDIT_NO_CHANGE,
        `The edit would leave ${params.file_path} exactly as it is; nothing was written.`,
      );
    }
    return { kind: 'replace', realPath, existing, newText, outcome };
  }
}

const CONTEXT_LINES = 2;
const MAX_REGIONS = 5;

/** A few numbered lines around each change, in the new content, so the model sees the result. */
function changedRegions(
  newText: string,
  replacements: Replacement[],
  // Passed in: both come with the call's helpers (see callHelpers).
  toLineEndings: typeof toFileLineEndings,
  linesOf: typeof lineNumbers,
): string {
  const sorted = [...replacements].sort((a, b) => a.start - b.start);
  // Where each replacement starts in the new text.
  let shift = 0;
  const newStarts = sorted.map((r) => {
    const start = r.start + shift;
    shift += r.text.length - (r.end - r.start);
    return { start, length: r.text.length };
  });
  const lines = toLineEndings(newText, '\n').split('\n');
  const firstLines = linesOf(
    newText,
    newStarts.map((r) => r.start),
  );
  const regions = newStarts.slice(0, MAX_REGIONS).map((r, index) => {
    const first = firstLines[index]!;
    const spanned =
      r.length === 0 ? 0 : (newText.slice(r.start, r.start + r.length).match(/\n/g)?.length ?? 0);
    const from = Math.max(1, first - CONTEXT_LINES);
    const to = Math.min(lines.length, first + spanned + CONTEXT_LINES);
    return numbered(lines.slice(from - 1, to).join('\n'), from);
  });
  const more =
    sorted.length > MAX_REGIONS ? `\n(${sorted.length - MAX_REGIONS} more changes not shown)` : '';
  return `${regions.join('\n...\n')}${more}`;
}

function numbered(text: string, firstLine: number): string {
  const lines = text.split('\n');
  const width = String(firstLine + lines.length - 1).length;
  return lines
    .map((line, i) => `${String(firstLine + i).padStart(width)}| ${line.replace(/\r$/, '')}`)
    .join('\n');
}
