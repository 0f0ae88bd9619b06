/**
 * What the agent loop tells a front end while it works: streamed text and thinking, each
 * model answer, the states of tool calls, their results, and notices. A terminal UI, the
 * headless printer and a subagent's parent all subscribe to the same events.
 */

import type { ModelStop } from '../models/model-types.js';
import type { TokenUsage } from '../models/token-usage.js';
import type { ToolCall } from '../scheduler/tool-call-types.js';
import type { ToolResultDisplay } from '../tools/tools.js';
import type { Checkpoint } from './checkpoints/checkpoint-types.js';

/** A tool call as the model sent it, with its arguments parsed when they were valid JSON. */
export interface AgentToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** The raw text, when the arguments were not a JSON object. */
  malformedArguments?: string;
  /** The answer ended at the output token limit while these arguments were being written. */
  cutOff?: boolean;
}

export interface AgentToolResult {
  callId: string;
  name: string;
  args: Record<string, unknown>;
  status: 'success' | 'error' | 'cancelled';
  /** What the model receives, as text (media are attached separately). */
  content: string;
  display: ToolResultDisplay | undefined;
  errorType?: string;
}

export interface PermissionDenial {
  toolName: string;
  toolUseId: string;
  toolInput: Record<string, unknown>;
}

export type AgentStopReason =
  | 'success'
  | 'max_turns'
  | 'max_tool_calls'
  | 'max_wall_time'
  | 'loop_detected'
  | 'cancelled'
  /** The model declined to answer (Anthropic's `refusal` stop, an OpenAI refusal). */
  | 'refusal'
  /** A safety system stopped the answer or blocked the prompt (Gemini SAFETY, content_filter). */
  | 'safety'
  | 'error';

export interface AgentRunResult {
  status: AgentStopReason;
  /** The final answer (or the last text the model gave before the run stopped). */
  text: string;
  /** Model requests made in this run. */
  turns: number;
  /** Tool calls executed in this run. */
  toolCalls: number;
  /** Usage of this run, subagents and side requests included. */
  usage: TokenUsage;
  durationMs: number;
  permissionDenials: PermissionDenial[];
  /** Why the run stopped, for every status but success. */
  message?: string;
  /** With `refusal` and `safety`: the provider's reason, as it named it. */
  stop?: ModelStop;
}

export type AgentEvent =
  | { type: 'turn_started'; turn: number }
  | { type: 'text'; text: string }
  | { type: 'thinking'; text: string }
  | { type: 'retry'; attempt: number; delayMs: number; reason: string }
  | {
      type: 'assistant';
      text: string;
      thinking: string;
      toolCalls: AgentToolCall[];
      usage: TokenUsage;
      finishReason: string | undefined;
    }
  | { type: 'tool_calls'; calls: readonly ToolCall[] }
  | { type: 'tool_output'; callId: string; output: string }
  | { type: 'tool_results'; results: AgentToolResult[] }
  | { type: 'compressed'; tokensBefore: number; tokensAfter: number; automatic: boolean }
  | { type: 'notice'; level: 'info' | 'warning'; message: string }
  /** The files were snapshotted before a batch that may change them (toolhost restore). */
  | { type: 'checkpoint'; checkpoint: Checkpoint }
  /**
   * Something a subagent did. `taskId` tells apart subagents running side by side, and
   * `parentCallId` is the `task` call that started it (when the scheduler ran that call);
   * the task call's own live output (tool_output) carries a summary of the same progress.
   */
  | {
      type: 'subagent';
      taskId: string;
      parentCallId?: string;
      subagent: string;
      /** The color its file names (Qwen Code's `color`), for front ends. */
      color?: string;
      description: string;
      event: AgentEvent;
    }
  | { type: 'finished'; result: AgentRunResult };

export type AgentEventListener = (event: AgentEvent) => void;
