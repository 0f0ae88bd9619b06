/**
 * Web search providers. Each speaks its service's own API; base URLs can be overridden in
 * settings (`webSearch.baseUrl`), API keys come from the environment it is handed. Whether
 * the person's keys may go to the provider settings chose is decided before, by the caller
 * (tools/web-search-setup.ts, with trust/endpoint-keys.ts): this file takes what it needs
 * as parameters and reads no settings of its own.
 */
import type { request } from 'undici';
import type { Settings } from '../contract/settings-types.js';

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

export interface SearchResponse {
  /** A direct answer, for providers that give one. */
  answer?: string;
  results: SearchResult[];
}

export interface SearchProvider {
  readonly name: string;
  search(query: string, signal: AbortSignal): Promise<SearchResponse>;
}

export class WebSearchError extends Error {}

export type ProviderName = 'tavily' | 'google' | 'brave' | 'searxng';

const DEFAULT_BASE_URLS: Record<Exclude<ProviderName, 'searxng'>, string> = {
  tavily: 'https://api.tavily.com',
  google: 'https://www.googleapis.com',
  brave: 'https://api.search.brave.com',
};

export type SearchSetup =
  | { configured: true; provider: SearchProvider }
  | { configured: false; reason: string };

/** The `webSearch` settings once a provider is chosen. */
export type ChosenSearch = NonNullable<Settings['webSearch']> & { provider: ProviderName };

/**
 * The provider `web` names, with its key (or instance) from `env`, or why it cannot be set
 * up (a key or address missing).
 */
export function searchProviderFor(
  web: ChosenSearch,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): SearchSetup {
  const missing = (what: string) => ({
    configured: false as const,
    reason: `web_search is off: webSearch.provider is ${web.provider} but ${what} is not set.`,
  });
  const http = (name: string) => new JsonClient(name, timeoutMs);
  switch (web.provider) {
    case 'tavily': {
      const key = env.TAVILY_API_KEY;
      if (!key) return missing('TAVILY_API_KEY');
      return {
        configured: true,
        provider: new TavilyProvider(http('Tavily'), web.baseUrl ?? DEFAULT_BASE_URLS.tavily, key),
      };
    }
    case 'google': {
      const key = env.GOOGLE_API_KEY;
      const engine = web.searchEngineId ?? env.GOOGLE_CSE_ID;
      if (!key) return missing('GOOGLE_API_KEY');
      if (!engine)
        return missing('the search engine id (webSearch.searchEngineId or GOOGLE_CSE_ID)');
      return {
        configured: true,
        provider: new GoogleProvider(
          http('Google Programmable Search'),
          web.baseUrl ?? DEFAULT_BASE_URLS.google,
          key,
          engine,
        ),
      };
    }
    case 'brave': {
      const key = env.BRAVE_API_KEY;
      if (!key) return missing('BRAVE_API_KEY');
      return {
        configured: true,
        provider: new BraveProvider(
          http('Brave Search'),
          web.baseUrl ?? DEFAULT_BASE_URLS.brave,
          key,
        ),
      };
    }
    case 'searxng': {
      const base = web.baseUrl ?? env.SEARXNG_URL;
      if (!base) return missing('webSearch.baseUrl (the address of your SearXNG instance)');
      return { configured: true, provider: new SearxngProvider(http('SearXNG'), base) };
    }
  }
}

/** JSON over HTTP with a time limit and errors worded for the model. */
class JsonClient {
  constructor(
    readonly service: string,
    private readonly timeoutMs: number,
  ) {}

  async call(
    url: string,
    init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string },
    signal: AbortSignal,
    keyName?: string,
  ): Promise<unknown> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const combined = anySignal(signal, timeout);
    let response: Awaited<ReturnType<typeof request>>;
    try {
      const { request } = await import('undici');
      response = await request(url, {
        method: init.method ?? 'GET',
        headers: { accept: 'application/json', ...init.headers },
        body: init.body,
        signal: combined,
      });
    } catch (error) {
      if (timeout.aborted)
        throw new WebSearchError(
          `${this.service} did not answer within ${this.timeoutMs / 1000} s; try again later.`,
        );
      if (signal.aborted) throw new WebSearchError('The search was cancelled.');
      throw new WebSearchError(`${this.service} could not be reached: ${(error as Error).message}`);
    }
    let text: string;
    try {
      text = await response.body.text();
    } catch (error) {
      if (timeout.aborted)
        throw new WebSearchError(
          `${this.service} did not answer within ${this.timeoutMs / 1000} s; try again later.`,
        );
      throw error;
    }
    const status = response.statusCode;
    if (status === 401 || status === 403) {
      throw new WebSearchError(
        `${this.service} rejected the request (HTTP ${status}): the API key is missing, wrong or not allowed${keyName ? `; check ${keyName}` : ''}.`,
      );
    }
    if (status === 429)
      throw new WebSearchError(
        `${this.service} rate limit reached (HTTP 429); wait before searching again.`,
      );
    if (status >= 400)
      throw new WebSearchError(
        `${this.service} answered with HTTP ${status}: ${errorDetail(text)}`,
      );
    try {
      return JSON.parse(text);
    } catch {
      throw new WebSearchError(`${this.service} sent a response that is not JSON.`);
    }
  }
}

function errorDetail(text: string): string {
  try {
    const parsed = JSON.parse(text) as {
      error?: { message?: string } | string;
      detail?: unknown;
      message?: string;
    };
    if (typeof parsed.error === 'string') return parsed.error;
    return (
      parsed.error?.message ??
      parsed.message ??
      JSON.stringify(parsed.detail ?? parsed).slice(0, 300)
    );
  } catch {
    return text.slice(0, 300) || 'no details';
  }
}

function anySignal(...signals: AbortSignal[]): AbortSignal {
  const controller = new AbortController();
  for (const signal of signals) {
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  }
  return controller.signal;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

class TavilyProvider implements SearchProvider {
  readonly name = 'Tavily';
  constructor(
    private readonly http: JsonClient,
    private readonly base: string,
    private readonly key: string,
  ) {}
  async search(query: string, signal: AbortSignal): Promise<SearchResponse> {
    const data = (await this.http.call(
      `${this.base.replace(/\/$/, '')}/search`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.key}` },
        body: JSON.stringify({ query, max_results: 8, include_answer: true }),
      },
      signal,
      'TAVILY_API_KEY',
    )) as { answer?: unknown; results?: { title?: unknown; url?: unknown; content?: unknown }[] };
    return {
      ...(text(data.answer) ? { answer: text(data.answer) } : {}),
      results: (data.results ?? []).map((r) => ({
        title: text(r.title),
        url: text(r.url),
        snippet: text(r.content),
      })),
    };
  }
}

class GoogleProvider implements SearchProvider {
  readonly name = 'Google Programmable Search';
  constructor(
    private readonly http: JsonClient,
    private readonly base: string,
    private readonly key: string,
    private readonly engine: string,
  ) {}
  async search(query: string, signal: AbortSignal): Promise<SearchResponse> {
    const url = new URL(`${this.base.replace(/\/$/, '')}/customsearch/v1`);
    url.searchParams.set('key', this.key);
    url.searchParams.set('cx', this.engine);
    url.searchParams.set('q', query);
    const data = (await this.http.call(url.toString(), {}, signal, 'GOOGLE_API_KEY')) as {
      items?: { title?: unknown; link?: unknown; snippet?: unknown }[];
    };
    return {
      results: (data.items ?? []).map((r) => ({
        title: text(r.title),
        url: text(r.link),
        snippet: text(r.snippet),
      })),
    };
  }
}

class BraveProvider implements SearchProvider {
  readonly name = 'Brave Search';
  constructor(
    private readonly http: JsonClient,
    private readonly base: string,
    private readonly key: string,
  ) {}
  async search(query: string, signal: AbortSignal): Promise<SearchResponse> {
    const url = new URL(`${this.base.replace(/\/$/, '')}/res/v1/web/search`);
    url.searchParams.set('q', query);
    const data = (await this.http.call(
      url.toString(),
      { headers: { 'x-subscription-token': this.key } },
      signal,
      'BRAVE_API_KEY',
    )) as {
      web?: { results?: { title?: unknown; url?: unknown; description?: unknown }[] };
    };
    return {
      results: (data.web?.results ?? []).map((r) => ({
        title: text(r.title),
        url: text(r.url),
        snippet: text(r.description).replace(/<\/?strong>/g, ''),
      })),
    };
  }
}

class SearxngProvider implements SearchProvider {
  readonly name = 'SearXNG';
  constructor(
    private readonly http: JsonClient,
    private readonly base: string,
  ) {}
  async search(query: string, signal: AbortSignal): Promise<SearchResponse> {
    const url = new URL(`${this.base.replace(/\/$/, '')}/search`);
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'json');
    const data = (await this.http.call(url.toString(), {}, signal)) as {
      answers?: unknown[];
      results?: { title?: unknown; url?: unknown; content?: unknown }[];
    };
    const answer = (data.answers ?? [])
      .map((a) => (typeof a === 'string' ? a : text((a as { answer?: unknown }).answer)))
      .find(Boolean);
    return {
      ...(answer ? { answer } : {}),
      results: (data.results ?? []).map((r) => ({
        title: text(r.title),
        url: text(r.url),
        snippet: text(r.content),
      })),
    };
  }
}
