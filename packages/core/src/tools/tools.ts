/**
 * The tool contract: what every tool, built-in or discovered, offers the registry and
 * the scheduler. See DESIGN.md, "The contract".
 */
import type { FunctionDeclaration, PartListUnion } from '../contract/content.js';
import type { ToolErrorType } from '../contract/tool-error.js';
import {
  isReadOnlyKind,
  type JsonSchema,
  type Kind,
  type ToolCallConfirmationDetails,
  type ToolConfirmationOutcome,
  type ToolConfirmationPayload,
  type ToolLocation,
  type ToolResultDisplay,
} from '../contract/tool-shapes.js';
import { coerceToSchema } from '../utils/schema-coercion.js';
import { validateAgainstSchema } from '../utils/schema-validator.js';

export { ToolErrorType } from '../contract/tool-error.js';
export * from '../contract/tool-shapes.js';

export interface ToolResult {
  /** What the model reads: text, and `inlineData` parts for images, audio and PDFs. */
  llmContent: PartListUnion;
  /** What the person sees: Markdown, or a structured display. */
  returnDisplay: ToolResultDisplay;
  /** Present when the call failed in an expected way. */
  error?: {
    message: string;
    type: ToolErrorType;
  };
}

/** Streams partial output (a running command's text) to the front end. */
export type UpdateOutput = (output: string) => void;

/** What a running tool may do besides streaming output. */
export interface ToolExecutionContext {
  /** The model's id for this call (a subagent's messages name the `task` call that ran it). */
  callId?: string;
  /**
   * Asks the person something while the call runs (an MCP server's question), through the
   * same channel as confirmations. Resolves with `cancel` when nobody can be asked.
   */
  ask(
    details: ToolCallConfirmationDetails,
  ): Promise<{ outcome: ToolConfirmationOutcome; payload?: ToolConfirmationPayload }>;
}

/**
 * Lets the person change a proposed file change before it runs, either inline (a payload
 * with `newContent`) or in an editor (`modify_with_editor`).
 */
export interface ModifyContext<TParams> {
  getFilePath(params: TParams): string;
  getCurrentContent(params: TParams): Promise<string>;
  getProposedContent(params: TParams): Promise<string>;
  createUpdatedParams(
    oldContent: string,
    modifiedProposedContent: string,
    params: TParams,
  ): TParams;
}

export interface BaseToolOptions {
  /** Parameter names other models use, mapped to this tool's names (`file_path` → `absolute_path`). */
  parameterAliases?: Record<string, string>;
  /** True when `returnDisplay` is Markdown rather than plain text. */
  isOutputMarkdown?: boolean;
  /** True when `execute` streams through `updateOutput`. */
  canUpdateOutput?: boolean;
  /**
   * True when calls of this tool may overlap other calls of the batch although its kind
   * changes things (`task`: each subagent's own calls still go through its scheduler).
   */
  runsInParallel?: boolean;
}

/**
 * The base of every tool. Subclasses give the schema and `execute`; they override
 * `validateSemantics`, `getDescription`, `toolLocations` and `shouldConfirmExecute`
 * where the defaults do not fit.
 */
export abstract class BaseTool<
  TParams extends object = Record<string, unknown>,
  TResult extends ToolResult = ToolResult,
> {
  readonly parameterAliases: Readonly<Record<string, string>>;
  readonly isOutputMarkdown: boolean;
  readonly canUpdateOutput: boolean;
  readonly runsInParallel: boolean;

  constructor(
    readonly name: string,
    readonly displayName: string,
    readonly description: string,
    readonly kind: Kind,
    readonly parameterSchema: JsonSchema,
    options: BaseToolOptions = {},
  ) {
    this.parameterAliases = options.parameterAliases ?? {};
    this.isOutputMarkdown = options.isOutputMarkdown ?? true;
    this.canUpdateOutput = options.canUpdateOutput ?? false;
    this.runsInParallel = options.runsInParallel ?? isReadOnlyKind(kind);
  }

  /** The declaration handed to the model. */
  get schema(): FunctionDeclaration {
    return {
      name: this.name,
      description: this.description,
      parametersJsonSchema: this.parameterSchema,
    };
  }

  /**
   * Renames alias parameters to their canonical names (the canonical one wins when both
   * are sent). Returns a new object; the input is not changed.
   */
  normalizeParams(params: unknown): unknown {
    if (!isPlainObject(params)) return params;
    const entries = Object.entries(this.parameterAliases);
    if (entries.length === 0) return params;
    const normalized: Record<string, unknown> = { ...params };
    for (const [alias, canonical] of entries) {
      if (alias in normalized) {
        if (!(canonical in normalized)) normalized[canonical] = normalized[alias];
        delete normalized[alias];
      }
    }
    return normalized;
  }

  /**
   * Checks the parameters against the schema, then the tool's own rules. Returns null when
   * they are fine, else a message for the model saying what is wrong and what to send.
   */
  validateToolParams(params: unknown): string | null {
    const schemaError = validateAgainstSchema(this.parameterSchema, params);
    if (schemaError && !this.correctTypes(params)) return schemaError;
    return this.validateSemantics(params as TParams);
  }

  /**
   * Puts right values a model sent in the wrong JSON type (`"true"` for true, `"30"` for
   * 30), as Qwen Code does, when that alone makes the call valid; the call then runs with
   * them, since the scheduler passes this same object on. False when it does not help.
   */
  private correctTypes(params: unknown): boolean {
    if (!params || typeof params !== 'object' || Array.isArray(params)) return false;
    const corrected = coerceToSchema(this.parameterSchema, params);
    if (validateAgainstSchema(this.parameterSchema, corrected) !== null) return false;
    Object.assign(params, corrected);
    return true;
  }

  /** The tool's own checks, run after the schema passed. */
  protected validateSemantics(_params: TParams): string | null {
    return null;
  }

  /** One line saying what this call will do, for the person. */
  getDescription(params: TParams): string {
    return `${this.displayName} ${JSON.stringify(params)}`;
  }

  /** The files this call touches. */
  toolLocations(_params: TParams): ToolLocation[] {
    return [];
  }

  /** False when the call may run without asking, else what to show the person. */
  async shouldConfirmExecute(
    _params: TParams,
    _signal: AbortSignal,
  ): Promise<ToolCallConfirmationDetails | false> {
    return false;
  }

  /** Present on tools whose proposals the person may change before they run. */
  getModifyContext?(signal: AbortSignal): ModifyContext<TParams>;

  abstract execute(
    params: TParams,
    signal: AbortSignal,
    updateOutput?: UpdateOutput,
    context?: ToolExecutionContext,
  ): Promise<TResult>;
}

/** Any tool, whatever its parameter and result types. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds tools of every parameter type.
export type AnyTool = BaseTool<any, ToolResult>;

/** Builds the result of an expected failure: the same message for the model and the person. */
export function errorResult(type: ToolErrorType, message: string, display?: string): ToolResult {
  return {
    llmContent: `Error: ${message}`,
    returnDisplay: display ?? `Error: ${message}`,
    error: { message, type },
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
