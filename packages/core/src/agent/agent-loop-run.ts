/** One run of the agent loop: its counters, limits and signal, and the result it ends with. */
import type { ChatMessage, ModelToolCall } from '../models/model-types.js';
import type { TokenUsage } from '../models/token-usage.js';
import type {
  AgentRunResult,
  AgentStopReason,
  AgentToolCall,
  PermissionDenial,
} from './agent-events.js';
import type { AgentLimits } from './agent-loop-options.js';

/**
 * The model's answer for the history: tool names as the model called them, arguments
 * written again from what was parsed. Servers that render a chat template (llama.cpp's
 * llama-server with --jinja) parse every call's arguments in every later request, so raw
 * text that is not a JSON object (a call cut off at the output limit) would make all of
 * them fail; such a call goes in as `{}`, and its result tells the model what it sent.
 */
export function assistantMessage(
  text: string,
  sent: ModelToolCall[],
  parsed: readonly AgentToolCall[],
): ChatMessage {
  return {
    role: 'assistant',
    content: text || null,
    ...(sent.length > 0
      ? {
          tool_calls: sent.map((call, index) => {
            const args = parsed[index];
            return {
              id: call.id,
              type: 'function' as const,
              function: {
                name: call.name,
                arguments:
                  args && args.malformedArguments === undefined ? JSON.stringify(args.args) : '{}',
              },
            };
          }),
        }
      : {}),
  };
}

/**
 * The history with every tool call's arguments a JSON object (the same array when they
 * all are): a session recorded before arguments were written again may hold raw text.
 */
export function withValidToolArguments(history: ChatMessage[]): ChatMessage[] {
  let repaired: ChatMessage[] | undefined;
  history.forEach((message, index) => {
    if (message.role !== 'assistant' || !message.tool_calls?.length) return;
    const calls = message.tool_calls.map((call) =>
      call.type === 'function' && !isJsonObject(call.function.arguments)
        ? { ...call, function: { ...call.function, arguments: '{}' } }
        : call,
    );
    if (calls.every((call, i) => call === message.tool_calls?.[i])) return;
    repaired ??= [...history];
    repaired[index] = { ...message, tool_calls: calls };
  });
  return repaired ?? history;
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** The counters, limits and signals of one run. */
export class RunState {
  readonly limits: Required<AgentLimits>;
  readonly signal: AbortSignal;
  readonly denials: PermissionDenial[] = [];
  readonly startedAt = Date.now();
  turns = 0;
  toolCalls = 0;
  wallTimeExceeded = false;
  /** The latest text the model wrote beside tool calls. */
  lastText = '';
  /** The person's prompt as it went into the history (taken out again if it is blocked). */
  prompt: ChatMessage | undefined;
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    limits: AgentLimits,
    signal: AbortSignal,
    private readonly usageAtStart: TokenUsage,
  ) {
    this.limits = {
      maxTurns: limits.maxTurns ?? Number.POSITIVE_INFINITY,
      maxToolCalls: limits.maxToolCalls ?? Number.POSITIVE_INFINITY,
      maxWallTimeMs: limits.maxWallTimeMs ?? Number.POSITIVE_INFINITY,
    };
    const wall = new AbortController();
    this.signal = AbortSignal.any([signal, wall.signal]);
    if (Number.isFinite(this.limits.maxWallTimeMs)) {
      this.timer = setTimeout(() => {
        this.wallTimeExceeded = true;
        wall.abort(new Error('wall-time limit'));
      }, this.limits.maxWallTimeMs);
    }
  }

  toolBudget(): number {
    return Math.max(0, this.limits.maxToolCalls - this.toolCalls);
  }

  finish(
    status: AgentStopReason,
    answer: string[],
    usage: TokenUsage,
    message?: string,
  ): AgentRunResult {
    return {
      status,
      text: answer.length > 0 ? answer.join('') : this.lastText,
      turns: this.turns,
      toolCalls: this.toolCalls,
      usage: subtractUsage(usage, this.usageAtStart),
      durationMs: Date.now() - this.startedAt,
      permissionDenials: this.denials,
      ...(message ? { message } : {}),
    };
  }

  /** The run ended by its signal: the wall-time limit, else cancelled. */
  stopped(answer: string[], usage: TokenUsage): AgentRunResult {
    if (this.wallTimeExceeded) {
      const seconds = Math.round(this.limits.maxWallTimeMs / 1000);
      return this.finish(
        'max_wall_time',
        answer,
        usage,
        `Stopped after ${seconds} s (the wall-time limit).`,
      );
    }
    return this.finish('cancelled', answer, usage, 'The run was cancelled.');
  }

  dispose(): void {
    clearTimeout(this.timer);
  }
}

function subtractUsage(total: TokenUsage, start: TokenUsage): TokenUsage {
  const cached = (total.cachedInputTokens ?? 0) - (start.cachedInputTokens ?? 0);
  const written = (total.cacheCreationInputTokens ?? 0) - (start.cacheCreationInputTokens ?? 0);
  return {
    inputTokens: total.inputTokens - start.inputTokens,
    outputTokens: total.outputTokens - start.outputTokens,
    ...(cached > 0 ? { cachedInputTokens: cached } : {}),
    ...(written > 0 ? { cacheCreationInputTokens: written } : {}),
    ...(total.estimated ? { estimated: true } : {}),
  };
}
