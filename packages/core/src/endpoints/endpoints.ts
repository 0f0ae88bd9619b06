/**
 * Which model endpoint a session talks to, made from the merged settings: `model.*` (which
 * the environment's variables of the model's family and the command-line flags already
 * fill, config/model-environment.ts) or the `modelProviders` entry `model.name` picks
 * (model-catalog.ts), with the person's keys sent only where the person or a trusted project
 * named the endpoint (trust/endpoint-keys.ts). This folder owns turning settings into a
 * ModelEndpoint and the catalogue of configured models; it does not talk to a model (the
 * wire clients, retries and context windows are models/', which must not import this
 * folder), and it reads settings without loading or changing them (config/ does that).
 */
import type { Settings } from '../contract/settings-types.js';
import type { ModelEndpoint } from '../models/endpoint.js';
import type { EndpointSetting } from '../trust/endpoint-keys.js';
import { configuredModels } from './model-catalog.js';

export const HOW_TO_CONFIGURE_MODEL =
  'No model is configured: set OPENAI_MODEL and OPENAI_BASE_URL (and OPENAI_API_KEY if the endpoint needs one), ANTHROPIC_MODEL with ANTHROPIC_API_KEY, or GEMINI_MODEL with GEMINI_API_KEY; the settings model.provider, model.name, model.baseUrl and model.apiKey (or modelProviders); or the flags --model, --openai-base-url and --openai-api-key. Run toolhost in a terminal to be guided through it.';

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
