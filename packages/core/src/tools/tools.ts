/**
 * The tool contract: what every tool, built-in or discovered, offers the registry and
 * the scheduler. See DESIGN.md, "The contract".
 */
import type { FunctionDeclaration, PartListUnion } from '../contract/content.js';
import type { ToolErrorType } from '../contract/tool-error.js';
import { coerceToSchema } from '../utils/schema-coercion.js';
import { validateAgainstSchema } from '../utils/schema-validator.js';

export { ToolErrorType } from '../contract/tool-error.js';

/** What a tool does to the world; decides parallelism, plan mode and approvals. */
export enum Kind {
  Read = 'read',
  Edit = 'edit',
  Delete = 'delete',
  Move = 'move',
  Search = 'search',
  Execute = 'execute',
  Think = 'think',
  Fetch = 'fetch',
  Other = 'other',
}

/** Kinds that leave the workspace unchanged: they may run side by side, and in plan mode. */
export const READ_ONLY_KINDS: ReadonlySet<Kind> = new Set([
  Kind.Read,
  Kind.Search,
  Kind.Think,
  Kind.Fetch,
]);

export function isReadOnlyKind(kind: Kind): boolean {
  return READ_ONLY_KINDS.has(kind);
}

/** A JSON Schema object, as tools declare their parameters. */
export type JsonSchema = Record<string, unknown>;

/** A file (and optionally a line) that a call reads or changes. */
export interface ToolLocation {
  path: string;
  line?: number;
}

/** Added/removed line and character counts of a change. */
export interface DiffStat {
  linesAdded: number;
  linesRemoved: number;
  charsAdded: number;
  charsRemoved: number;
}

/** The person-facing view of a file change. */
export interface FileDiff {
  fileDiff: string;
  fileName: string;
  filePath?: string;
  originalContent: string | null;
  newContent: string;
  diffStat: DiffStat;
}

export interface TodoItem {
  id: string;
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
}

/** A structured todo list, rendered by front ends as a checklist. */
export interface TodoListDisplay {
  type: 'todo_list';
  todos: TodoItem[];
}

export type ToolResultDisplay = string | FileDiff | TodoListDisplay;

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

export enum ToolConfirmationOutcome {
  ProceedOnce = 'proceed_once',
  ProceedAlways = 'proceed_always',
  ProceedAlwaysServer = 'proceed_always_server',
  ProceedAlwaysTool = 'proceed_always_tool',
  ModifyWithEditor = 'modify_with_editor',
  Cancel = 'cancel',
}

/** Sent with an outcome when the person changed the proposal inline. */
export interface ToolConfirmationPayload {
  newContent?: string;
  /** The person's answers to an `elicitation` form, by field name. */
  answers?: Record<string, unknown>;
  /**
   * With `cancel` on an `elicitation` form: the person dismissed it (Esc) without saying
   * yes or no, which MCP tells the server apart from a refusal.
   */
  dismissed?: boolean;
}

interface ConfirmationBase {
  title: string;
  /**
   * Receives the person's decision. The scheduler calls it before acting on the decision,
   * so a tool can remember finer-grained "always" answers (shell roots, an MCP server).
   */
  onConfirm: (
    outcome: ToolConfirmationOutcome,
    payload?: ToolConfirmationPayload,
  ) => Promise<void> | void;
  /**
   * Where the scheduler remembers `proceed_always` for the session: `tool` (every later
   * call of this tool runs without asking; the default) or `tool-handles` (the tool's
   * `onConfirm` keeps a narrower memory itself, e.g. per command root or per host).
   */
  rememberAlways?: 'tool' | 'tool-handles';
  /** What the model is told when the person declines (default: a general refusal). */
  declineMessage?: string;
  /** Only the person answers this one: a hook's "allow" does not (leaving the sandbox). */
  personOnly?: boolean;
  /**
   * Ask rules (`permissions.ask`) that make this question be asked in every approval mode;
   * yolo and auto-edit do not answer it.
   */
  askedByRules?: string[];
  /**
   * Deny rules the sandbox cannot hold for this call (as written) and why: the question is
   * asked in every approval mode, as an ask rule's is, but it is the deny rule that forces it.
   */
  unheldDenyRules?: { rules: string[]; reason: string };
}

/**
 * Whether the question is asked in every approval mode (yolo and auto-edit do not answer it,
 * a hook's allow does not, and no "always" rule is offered): an ask rule forces it, or deny
 * rules the sandbox cannot hold.
 */
export function isForcedQuestion(details: ToolCallConfirmationDetails): boolean {
  return (details.askedByRules?.length ?? 0) > 0 || details.unheldDenyRules !== undefined;
}

export interface ToolEditConfirmationDetails extends ConfirmationBase {
  type: 'edit';
  fileName: string;
  filePath: string;
  fileDiff: string;
  originalContent: string | null;
  newContent: string;
  /** True when the person may change the proposal (inline payload or editor). */
  isModifiable?: boolean;
}

export interface ToolExecConfirmationDetails extends ConfirmationBase {
  type: 'exec';
  command: string;
  /** Root commands of the call that are not yet allowed. */
  rootCommands: string[];
  /** Why it asks, one sentence each (also in the title). */
  reasons?: string[];
}

export interface ToolMcpConfirmationDetails extends ConfirmationBase {
  type: 'mcp';
  serverName: string;
  toolName: string;
  toolDisplayName: string;
  /** The server's own hints; shown, never trusted to skip confirmation. */
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean };
}

export interface ToolInfoConfirmationDetails extends ConfirmationBase {
  type: 'info';
  prompt: string;
  urls?: string[];
}

export interface ToolPlanConfirmationDetails extends ConfirmationBase {
  type: 'plan';
  plan: string;
}

/**
 * A question an MCP server asks the person while one of its tools runs (elicitation, form
 * mode). `proceed_once` with `payload.answers` accepts; `cancel` declines, or cancels
 * with `payload.dismissed`.
 */
export interface ToolElicitationConfirmationDetails extends ConfirmationBase {
  type: 'elicitation';
  serverName: string;
  message: string;
  /** A flat JSON Schema object: one property per field (see elicitationFields). */
  requestedSchema: JsonSchema;
}

/**
 * An MCP server asks the person to visit a page outside toolhost (elicitation, URL mode:
 * a third-party sign-in, a payment). Nothing is opened by itself: `proceed_once` means the
 * person will open the page (a front end may open it with the system's opener when the
 * person picks that); `cancel` declines, or cancels with `payload.dismissed`. The URL is
 * for the person only: it never reaches the model.
 */
export interface ToolElicitationUrlConfirmationDetails extends ConfirmationBase {
  type: 'elicitation_url';
  serverName: string;
  message: string;
  /** The whole https URL, as the server sent it (normalised by the URL parser). */
  url: string;
  /** The URL's host, shown apart so the person sees where the link really goes. */
  host: string;
}

export type ToolCallConfirmationDetails =
  | ToolElicitationConfirmationDetails
  | ToolElicitationUrlConfirmationDetails
  | ToolEditConfirmationDetails
  | ToolExecConfirmationDetails
  | ToolMcpConfirmationDetails
  | ToolInfoConfirmationDetails
  | ToolPlanConfirmationDetails;

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
