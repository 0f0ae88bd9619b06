/**
 * Which model endpoint a session talks to, from the merged settings (`model.*`, which the
 * environment's variables of the model's family and the command-line flags already fill, or
 * the `modelProviders` entry `model.name` picks: model-catalog.ts), and how large
 * the model's context window is: settings first; else what the server says, learned by the
 * model client before its first request (context-window.ts); the name table below only
 * until then, or when the server does not say.
 */
import { SETTING_DEFAULTS, type Settings } from '../contract/settings-types.js';
import { type EndpointSetting, personalKeyMayGo } from '../trust/endpoint-keys.js';
import { configuredModels } from './model-catalog.js';
import { byModelPrefix } from './output-caps.js';
import {
  DEFAULT_BASE_URLS,
  inferProvider,
  type ModelProvider,
  providerFromName,
} from './provider.js';

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
export const DEFAULT_TIMEOUT_MS = SETTING_DEFAULTS.model.timeout;

export const HOW_TO_CONFIGURE_MODEL =
  'No model is configured: set OPENAI_MODEL and OPENAI_BASE_URL (and OPENAI_API_KEY if the endpoint needs one), ANTHROPIC_MODEL with ANTHROPIC_API_KEY, or GEMINI_MODEL with GEMINI_API_KEY; the settings model.provider, model.name, model.baseUrl and model.apiKey (or modelProviders); or the flags --model, --openai-base-url and --openai-api-key. Run toolhost in a terminal to be guided through it.';

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

/**
 * The endpoint of the active model, or undefined when no model is configured (see
 * model-catalog.ts for how settings name it). `untrusted` lists the endpoint settings an
 * untrusted project alone named (Config.untrustedEndpoints): a key of the person's is never
 * paired with an address or a family such a project chose.
 */
export function resolveEndpoint(
  settings: Settings,
  untrusted: readonly EndpointSetting[] = [],
  env: NodeJS.ProcessEnv = process.env,
): ModelEndpoint | undefined {
  return configuredModels(settings, untrusted, env).active?.endpoint;
}

/** The endpoint `model.*` describes (the model not listed in modelProviders), if complete. */
export function endpointFromModelSettings(
  settings: Settings,
  untrusted: readonly EndpointSetting[],
): ModelEndpoint | undefined {
  const model = settings.model;
  const name = model?.name?.trim();
  const chosen = model?.provider ?? providerFromName(settings.security?.auth?.selectedType);
  if (!name || (!model?.baseUrl && !model?.apiKey && !chosen)) return undefined;
  const provider = chosen ?? inferProvider(model?.baseUrl, name) ?? 'openai';
  const keyMayGo =
    personalKeyMayGo(
      ['model.baseUrl', 'model.provider', 'security.auth.selectedType'],
      untrusted,
    ) || !personalKeyMayGo(['model.apiKey'], untrusted);
  return endpointFor({
    provider,
    model: name,
    baseUrl: model?.baseUrl?.trim() || DEFAULT_BASE_URLS[provider],
    // Local servers (Ollama, llama.cpp, vLLM) need no key, but the client needs a value.
    apiKey: (keyMayGo && model?.apiKey) || 'not-needed',
    contextWindow: model?.contextWindow,
    maxOutputTokens: model?.maxOutputTokens,
    thinking: model?.thinking,
    timeoutMs: model?.timeout,
    maxRetries: model?.maxRetries,
  });
}

/** An endpoint with the defaults filled in. */
export function endpointFor(fields: {
  provider: ModelProvider;
  model: string;
  baseUrl: string;
  apiKey: string;
  contextWindow?: number | undefined;
  maxOutputTokens?: number | undefined;
  thinking?: ThinkingLevel | undefined;
  timeoutMs?: number | undefined;
  maxRetries?: number | undefined;
  headers?: Record<string, string> | undefined;
}): ModelEndpoint {
  const name = fields.model;
  return {
    provider: fields.provider,
    baseUrl: fields.baseUrl,
    apiKey: fields.apiKey,
    model: name,
    contextWindow: fields.contextWindow ?? contextWindowFor(name),
    contextWindowSource: fields.contextWindow
      ? 'settings'
      : knownContextWindow(name)
        ? 'name'
        : 'default',
    ...(fields.maxOutputTokens ? { maxOutputTokens: fields.maxOutputTokens } : {}),
    ...(fields.thinking && fields.thinking !== 'off' ? { thinking: fields.thinking } : {}),
    timeoutMs: fields.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: fields.maxRetries ?? SETTING_DEFAULTS.model.maxRetries,
    ...(fields.headers && Object.keys(fields.headers).length > 0
      ? { headers: fields.headers }
      : {}),
  };
}
