/**
 * The conversation core's vocabulary: what opens a conversation, what a front end sends
 * it, the questions it asks and the one stream of events it tells.
 */
import type {
  AgentEvent,
  AgentRunResult,
  AgentStopReason,
  AgentToolResult,
} from '../agent/agent-events.js';
import type { AgentLimits } from '../agent/agent-loop.js';
import type { LoadedSession } from '../agent/sessions/session-loader.js';
import type { Part } from '../contract/content.js';
import type { ApprovalMode, Settings } from '../contract/settings-types.js';
import type { ModelEndpoint } from '../models/endpoint.js';
import type { TokenUsage } from '../models/token-usage.js';
import type {
  CompletedToolCall,
  ConfirmationDecision,
  EditProposal,
  WaitingToolCall,
} from '../scheduler/tool-call-types.js';
import type { TodoItem } from '../tools/tools.js';
import type { PromptContent } from './prompt-content.js';
import type { JsonSchema, StructuredOutcome } from './structured-output.js';
import type { TrustOffer } from './trust-offer.js';

export interface ConversationOptions {
  /** The project folder (default: the current folder) and more folders the tools may use. */
  workspace?: { root?: string; includeDirectories?: string[] };
  /** Settings above every settings file (what a command's flags set): the highest layer. */
  settings?: Settings;
  approvalMode?: ApprovalMode;
  /** Where the person's settings are, the environment, the system file (tests). */
  homeDir?: string;
  env?: NodeJS.ProcessEnv;
  systemSettingsPath?: string;
  /** The model to talk to; by default the active model the settings configure. */
  endpoint?: ModelEndpoint;
  /** A saved session to continue (findSession and loadSession find one). */
  resume?: LoadedSession;
  /** The id of a new session (default: a fresh UUID); ignored when resuming. */
  sessionId?: string;
  /** Record the conversation in the sessions store (default true), so it can be resumed. */
  record?: boolean;
  limits?: AgentLimits;
  /** Levels of subagents below the main agent (settings decide by default). */
  maxSubagentDepth?: number;
  /** Replaces the built-in guidance of the system prompt. */
  systemPrompt?: string;
  appendSystemPrompt?: string;
  /**
   * The final answer of each turn must be JSON that validates against this schema: the model
   * is told so, and a wrong answer is sent back once before the turn ends as an error.
   */
  outputSchema?: JsonSchema;
  /**
   * Somebody answers this conversation's questions: approvals and MCP servers' questions
   * come as `question` events (without one, a call that needs approval is refused).
   */
  answersQuestions?: boolean;
  /** A person reads the questions: MCP servers may ask them to visit a page. */
  pageVisits?: boolean;
  /** Ask (a `trust` question) before loading settings a never-decided project had cut. */
  offerTrust?: boolean;
  /**
   * Wait for tool discovery (MCP servers, each bounded by its start timeout) and the model
   * server's context size before the first turn (default true). A person typing meanwhile
   * needs neither: tools arriving later are offered at the next request.
   */
  waitForTools?: boolean;
  /** Tell the model, with the next prompt, that the previous turn was cancelled. */
  noteAfterCancel?: boolean;
  /** Opens a proposed change in the person's editor (modify_with_editor). */
  editProposal?: (proposal: EditProposal) => Promise<string | undefined>;
  /** Load only this built-in tool now (the others when needed): one-call sessions. */
  onlyTool?: string;
  /** Called for events from the start (the trust question comes before `open` returns). */
  onEvent?: ConversationListener;
}

/** What `send` takes besides the prompt. */
export interface SendOptions {
  /** Parts sent after the prompt (images, PDFs, an editor's embedded resources). */
  attachments?: Part[];
  /** Text sent after the prompt and its `@` references (embedded resources' text). */
  extraText?: string[];
  /** Notes put before the prompt, not scanned for `@` references (what `!` commands did). */
  notes?: string[];
  /** False: the prompt's `@` references are left as text (it was attached already). */
  resolveReferences?: boolean;
  /** What the person typed, when it differs from what is sent (shown in `turn_started`). */
  shown?: string;
}

export type Question =
  | { kind: 'approval'; call: WaitingToolCall }
  /** An MCP server's question while its tool runs (form or page visit). */
  | { kind: 'elicitation'; call: WaitingToolCall }
  | { kind: 'trust'; offer: TrustOffer };

/** The answer to a question: a decision for approval and elicitation, a yes/no for trust. */
export type Answer = ConfirmationDecision | { trust: boolean };

export type TurnEndReason = AgentStopReason;

export interface TurnOutcome {
  turnId: number;
  reason: TurnEndReason;
  result: AgentRunResult;
  /** How the answer measured up to the output schema, when there is one. */
  structured?: StructuredOutcome;
  /** The model's last finish reason (`length`, `content_filter`, ...). */
  finishReason?: string;
}

/**
 * One stream of events. The agent loop's events pass through unchanged (text and thought
 * deltas, `tool_calls` with each call's state and display, `tool_output` progress,
 * `tool_results`, `compressed`, `checkpoint`, `notice`, `subagent`); the conversation adds
 * its own around them.
 */
export type ConversationEvent =
  | AgentEvent
  /** A prompt waits for the turns before it (`queued`: how many wait now). */
  | { type: 'prompt_queued'; turnId: number; queued: number }
  /** Its turn begins (tools discovered and the context size known, when waited for). */
  | { type: 'prompt_started'; turnId: number; shown: string }
  /** The turn ended, and why. */
  | { type: 'prompt_ended'; outcome: TurnOutcome }
  | { type: 'question'; id: string; question: Question }
  /** Calls run outside the model's turns (runCalls, `@` attachments) all ended. */
  | { type: 'calls_finished'; calls: CompletedToolCall[] }
  /** A question no longer waits (answered, or cancelled with its turn). */
  | { type: 'question_closed'; id: string }
  | { type: 'usage'; usage: TokenUsage; total: TokenUsage }
  | { type: 'todos'; todos: TodoItem[] }
  /** The plan exit_plan_mode presented was approved. */
  | { type: 'plan'; plan: string }
  | { type: 'warning'; message: string }
  | { type: 'error'; message: string };

export type ConversationListener = (event: ConversationEvent) => void;

const CONVERSATION_ONLY: ReadonlySet<string> = new Set([
  'calls_finished',
  'prompt_queued',
  'prompt_started',
  'prompt_ended',
  'question',
  'question_closed',
  'usage',
  'todos',
  'plan',
  'warning',
  'error',
]);

/** True for the agent loop's own events (what a printer of the loop's events reads). */
export function isAgentEvent(event: ConversationEvent): event is AgentEvent {
  return !CONVERSATION_ONLY.has(event.type);
}

/** The todo list a batch's results leave, when todo_write ran. */
export function todosOf(results: readonly AgentToolResult[]): TodoItem[] | undefined {
  let todos: TodoItem[] | undefined;
  for (const result of results) {
    const display = result.display;
    if (display && typeof display === 'object' && 'type' in display && display.type === 'todo_list')
      todos = display.todos;
  }
  return todos;
}

export type { PromptContent };
