/**
 * What a tool is, shows and asks, as every layer sees it: its kind (which decides
 * parallelism, plan mode and approvals), the files a call touches, the displays a call
 * leaves for the person (a file change, a todo list), and the questions a call puts to the
 * person with their answers (what the scheduler asks, permission rules mark and an "always"
 * answer saves). The tool contract itself (BaseTool) is tools/tools.ts, which re-exports these.
 */

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
