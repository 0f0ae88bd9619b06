/**
 * The model settings the environment gives, for the family the person's files and flags
 * chose (model.provider, Qwen Code's security.auth.selectedType, or what the address or
 * model name says): OPENAI_* for OpenAI-compatible endpoints, ANTHROPIC_* for Anthropic,
 * GEMINI_* (key also GOOGLE_API_KEY) for Gemini. With no family chosen, OPENAI_* first,
 * then a family whose model variable alone is set. A key is never read from another
 * family's variable: an OpenAI key does not go to Anthropic.
 */

import type { Settings } from '../contract/settings-types.js';
import {
  ENVIRONMENT_NAMES,
  firstSet,
  inferProvider,
  KEY_VARIABLES,
  type ModelProvider,
  providerFromName,
} from '../models/provider.js';

/** The family the settings choose, if they do. */
export function chosenProvider(settings: Settings): ModelProvider | undefined {
  const model = settings.model;
  return (
    model?.provider ??
    providerFromName(settings.security?.auth?.selectedType) ??
    inferProvider(model?.baseUrl, model?.name)
  );
}

export function modelFromEnvironment(
  env: NodeJS.ProcessEnv,
  below: Settings,
): NonNullable<Settings['model']> {
  let provider = chosenProvider(below);
  if (!provider) {
    const candidates: ModelProvider[] = ['openai', 'anthropic', 'gemini'];
    provider =
      candidates.find((family) => {
        const names = ENVIRONMENT_NAMES[family];
        return firstSet(env, [...names.model, ...names.baseUrl]);
      }) ?? 'openai';
  }
  const names = ENVIRONMENT_NAMES[provider];
  const model: NonNullable<Settings['model']> = {};
  const baseUrl = firstSet(env, names.baseUrl)?.value;
  const key = firstSet(env, KEY_VARIABLES[provider])?.value;
  const name = firstSet(env, names.model)?.value;
  if (baseUrl) model.baseUrl = baseUrl;
  if (key) model.apiKey = key;
  if (name) model.name = name;
  // Said with them, so that a family inferred differently above (a name a project sets)
  // never receives these values, the key above all.
  if (Object.keys(model).length > 0) model.provider = provider;
  return model;
}
