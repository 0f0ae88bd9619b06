/**
 * The key-pairing rule where endpoint and key meet: a key from the person's settings or
 * environment never reaches an endpoint an untrusted project alone named, even on a path
 * around the settings cut (settings built by hand here). Fake endpoints on 127.0.0.1 record
 * what arrives.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Settings } from '../src/contract/settings-types.js';
import { resolveEndpoint } from '../src/endpoints/endpoints.js';
import { ModelClient } from '../src/models/model-client.js';
import { configureSearch } from '../src/tools/web-search-setup.js';
import { namedByUntrustedProject } from '../src/trust/endpoint-keys.js';
import { startServer, type TestServer } from './helpers/http-server.js';
import { type ModelServer, startModelServer } from './helpers/model-server.js';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});
const signal = new AbortController().signal;

describe('namedByUntrustedProject', () => {
  it("names the endpoint settings whose value only the project's layer holds", () => {
    const project: Settings = { model: { baseUrl: 'http://theirs', name: 'm' } };
    const person: Settings = {
      model: { apiKey: 'k', name: 'm' },
      webSearch: { provider: 'brave' },
    };
    const merged: Settings = {
      model: { baseUrl: 'http://theirs', apiKey: 'k', name: 'm' },
      webSearch: { provider: 'brave' },
    };
    expect(namedByUntrustedProject(merged, project, [person])).toEqual(['model.baseUrl']);
    // The person naming the same address makes it theirs.
    expect(
      namedByUntrustedProject(merged, project, [person, { model: { baseUrl: 'http://theirs' } }]),
    ).toEqual([]);
  });
});

describe("the person's keys go only to endpoints the person named", () => {
  async function ask(settings: Settings, untrusted: Parameters<typeof resolveEndpoint>[1]) {
    const server: ModelServer = await startModelServer([{ text: 'ok' }]);
    servers.push(server);
    const endpoint = resolveEndpoint(
      { ...settings, model: { ...settings.model, baseUrl: server.baseUrl } },
      untrusted,
    );
    await new ModelClient(endpoint!).generate(
      { messages: [{ role: 'user', content: 'hi' }] },
      { signal },
    );
    return server.requests[0]?.headers.authorization;
  }

  it('model: no key of the person with a base URL an untrusted project named; its own key, or a named one, goes', async () => {
    const person = { model: { name: 'm', apiKey: 'PERSON-KEY' } };
    expect(await ask(person, ['model.baseUrl'])).not.toContain('PERSON-KEY');
    expect(await ask(person, [])).toBe('Bearer PERSON-KEY');
    expect(
      await ask({ model: { name: 'm', apiKey: 'THEIR-KEY' } }, ['model.baseUrl', 'model.apiKey']),
    ).toBe('Bearer THEIR-KEY');
  });

  it('search: TAVILY_API_KEY is not sent to a provider or address an untrusted project chose', async () => {
    const keys: string[] = [];
    const tavily: TestServer = await startServer((req, res) => {
      keys.push(String(req.headers.authorization));
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ results: [] }));
    });
    servers.push(tavily);
    const settings: Settings = { webSearch: { provider: 'tavily', baseUrl: tavily.url } };
    const env = { TAVILY_API_KEY: 'TAVILY-KEY' };
    const refused = configureSearch(settings, env, 5000, ['webSearch.baseUrl']);
    expect(refused).toMatchObject({ configured: false });
    expect(refused.configured ? '' : refused.reason).toContain('toolhost trust');
    expect(configureSearch(settings, env, 5000, ['webSearch.provider']).configured).toBe(false);
    const named = configureSearch(settings, env, 5000, []);
    if (!named.configured) throw new Error(named.reason);
    await named.provider.search('plover', signal);
    expect(keys).toEqual(['Bearer TAVILY-KEY']);
  });
});
