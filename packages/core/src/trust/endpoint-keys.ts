/**
 * Keys go only where the person sent them: a key from the person's own settings or
 * environment is sent to an endpoint only when the person named that endpoint (their
 * settings, environment or flags) or a trusted project did. The trust cut already drops an
 * untrusted project's endpoint settings unless they repeat the person's; the model and
 * search set-ups apply the same rule where endpoint and key meet, so that a way around the
 * cut (a layer added later, settings a library builds) still cannot pair them.
 */
import type { Settings } from '../contract/settings-types.js';
import { valueAt } from './untrusted-project.js';

/** The settings that choose where requests (and the keys with them) go. */
export const ENDPOINT_SETTINGS = [
  'model.baseUrl',
  'model.apiKey',
  'model.provider',
  'security.auth.selectedType',
  'modelProviders',
  'providerProtocol',
  'webSearch.provider',
  'webSearch.baseUrl',
  'webSearch.searchEngineId',
] as const;

export type EndpointSetting = (typeof ENDPOINT_SETTINGS)[number];

/**
 * The endpoint settings whose value in `merged` came from an untrusted project's layer and
 * from none of the person's own layers.
 */
export function namedByUntrustedProject(
  merged: Settings,
  project: Settings,
  personLayers: readonly Settings[],
): EndpointSetting[] {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  return ENDPOINT_SETTINGS.filter((key) => {
    const value = valueAt(merged, key);
    return (
      value !== undefined &&
      same(value, valueAt(project, key)) &&
      !personLayers.some((layer) => same(value, valueAt(layer, key)))
    );
  });
}

/**
 * Whether a key of the person's may go to the endpoint these settings choose: not when an
 * untrusted project alone named any of them.
 */
export function personalKeyMayGo(
  endpoint: readonly EndpointSetting[],
  untrusted: readonly EndpointSetting[],
): boolean {
  return !endpoint.some((setting) => untrusted.includes(setting));
}
