/** save_memory: remembers a fact across sessions, in a memory (context) file. */
import type { Config } from '../config/config.js';
import {
  addMemoryEntry,
  type MemoryScope,
  memoryFilePath,
  normalizeFact,
} from '../memory/memory-file.js';
import { FileWriteError } from '../utils/atomic-write.js';
import { fileChangeModules } from './file-change-modules.js';
import {
  BaseTool,
  errorResult,
  Kind,
  type ToolEditConfirmationDetails,
  ToolErrorType,
  type ToolResult,
} from './tools.js';

export interface SaveMemoryParams {
  fact: string;
  scope?: MemoryScope;
}

const DESCRIPTION = `Saves one fact to long-term memory, for future sessions: a preference, a convention of this project, a command that works. Use it when the person asks you to remember something, or states a lasting preference; not for temporary details of the current task.
- fact: one short, self-contained sentence.
- scope: "project" (this project's memory file, the default) or "global" (the person's memory file, for every project).`;

export class MemoryTool extends BaseTool<SaveMemoryParams> {
  static readonly Name = 'save_memory';

  constructor(private readonly config: Config) {
    super(MemoryTool.Name, 'SaveMemory', DESCRIPTION, Kind.Think, {
      type: 'object',
      properties: {
        fact: { type: 'string', description: 'The fact to remember, as one sentence.' },
        scope: {
          type: 'string',
          enum: ['global', 'project'],
          description: 'Where to save it (default project).',
        },
      },
      required: ['fact'],
    });
    config.workspace.allowFile(memoryFilePath(config, 'global'));
  }

  protected override validateSemantics(params: SaveMemoryParams): string | null {
    return normalizeFact(params.fact) === '' ? 'fact must contain the thing to remember' : null;
  }

  override getDescription(params: SaveMemoryParams): string {
    return `Remember (${params.scope ?? 'project'}): ${normalizeFact(params.fact)}`;
  }

  override async shouldConfirmExecute(
    params: SaveMemoryParams,
  ): Promise<ToolEditConfirmationDetails | false> {
    const plan = await this.plan(params);
    if ('error' in plan) return false;
    const [, { editConfirmation, fileChangeDiff }] = await fileChangeModules();
    const diff = fileChangeDiff(this.config, plan.file, plan.before, plan.after);
    return editConfirmation(`Save to ${plan.scope} memory (${plan.file})?`, diff);
  }

  async execute(params: SaveMemoryParams): Promise<ToolResult> {
    const scope = params.scope ?? 'project';
    const file = memoryFilePath(this.config, scope);
    // Two saves must not lose each other: the whole read-change-write holds the file's lock.
    return this.config.fileLocks.runExclusive([file], async () => {
      const plan = await this.plan(params);
      if ('error' in plan) return plan.error;
      const [{ writeTextFile }, { fileChangeDiff }] = await fileChangeModules();
      try {
        await writeTextFile(plan.realPath, plan.after, plan.format, plan.mode);
      } catch (error) {
        if (error instanceof FileWriteError)
          return errorResult(ToolErrorType.MEMORY_TOOL_EXECUTION_ERROR, error.message);
        throw error;
      }
      const where = params.scope
        ? `the ${scope} memory file`
        : 'the project memory file (no scope was given)';
      return {
        llmContent: `Remembered in ${where} ${plan.file}: - ${plan.fact}`,
        returnDisplay: fileChangeDiff(this.config, plan.file, plan.before, plan.after, 'applied'),
      };
    });
  }

  private async plan(params: SaveMemoryParams) {
    const scope = params.scope ?? 'project';
    const file = memoryFilePath(this.config, scope);
    const fail = (message: string) => ({
      error: errorResult(ToolErrorType.MEMORY_TOOL_EXECUTION_ERROR, message),
    });
    const check = this.config.workspace.check(file, 'write');
    if (!check.ok) return fail(check.message);
    const [{ newFileFormat, readTextForChange, TextFileError }] = await fileChangeModules();
    try {
      const existing = await readTextForChange(check.realPath, file, this.config.legacyEncodings);
      const before = existing.exists ? existing.text : '';
      const fact = normalizeFact(params.fact);
      return {
        scope,
        file,
        fact,
        realPath: check.realPath,
        before: existing.exists ? before : null,
        after: addMemoryEntry(before, fact),
        format: existing.exists
          ? existing.format
          : newFileFormat(this.config.settings.files?.defaultEncoding),
        mode: existing.exists ? existing.mode : undefined,
      };
    } catch (error) {
      if (error instanceof TextFileError) return fail(error.message);
      throw error;
    }
  }
}
