/** What an agent loop is made with: its parts, its limits and the hooks front ends give it. */
import type { Config } from '../config/config.js';
import type { HookRunner } from '../hooks/hook-runner.js';
import type { ModelClient } from '../models/model-client.js';
import type { ChatMessage } from '../models/model-types.js';
import type { UsageTracker } from '../models/token-usage.js';
import type {
  ConfirmationDecision,
  EditProposal,
  WaitingToolCall,
} from '../scheduler/tool-call-types.js';
import type { DeferredTools } from '../tools/deferred-tools.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { AgentEventListener } from './agent-events.js';
import type { CheckpointHook } from './checkpoints/checkpointer.js';
import type { ConversationRecorder } from './conversation-recorder.js';
import type { LoopDetectionOptions } from './loop-detection.js';

export interface AgentLimits {
  /** Model requests in one run. */
  maxTurns?: number;
  /** Tool calls executed in one run. */
  maxToolCalls?: number;
  /** Milliseconds one run may take. */
  maxWallTimeMs?: number;
}

/**
 * The limits of the main agent's runs: the front end's (flags) over the settings'
 * (model.maxSessionTurns, model.maxToolCalls, model.maxWallTimeSeconds; -1 is no limit).
 */
export function limitsWithSettings(config: Config, given: AgentLimits = {}): AgentLimits {
  const model = config.settings.model ?? {};
  const set = (value: number | undefined) =>
    value !== undefined && value >= 0 ? value : undefined;
  const turns = set(model.maxSessionTurns);
  const toolCalls = set(model.maxToolCalls);
  const seconds = set(model.maxWallTimeSeconds);
  return {
    ...(turns !== undefined ? { maxTurns: turns } : {}),
    ...(toolCalls !== undefined ? { maxToolCalls: toolCalls } : {}),
    ...(seconds !== undefined ? { maxWallTimeMs: seconds * 1000 } : {}),
    ...given,
  };
}

/** Shrinks the history when it nears the context window; see compression.ts. */
export interface HistoryCompressor {
  /** With `force`, compresses whatever the size (the person asked for it). */
  compressIfNeeded(
    history: ChatMessage[],
    systemPrompt: string,
    signal: AbortSignal,
    force?: boolean,
    /** Called once it is decided to compress, before the summary is asked for (PreCompact). */
    beforeCompress?: () => Promise<void>,
  ): Promise<{ history: ChatMessage[]; tokensBefore: number; tokensAfter: number } | undefined>;
  /** Tells it the exact prompt size the endpoint reported for the current history. */
  observePromptTokens(history: ChatMessage[], inputTokens: number): void;
}

export interface AgentLoopOptions {
  config: Config;
  registry: ToolRegistry;
  model: ModelClient;
  systemPrompt: string;
  limits?: AgentLimits;
  onEvent?: AgentEventListener;
  /** Asks the person about a call; without it, calls that need approval are refused. */
  onConfirmationRequest?: (call: WaitingToolCall) => Promise<ConfirmationDecision>;
  /** Opens a proposed change in the person's editor (`modify_with_editor`); see the scheduler. */
  editProposal?: (proposal: EditProposal) => Promise<string | undefined>;
  /** The conversation so far (a resumed saved session). */
  history?: ChatMessage[];
  /** The conversation's usage; a subagent shares its parent's. */
  usage?: UsageTracker;
  recorder?: ConversationRecorder;
  compressor?: HistoryCompressor;
  loopDetection?: LoopDetectionOptions;
  /** A model name other than the endpoint's (a subagent's `model`). */
  modelName?: string;
  /** Snapshots the files before each batch that may change them; none when omitted. */
  checkpoints?: CheckpointHook;
  /** Holds back MCP declarations past the budget (tool_search finds them); all declared when omitted. */
  deferredTools?: DeferredTools;
  /** The hooks (hooks/): prompts, stops, compaction and every call go through them. */
  hooks?: HookRunner;
  /** This loop runs the subagent of this name: its end is SubagentStop, not Stop. */
  subagent?: string;
}
