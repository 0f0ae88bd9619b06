/** One run of the agent loop: its counters, limits and signal, and the result it ends with. */
import type { ChatMessage, ModelToolCall } from '../models/model-types.js';
import type { TokenUsage } from '../models/token-usage.js';
import type { AgentRunResult, AgentStopReason, PermissionDenial } from './agent-events.js';
import type { AgentLimits } from './agent-loop-options.js';

/** The model's answer as it sent it (tool names and arguments untouched). */
export function assistantMessage(text: string, calls: ModelToolCall[]): ChatMessage {
  return {
    role: 'assistant',
    content: text || null,
    ...(calls.length > 0
      ? {
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.name, arguments: call.arguments },
          })),
        }
      : {}),
  };
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

  dispose(): void {
    clearTimeout(this.timer);
  }
}

function subtractUsage(total: TokenUsage, start: TokenUsage): TokenUsage {
  const cached = (total.cachedInputTokens ?? 0) - (start.cachedInputTokens ?? 0);
  return {
    inputTokens: total.inputTokens - start.inputTokens,
    outputTokens: total.outputTokens - start.outputTokens,
    ...(cached > 0 ? { cachedInputTokens: cached } : {}),
    ...(total.estimated ? { estimated: true } : {}),
  };
}
