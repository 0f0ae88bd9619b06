/**
 * The models settings configure, for `/model` and for the session's start: every entry of
 * `modelProviders` (Qwen Code's shape: per family a list of `{id, name, baseUrl, envKey,
 * wireApi, generationConfig}`), and the model `model.*` describes when it is not one of
 * them. The active one is the entry whose id `model.name` names (of the family
 * `model.provider` or `security.auth.selectedType` names, if one does), else the model
 * `model.*` describes, else the first entry. An entry's key comes from its `apiKey`, else
 * its `envKey` variable, else its family's usual variable; never from `model.apiKey`.
 */
import type { ModelProviderEntry, Settings } from '../contract/settings-types.js';
import type { ModelEndpoint } from '../models/endpoint.js';
import {
  DEFAULT_BASE_URLS,
  firstSet,
  KEY_VARIABLES,
  MODEL_PROVIDERS,
  type ModelProvider,
  providerFromName,
} from '../models/provider.js';
import { type EndpointSetting, personalKeyMayGo } from '../trust/endpoint-keys.js';
import { endpointFor, endpointFromModelSettings } from './endpoint-settings.js';

export interface ConfiguredModel {
  /** `family:id`: what `/model` takes to pick it. */
  key: string;
  provider: ModelProvider;
  /** The name the API knows it by. */
  id: string;
  /** What `/model` shows. */
  label: string;
  description?: string;
  /** `modelProviders` (an entry), or `model` (the settings model.*). */
  source: 'modelProviders' | 'model';
  endpoint: ModelEndpoint;
  /** The variable its key should come from, when it is not set. */
  missingKey?: string;
}

export interface ModelCatalog {
  models: ConfiguredModel[];
  active: ConfiguredModel | undefined;
  /** Entries that cannot be used, said once to the person. */
  warnings: string[];
}

export function configuredModels(
  settings: Settings,
  untrusted: readonly EndpointSetting[] = [],
  env: NodeJS.ProcessEnv = process.env,
): ModelCatalog {
  const warnings: string[] = [];
  const entries = providerEntries(settings, untrusted, env, warnings);
  const chosen =
    settings.model?.provider ?? providerFromName(settings.security?.auth?.selectedType);
  const name = settings.model?.name?.trim();
  const fits = (model: ConfiguredModel) => !chosen || model.provider === chosen;
  const named = name ? entries.find((model) => model.id === name && fits(model)) : undefined;
  const fromSettings = named ? undefined : endpointFromModelSettings(settings, untrusted);
  const own: ConfiguredModel | undefined = fromSettings && {
    key: `${fromSettings.provider ?? 'openai'}:${fromSettings.model}`,
    provider: fromSettings.provider ?? 'openai',
    id: fromSettings.model,
    label: fromSettings.model,
    source: 'model',
    endpoint: fromSettings,
  };
  const models = own ? [own, ...entries.filter((model) => model.key !== own.key)] : entries;
  const active = named ?? own ?? entries.find(fits);
  return { models, active, warnings };
}

function providerEntries(
  settings: Settings,
  untrusted: readonly EndpointSetting[],
  env: NodeJS.ProcessEnv,
  warnings: string[],
): ConfiguredModel[] {
  const models: ConfiguredModel[] = [];
  const seen = new Set<string>();
  // Variables are the person's: they go only with entries the person (or a trusted project) wrote.
  const variablesMayGo = personalKeyMayGo(['modelProviders', 'providerProtocol'], untrusted);
  for (const [family, list] of Object.entries(settings.modelProviders ?? {})) {
    const mapped = settings.providerProtocol?.[family];
    for (const entry of list) {
      const provider = providerFromName(mapped ?? family, entry.wireApi);
      if (!provider) {
        warnings.push(
          `modelProviders.${family}: "${family}" is not a model family toolhost speaks (${MODEL_PROVIDERS.join(', ')}); map it to one with providerProtocol. Its models were left out.`,
        );
        break;
      }
      const model = entryModel(provider, entry, settings, variablesMayGo ? env : {});
      const identity = `${model.key} ${model.endpoint.baseUrl}`;
      if (seen.has(identity)) continue;
      seen.add(identity);
      models.push(model);
    }
  }
  return models;
}

function entryModel(
  provider: ModelProvider,
  entry: ModelProviderEntry,
  settings: Settings,
  env: NodeJS.ProcessEnv,
): ConfiguredModel {
  const variables = entry.envKey ? [entry.envKey] : KEY_VARIABLES[provider];
  const key = entry.apiKey || firstSet(env, variables)?.value;
  const generation = entry.generationConfig ?? {};
  const endpoint = endpointFor({
    provider,
    model: entry.id,
    baseUrl: entry.baseUrl?.trim() || DEFAULT_BASE_URLS[provider],
    apiKey: key || 'not-needed',
    contextWindow: generation.contextWindowSize,
    maxOutputTokens: generation.samplingParams?.max_tokens,
    thinking: settings.model?.thinking,
    timeoutMs: generation.timeout ?? settings.model?.timeout,
    maxRetries: generation.maxRetries ?? settings.model?.maxRetries,
    headers: generation.customHeaders,
  });
  return {
    key: `${provider}:${entry.id}`,
    provider,
    id: entry.id,
    label: entry.name || entry.id,
    ...(entry.description ? { description: entry.description } : {}),
    source: 'modelProviders',
    endpoint,
    ...(key ? {} : { missingKey: variables[0] }),
  };
}

/** The model `wanted` names: its `family:id`, its id, its label, or its number in the list (from 1). */
export function findModel(catalog: ModelCatalog, wanted: string): ConfiguredModel | undefined {
  const text = wanted.trim();
  const number = /^\d+$/.test(text) ? Number(text) : undefined;
  if (number !== undefined) return catalog.models[number - 1];
  const lower = text.toLowerCase();
  return (
    catalog.models.find((model) => model.key.toLowerCase() === lower) ??
    catalog.models.find((model) => model.id.toLowerCase() === lower) ??
    catalog.models.find((model) => model.label.toLowerCase() === lower)
  );
}
