/**
 * The message events `-o json` and `-o stream-json` print: the shapes Qwen Code and Claude
 * Code print headless (system/init, assistant, user with tool results, result), so
 * scripts written for them read toolhost's output unchanged. A subagent's messages carry
 * the id of the `task` call that ran it in `parent_tool_use_id` (null for the main agent's).
 */
import type {
  AgentRunResult,
  AgentStopReason,
  AgentToolCall,
  AgentToolResult,
  PermissionDenial,
} from '@toolhost/core/internal/agent/agent-events.js';
import type { TokenUsage } from '@toolhost/core/internal/models/token-usage.js';

export interface JsonUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number;
}

export function jsonUsage(usage: TokenUsage): JsonUsage {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    ...(usage.cachedInputTokens ? { cache_read_input_tokens: usage.cachedInputTokens } : {}),
  };
}

export function initEvent(init: {
  sessionId: string;
  cwd: string;
  tools: string[];
  mcpServers: { name: string; status: string }[];
  model: string;
  permissionMode: string;
}) {
  return {
    type: 'system',
    subtype: 'init',
    session_id: init.sessionId,
    cwd: init.cwd,
    tools: init.tools,
    mcp_servers: init.mcpServers,
    model: init.model,
    permission_mode: init.permissionMode,
  };
}

export function assistantEvent(
  sessionId: string,
  model: string,
  text: string,
  calls: AgentToolCall[],
  usage: TokenUsage,
  parentToolUseId: string | null = null,
) {
  const content: Array<Record<string, unknown>> = [];
  if (text) content.push({ type: 'text', text });
  for (const call of calls) {
    content.push({
      type: 'tool_use',
      id: call.id,
      name: call.name,
      input: call.malformedArguments !== undefined ? {} : call.args,
    });
  }
  return {
    type: 'assistant',
    session_id: sessionId,
    parent_tool_use_id: parentToolUseId,
    message: { role: 'assistant', model, content, usage: jsonUsage(usage) },
  };
}

export function toolResultsEvent(
  sessionId: string,
  results: AgentToolResult[],
  parentToolUseId: string | null = null,
) {
  return {
    type: 'user',
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
  subagentDenials: PermissionDenial[] = [],
) {
  const isError = result.status !== 'success';
  return {
    type: 'result',
    subtype: SUBTYPES[result.status],
    is_error: isError,
    result: isError && !result.text ? (result.message ?? '') : result.text,
    ...(isError && result.message ? { error: result.message } : {}),
    session_id: sessionId,
    num_turns: result.turns,
    duration_ms: result.durationMs,
    usage: jsonUsage(sessionUsage),
    permission_denials: [...result.permissionDenials, ...subagentDenials].map((denial) => ({
      tool_name: denial.toolName,
      tool_use_id: denial.toolUseId,
      tool_input: denial.toolInput,
    })),
  };
}
