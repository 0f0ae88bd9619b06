/**
 * The message events `-o json` and `-o stream-json` print: the shapes Qwen Code and Claude
 * Code print headless (system/init, assistant, user with tool results, result), so
 * scripts written for them read toolhost's output unchanged. A subagent's messages carry
 * the id of the `task` call that ran it in `parent_tool_use_id` (null for the main agent's).
 * Every event has its own `uuid`; an assistant message's `message.id` is the one its
 * partial `stream_event`s carried (partial-messages.ts).
 */
import { randomUUID } from 'node:crypto';
import type {
  AgentRunResult,
  AgentStopReason,
  AgentToolCall,
  AgentToolResult,
  PermissionDenial,
  TokenUsage,
} from '@toolhost/core/conversation';
import type { StructuredOutcome } from './structured-output.js';

export interface JsonUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  cache_read_input_tokens: number;
  /** Tokens written to the prompt cache: Anthropic reports them; 0 for the others, present for the readers that sum it. */
  cache_creation_input_tokens: number;
}

export function jsonUsage(usage: TokenUsage): JsonUsage {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    cache_read_input_tokens: usage.cachedInputTokens ?? 0,
    cache_creation_input_tokens: usage.cacheCreationInputTokens ?? 0,
  };
}

/** The endpoint's finish reason in the words Claude's and Qwen Code's readers expect. */
const STOP_REASONS: Record<string, string> = {
  stop: 'end_turn',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  length: 'max_tokens',
};

export function stopReason(finishReason: string | undefined): string | null {
  if (!finishReason) return null;
  return STOP_REASONS[finishReason] ?? finishReason;
}

export function initEvent(init: {
  sessionId: string;
  cwd: string;
  tools: string[];
  mcpServers: { name: string; status: string }[];
  model: string;
  permissionMode: string;
  slashCommands: string[];
  agents: string[];
  version: string;
}) {
  return {
    type: 'system',
    subtype: 'init',
    uuid: randomUUID(),
    session_id: init.sessionId,
    cwd: init.cwd,
    tools: init.tools,
    mcp_servers: init.mcpServers,
    model: init.model,
    permission_mode: init.permissionMode,
    slash_commands: init.slashCommands,
    agents: init.agents,
    toolhost_version: init.version,
    version: init.version,
  };
}

export interface AssistantMessage {
  /** The id its partial stream events carried. */
  id: string;
  text: string;
  calls: AgentToolCall[];
  usage: TokenUsage;
  finishReason: string | undefined;
}

export function assistantEvent(
  sessionId: string,
  model: string,
  answer: AssistantMessage,
  parentToolUseId: string | null = null,
) {
  const content: Array<Record<string, unknown>> = [];
  if (answer.text) content.push({ type: 'text', text: answer.text });
  for (const call of answer.calls) {
    content.push({
      type: 'tool_use',
      id: call.id,
      name: call.name,
      input: call.malformedArguments !== undefined ? {} : call.args,
    });
  }
  const stop = stopReason(answer.finishReason);
  return {
    type: 'assistant',
    uuid: randomUUID(),
    session_id: sessionId,
    parent_tool_use_id: parentToolUseId,
    message: {
      id: answer.id,
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: stop,
      stop_sequence: null,
      usage: jsonUsage(answer.usage),
    },
  };
}

export function toolResultsEvent(
  sessionId: string,
  results: AgentToolResult[],
  parentToolUseId: string | null = null,
) {
  return {
    type: 'user',
    uuid: randomUUID(),
    session_id: sessionId,
    parent_tool_use_id: parentToolUseId,
    message: {
      role: 'user',
      content: results.map((result) => ({
        type: 'tool_result',
        tool_use_id: result.callId,
        is_error: result.status !== 'success',
        content: result.content,
      })),
    },
  };
}

const SUBTYPES: Record<AgentStopReason, string> = {
  success: 'success',
  max_turns: 'error_max_turns',
  max_tool_calls: 'error_during_execution',
  max_wall_time: 'error_during_execution',
  loop_detected: 'error_during_execution',
  cancelled: 'error_during_execution',
  refusal: 'error_refusal',
  safety: 'error_safety',
  error: 'error_during_execution',
};

/**
 * The run's closing event. `subagentDenials` are the calls subagents were refused (nobody
 * could approve them either), listed with the main agent's.
 */
export function resultEvent(
  sessionId: string,
  result: AgentRunResult,
  sessionUsage: TokenUsage,
  apiMs: number,
  subagentDenials: PermissionDenial[] = [],
  /** With `--json-schema`: the validated answer, or why it never validated. */
  structured?: StructuredOutcome,
) {
  const isError = result.status !== 'success';
  return {
    type: 'result',
    subtype:
      structured && !structured.ok
        ? 'error_max_structured_output_retries'
        : SUBTYPES[result.status],
    uuid: randomUUID(),
    is_error: isError,
    result: isError && !result.text ? (result.message ?? '') : result.text,
    ...(isError && result.message ? { error: result.message } : {}),
    // A refusal or safety stop: the provider's reason as it named it.
    ...(result.stop ? { stop_reason: result.stop.reason } : {}),
    ...(structured?.ok ? { structured_output: structured.value } : {}),
    session_id: sessionId,
    num_turns: result.turns,
    duration_ms: result.durationMs,
    // Time spent waiting on the model; never above the run's own duration.
    duration_api_ms: Math.min(Math.round(apiMs), result.durationMs),
    usage: jsonUsage(sessionUsage),
    permission_denials: [...result.permissionDenials, ...subagentDenials].map((denial) => ({
      tool_name: denial.toolName,
      tool_use_id: denial.toolUseId,
      tool_input: denial.toolInput,
    })),
  };
}
