/**
 * One endpoint from settings: the endpoint `model.*` describes (the model that is not one
 * of the `modelProviders` entries, model-catalog.ts), and the defaults every endpoint made
 * from settings gets. A key of the person's is never paired with an address or a family an
 * untrusted project alone chose (trust/endpoint-keys.ts).
 */
import { SETTING_DEFAULTS, type Settings } from '../contract/settings-types.js';
import {
  contextWindowFor,
  knownContextWindow,
  type ModelEndpoint,
  type ThinkingLevel,
} from '../models/endpoint.js';
import {
  DEFAULT_BASE_URLS,
  inferProvider,
  type ModelProvider,
  providerFromName,
} from '../models/provider.js';
import { type EndpointSetting, personalKeyMayGo } from '../trust/endpoint-keys.js';

export const DEFAULT_TIMEOUT_MS = SETTING_DEFAULTS.model.timeout;

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
