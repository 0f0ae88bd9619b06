/**
 * What a model client needs to know of the endpoint it talks to (the ModelEndpoint that
 * endpoints/ makes from settings), and how large the model's context window is: settings
 * first; else what the server says, learned by the model client before its first request
 * (context-window.ts); the name table below only until then, or when the server does not say.
 */
import { byModelPrefix } from './output-caps.js';
import { DEFAULT_BASE_URLS, type ModelProvider } from './provider.js';

export interface ModelEndpoint {
  /** The API family (default `openai`: Chat Completions). */
  provider?: ModelProvider;
  baseUrl: string;
  apiKey: string;
  model: string;
  contextWindow: number;
  /**
   * Where contextWindow comes from. `name` and `default` are guesses the model client
   * replaces with the server's own figure; left out, the given size is kept.
   */
  contextWindowSource?: 'settings' | 'server' | 'name' | 'default';
  /** `max_tokens` of every request (settings `model.maxOutputTokens`); else derived from the window. */
  maxOutputTokens?: number;
  /** How hard the model is asked to think (settings `model.thinking`); undefined or `off`: its default. */
  thinking?: ThinkingLevel;
  /** Per-request time limit until the answer starts, and the longest pause inside a stream. */
  timeoutMs: number;
  maxRetries: number;
  /** Extra headers for every request (a gateway's). */
  headers?: Record<string, string>;
}

export type ThinkingLevel = 'off' | 'low' | 'medium' | 'high';

export const DEFAULT_BASE_URL = DEFAULT_BASE_URLS.openai;
export const DEFAULT_CONTEXT_WINDOW = 32_768;

/** Known context windows by model-name prefix (longest prefix wins); the rest get the default. */
const CONTEXT_WINDOWS: ReadonlyArray<readonly [string, number]> = [
  ['gpt-4.1', 1_047_576],
  ['gpt-4o', 128_000],
  ['gpt-5', 400_000],
  ['o3', 200_000],
  ['o4-mini', 200_000],
  ['qwen3-coder-plus', 1_000_000],
  ['qwen3-coder', 262_144],
  ['qwen-max', 32_768],
  ['qwen-plus', 131_072],
  ['qwen-turbo', 1_000_000],
  ['qwen3', 131_072],
  ['qwen2.5-coder', 32_768],
  ['deepseek-chat', 131_072],
  ['deepseek-reasoner', 131_072],
  ['llama3.1', 131_072],
  ['llama3.2', 131_072],
  ['mistral', 32_768],
  ['claude', 200_000],
  ['gemini', 1_048_576],
];

export function contextWindowFor(model: string): number {
  return knownContextWindow(model) ?? DEFAULT_CONTEXT_WINDOW;
}

export function knownContextWindow(model: string): number | undefined {
  return byModelPrefix(CONTEXT_WINDOWS, model);
}

/**
 * The answer length asked for when settings name none: a quarter of the window, so that
 * compression (at 70%) leaves room for it, between 1k and 32k tokens. Servers such as
 * llama-server otherwise generate until the context is full.
 */
export function defaultMaxOutputTokens(contextWindow: number): number {
  return Math.min(32_768, Math.max(1_024, Math.floor(contextWindow / 4)));
}
