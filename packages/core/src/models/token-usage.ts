/** Token counts as the endpoint reports them, or estimated from text when it sends none. */

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens the endpoint served from its prompt cache, when it says so. */
  cachedInputTokens?: number;
  /** Input tokens written to the prompt cache by this request (Anthropic reports them). */
  cacheCreationInputTokens?: number;
  /** True when at least one count was estimated rather than reported. */
  estimated?: boolean;
}

export const ZERO_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0 };

/** Roughly four characters a token for English text and code: good enough for budgets. */
const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Estimates the tokens of anything JSON-serialisable (messages, tool declarations). */
export function estimateJsonTokens(value: unknown): number {
  return estimateTokens(JSON.stringify(value) ?? '');
}

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  const cached = (a.cachedInputTokens ?? 0) + (b.cachedInputTokens ?? 0);
  const written = (a.cacheCreationInputTokens ?? 0) + (b.cacheCreationInputTokens ?? 0);
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    ...(cached > 0 ? { cachedInputTokens: cached } : {}),
    ...(written > 0 ? { cacheCreationInputTokens: written } : {}),
    ...(a.estimated || b.estimated ? { estimated: true } : {}),
  };
}

/** Usage for a session: every request of the main loop and of its subagents and side requests. */
export class UsageTracker {
  private total: TokenUsage = { ...ZERO_USAGE };
  private requestCount = 0;

  add(usage: TokenUsage): void {
    this.total = addUsage(this.total, usage);
    this.requestCount++;
  }

  get usage(): TokenUsage {
    return { ...this.total };
  }

  get requests(): number {
    return this.requestCount;
  }
}
