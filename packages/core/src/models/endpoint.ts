/**
 * Which model endpoint a session talks to, from the merged settings (`model.*`, which the
 * environment's OPENAI_* variables and the command-line flags already fill), and how large
 * the model's context window is.
 */
import { SETTING_DEFAULTS, type Settings } from '../config/settings-types.js';
import { type EndpointSetting, personalKeyMayGo } from '../trust/endpoint-keys.js';

export interface ModelEndpoint {
  baseUrl: string;
  apiKey: string;
  model: string;
  contextWindow: number;
  /** Per-request time limit until the answer starts, and the longest pause inside a stream. */
  timeoutMs: number;
  maxRetries: number;
}

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_CONTEXT_WINDOW = 32_768;
export const DEFAULT_TIMEOUT_MS = SETTING_DEFAULTS.model.timeout;

export const HOW_TO_CONFIGURE_MODEL =
  'No model is configured: set OPENAI_MODEL and OPENAI_BASE_URL (and OPENAI_API_KEY if the endpoint needs one), the settings model.name, model.baseUrl and model.apiKey, or the flags --model, --openai-base-url and --openai-api-key.';

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
  const name = model.toLowerCase().replace(/^.*\//, '');
  let best: readonly [string, number] | undefined;
  for (const entry of CONTEXT_WINDOWS) {
    if (name.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best?.[1] ?? DEFAULT_CONTEXT_WINDOW;
}

/**
 * The endpoint, or undefined when no model is configured. `untrusted` lists the endpoint
 * settings an untrusted project alone named (Config.untrustedEndpoints): a key of the
 * person's is never paired with a base URL such a project chose.
 */
export function resolveEndpoint(
  settings: Settings,
  untrusted: readonly EndpointSetting[] = [],
): ModelEndpoint | undefined {
  const model = settings.model;
  const name = model?.name?.trim();
  if (!name || (!model?.baseUrl && !model?.apiKey)) return undefined;
  const keyMayGo =
    personalKeyMayGo(['model.baseUrl'], untrusted) ||
    !personalKeyMayGo(['model.apiKey'], untrusted);
  return {
    baseUrl: model.baseUrl?.trim() || DEFAULT_BASE_URL,
    // Local servers (Ollama, llama.cpp, vLLM) need no key, but the client needs a value.
    apiKey: (keyMayGo && model.apiKey) || 'not-needed',
    model: name,
    contextWindow: model.contextWindow ?? contextWindowFor(name),
    timeoutMs: model.timeout ?? DEFAULT_TIMEOUT_MS,
    maxRetries: model.maxRetries ?? SETTING_DEFAULTS.model.maxRetries,
  };
}
