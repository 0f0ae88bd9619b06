/**
 * The model API families toolhost speaks, and how one is chosen when settings do not name
 * it: from the endpoint's address (api.anthropic.com, generativelanguage.googleapis.com,
 * an `/anthropic` path), else from the model's name when no address is given.
 */

/**
 * `openai`: Chat Completions (every OpenAI-compatible server); `openai-responses`: OpenAI's
 * Responses API; `anthropic`: Anthropic Messages; `gemini`: the Gemini API.
 */
export type ModelProvider = 'openai' | 'openai-responses' | 'anthropic' | 'gemini';

export const MODEL_PROVIDERS: readonly ModelProvider[] = [
  'openai',
  'openai-responses',
  'anthropic',
  'gemini',
];

export const PROVIDER_LABELS: Readonly<Record<ModelProvider, string>> = {
  openai: 'OpenAI-compatible Chat Completions',
  'openai-responses': 'OpenAI Responses',
  anthropic: 'Anthropic Messages',
  gemini: 'Google Gemini',
};

export const DEFAULT_BASE_URLS: Readonly<Record<ModelProvider, string>> = {
  openai: 'https://api.openai.com/v1',
  'openai-responses': 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
  gemini: 'https://generativelanguage.googleapis.com',
};

/** Where each family's key is read from the environment, first set wins. */
export const KEY_VARIABLES: Readonly<Record<ModelProvider, readonly string[]>> = {
  openai: ['OPENAI_API_KEY'],
  'openai-responses': ['OPENAI_API_KEY'],
  anthropic: ['ANTHROPIC_API_KEY'],
  gemini: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
};

/** The environment variables naming each family's model and address. */
export const ENVIRONMENT_NAMES: Readonly<
  Record<ModelProvider, { model: readonly string[]; baseUrl: readonly string[] }>
> = {
  openai: { model: ['OPENAI_MODEL'], baseUrl: ['OPENAI_BASE_URL'] },
  'openai-responses': { model: ['OPENAI_MODEL'], baseUrl: ['OPENAI_BASE_URL'] },
  anthropic: { model: ['ANTHROPIC_MODEL'], baseUrl: ['ANTHROPIC_BASE_URL'] },
  gemini: { model: ['GEMINI_MODEL'], baseUrl: ['GOOGLE_GEMINI_BASE_URL'] },
};

export function isModelProvider(value: unknown): value is ModelProvider {
  return (MODEL_PROVIDERS as readonly unknown[]).includes(value);
}

/**
 * The family a name from settings stands for: toolhost's own names, and Qwen Code's auth
 * types and `wireApi` (an `openai` model with `wireApi: "responses"`).
 */
export function providerFromName(
  name: string | undefined,
  wireApi?: string,
): ModelProvider | undefined {
  if (name === 'openai' && wireApi === 'responses') return 'openai-responses';
  return isModelProvider(name) ? name : undefined;
}

/** The family an address or a model name points to, if either says. */
export function inferProvider(
  baseUrl: string | undefined,
  model: string | undefined,
): ModelProvider | undefined {
  if (baseUrl) {
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      return undefined;
    }
    if (url.hostname === 'api.anthropic.com') return 'anthropic';
    if (url.hostname === 'generativelanguage.googleapis.com') return 'gemini';
    // Anthropic-compatible gateways (DeepSeek, Moonshot, Zhipu) live under an /anthropic path.
    if (/\/anthropic(\/v1)?\/?$/.test(url.pathname)) return 'anthropic';
    return undefined;
  }
  const name = model?.toLowerCase().replace(/^models\//, '') ?? '';
  if (name.startsWith('claude')) return 'anthropic';
  if (name.startsWith('gemini')) return 'gemini';
  return undefined;
}

/** The first of `names` set (non-empty) in `env`. */
export function firstSet(
  env: NodeJS.ProcessEnv,
  names: readonly string[],
): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name];
    if (value) return { name, value };
  }
  return undefined;
}
