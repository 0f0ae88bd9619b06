/**
 * Learning the model's context window from the server that runs it, since a name says
 * little about the size a local server was started with (llama-server -c, vLLM
 * --max-model-len, Ollama num_ctx). Asked in this order, the first answer wins:
 * `GET /v1/models` (llama.cpp `meta.n_ctx`, vLLM `max_model_len`, LM Studio
 * `loaded_context_length`, OpenRouter `context_length`, Groq `context_window`), then
 * llama-server's `GET /props`, Ollama's `POST /api/show` and LM Studio's
 * `GET /api/v0/models` (`loaded_context_length`, `max_context_length`). Every question has a short
 * time limit and any failure just means "not learned": the caller falls back to the
 * name table. Settings (`model.contextWindow`) are never overridden.
 */

export interface LearnedContextWindow {
  tokens: number;
  /** Where it was read, for the person (`/v1/models meta.n_ctx`). */
  from: string;
}

interface Probe {
  baseUrl: string;
  model: string;
  apiKey: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const PROBE_TIMEOUT_MS = 3_000;

/** Fields of a `/v1/models` entry that give the serving context size, most specific first. */
const MODEL_ENTRY_FIELDS: ReadonlyArray<readonly [string, (entry: Entry) => unknown]> = [
  ['meta.n_ctx', (entry) => entry.meta?.n_ctx],
  ['max_model_len', (entry) => entry.max_model_len],
  ['loaded_context_length', (entry) => entry.loaded_context_length],
  ['context_length', (entry) => entry.context_length],
  ['context_window', (entry) => entry.context_window],
  ['max_context_length', (entry) => entry.max_context_length],
];

interface Entry {
  id?: unknown;
  meta?: { n_ctx?: unknown } | null;
  max_model_len?: unknown;
  loaded_context_length?: unknown;
  context_length?: unknown;
  context_window?: unknown;
  max_context_length?: unknown;
}

export async function learnContextWindow(probe: Probe): Promise<LearnedContextWindow | undefined> {
  const base = probe.baseUrl.replace(/\/+$/, '');
  // /props and /api/show live beside the OpenAI-compatible path, at the server's root.
  const root = base.replace(/\/v1$/, '');
  const fromModels = await fromModelList(probe, base);
  if (fromModels?.from.endsWith('meta.n_ctx')) {
    // llama-server splits its context among its slots (-np); /props gives one slot's share.
    const props = await fromProps(probe, root);
    return props && props.tokens < fromModels.tokens ? props : fromModels;
  }
  if (fromModels) return fromModels;
  const [props, ollama, lmStudio] = await Promise.all([
    fromProps(probe, root),
    fromOllama(probe, root),
    fromModelList(probe, `${root}/api/v0`),
  ]);
  return props ?? ollama ?? lmStudio;
}

/** An OpenAI-style model list: `/v1/models`, or LM Studio's own `/api/v0/models`. */
async function fromModelList(probe: Probe, base: string) {
  const list = (await getJson(probe, `${base}/models`)) as { data?: unknown } | undefined;
  if (!list || !Array.isArray(list.data)) return undefined;
  const entries = list.data as Entry[];
  const entry =
    entries.find((candidate) => candidate.id === probe.model) ??
    // llama-server serves one model whatever name is asked for.
    (entries.length === 1 ? entries[0] : undefined);
  if (!entry) return undefined;
  for (const [field, read] of MODEL_ENTRY_FIELDS) {
    const tokens = positive(read(entry));
    if (tokens) return { tokens, from: `${base.slice(base.lastIndexOf('/'))}/models ${field}` };
  }
  return undefined;
}

async function fromProps(probe: Probe, root: string) {
  const props = (await getJson(probe, `${root}/props`)) as
    | { default_generation_settings?: { n_ctx?: unknown }; n_ctx?: unknown }
    | undefined;
  const tokens = positive(props?.default_generation_settings?.n_ctx ?? props?.n_ctx);
  return tokens ? { tokens, from: '/props n_ctx' } : undefined;
}

/** Ollama applies `num_ctx` when the model sets it; else the model's own length is the best known. */
async function fromOllama(probe: Probe, root: string) {
  const show = (await getJson(probe, `${root}/api/show`, { model: probe.model })) as
    | { parameters?: unknown; model_info?: Record<string, unknown> }
    | undefined;
  if (!show) return undefined;
  const numCtx =
    typeof show.parameters === 'string'
      ? positive(Number(/^\s*num_ctx\s+(\d+)/m.exec(show.parameters)?.[1]))
      : undefined;
  if (numCtx) return { tokens: numCtx, from: '/api/show num_ctx' };
  for (const [key, value] of Object.entries(show.model_info ?? {})) {
    const tokens = key.endsWith('.context_length') ? positive(value) : undefined;
    if (tokens) return { tokens, from: `/api/show ${key}` };
  }
  return undefined;
}

async function getJson(probe: Probe, url: string, post?: unknown): Promise<unknown> {
  const signals = [AbortSignal.timeout(probe.timeoutMs ?? PROBE_TIMEOUT_MS)];
  if (probe.signal) signals.push(probe.signal);
  try {
    const response = await (probe.fetch ?? fetch)(url, {
      method: post ? 'POST' : 'GET',
      headers: {
        authorization: `Bearer ${probe.apiKey}`,
        ...(post ? { 'content-type': 'application/json' } : {}),
      },
      ...(post ? { body: JSON.stringify(post) } : {}),
      signal: AbortSignal.any(signals),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    return await response.json();
  } catch {
    return undefined;
  }
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}
