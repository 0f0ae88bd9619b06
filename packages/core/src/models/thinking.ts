/**
 * Thinking on request (settings `model.thinking`, `--thinking`): what each family is asked
 * for at each level. Anthropic and Gemini take a token budget for thoughts; OpenAI's
 * reasoning models take an effort. `off` (the default) asks for nothing, so each model
 * thinks as its provider's default says.
 */
import type { ModelEndpoint } from './endpoint.js';

export type AskedThinking = 'low' | 'medium' | 'high';

/** Anthropic's `budget_tokens` (at least 1024, below max_tokens). */
export const ANTHROPIC_BUDGETS: Readonly<Record<AskedThinking, number>> = {
  low: 2_048,
  medium: 8_192,
  high: 24_576,
};

/** Gemini's `thinkingBudget`. */
export const GEMINI_BUDGETS: Readonly<Record<AskedThinking, number>> = {
  low: 1_024,
  medium: 8_192,
  high: 24_576,
};

/** The level asked for, or undefined when none is. */
export function askedThinking(endpoint: ModelEndpoint): AskedThinking | undefined {
  const level = endpoint.thinking;
  return level && level !== 'off' ? level : undefined;
}

/** Anthropic's thinking parameter for an answer of `maxTokens`, if one fits (budget >= 1024). */
export function anthropicThinking(
  level: AskedThinking | undefined,
  maxTokens: number,
): { type: 'enabled'; budget_tokens: number } | undefined {
  if (!level) return undefined;
  const budget = Math.min(ANTHROPIC_BUDGETS[level], maxTokens - 1_024);
  return budget >= 1_024 ? { type: 'enabled', budget_tokens: budget } : undefined;
}
