/**
 * Whether web_search is offered, and with which provider: settings choose the provider
 * (web/search-providers.ts speaks to it), the environment holds the keys, and a key of the
 * person's goes only to a provider the person (or a trusted project) chose
 * (trust/endpoint-keys.ts). Kept apart from web-search.ts, the tool, so that a command
 * which never searches does not load the tool to learn that it is off.
 */
import type { Settings } from '../contract/settings-types.js';
import { type EndpointSetting, personalKeyMayGo } from '../trust/endpoint-keys.js';
import { type SearchSetup, searchProviderFor } from '../web/search-providers.js';

export type { SearchSetup } from '../web/search-providers.js';

export const HOW_TO_CONFIGURE =
  'Set webSearch.provider in settings to tavily (with TAVILY_API_KEY), google (GOOGLE_API_KEY and GOOGLE_CSE_ID or webSearch.searchEngineId), brave (BRAVE_API_KEY) or searxng (webSearch.baseUrl of your instance).';

/**
 * The provider settings and environment call for, or why there is none. `untrusted` lists
 * the endpoint settings an untrusted project alone named (Config.untrustedEndpoints): the
 * environment's keys are never sent where such a project chose.
 */
export function configureSearch(
  settings: Settings,
  env: NodeJS.ProcessEnv,
  timeoutMs = 15_000,
  untrusted: readonly EndpointSetting[] = [],
): SearchSetup {
  const web = settings.webSearch;
  if (!web?.provider)
    return {
      configured: false,
      reason: `web_search is off: no search provider is configured. ${HOW_TO_CONFIGURE}`,
    };
  if (
    !personalKeyMayGo(
      ['webSearch.provider', 'webSearch.baseUrl', 'webSearch.searchEngineId'],
      untrusted,
    )
  )
    return {
      configured: false,
      reason: `web_search is off: the search provider was chosen by this project's settings, which is not trusted, and your API keys go only to providers you name. Set webSearch in your own settings, or run "toolhost trust" if you trust the project.`,
    };
  return searchProviderFor({ ...web, provider: web.provider }, env, timeoutMs);
}
