/**
 * web_fetch against real servers on loopback addresses: HTTPS through a proxy
 * (HTTPS_PROXY, NO_PROXY), GitHub blob links fetched raw through the tool, the connection
 * going to the address that was looked up and checked, and the cache's 15 minutes on a
 * fake clock. Public hosts are played by a TLS server on 127.0.0.1 behind a test proxy
 * that tunnels every CONNECT there; nothing leaves the machine.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Config } from '../src/config/config.js';
import { ToolErrorType } from '../src/tools/tools.js';
import { CACHE_TTL_MS, type WebFetchOptions, WebFetchTool } from '../src/tools/web-fetch.js';
import type { Resolver } from '../src/web/address-guard.js';
import {
  startHttpsServer,
  startProxy,
  startServer,
  TEST_CA,
  type TestServer,
} from './helpers/http-server.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

let ws: TempWorkspace;
const servers: { close(): Promise<void> }[] = [];
const signal = new AbortController().signal;
/** A public address for the proxy path's check; no connection is ever made to it. */
const PUBLIC = '93.184.216.34';
const publicResolver: Resolver = async () => [{ address: PUBLIC, family: 4 }];

beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(async () => {
  vi.useRealTimers();
  for (const server of servers.splice(0)) await server.close();
  ws.cleanup();
});

async function track<T extends { close(): Promise<void> }>(server: Promise<T>): Promise<T> {
  const started = await server;
  servers.push(started);
  return started;
}

function fetcher(allowedHosts: string[], options: WebFetchOptions) {
  const config = new Config({
    roots: [ws.root],
    homeDir: ws.home,
    settings: { tools: { webFetch: { allowedHosts } } },
  });
  return new WebFetchTool(config, options);
}
const fetchText = async (tool: WebFetchTool, url: string) => {
  const result = await tool.execute({ url, prompt: 'read it' }, signal);
  return { result, text: String(result.llmContent) };
};

/** An HTTPS "public" server and a proxy whose tunnels all lead to it. */
async function publicServerBehindProxy(body: Record<string, string>) {
  const site = await track(
    startHttpsServer((req, res) => {
      const text = body[req.url ?? ''];
      if (text === undefined) res.writeHead(404).end();
      else res.writeHead(200, { 'content-type': 'text/plain' }).end(text);
    }),
  );
  const proxy = await track(startProxy({ tunnelTo: site.port }));
  return { site, proxy };
}

describe('web_fetch through a proxy', () => {
  it('sends https requests through HTTPS_PROXY as a CONNECT tunnel', async () => {
    const { site, proxy } = await publicServerBehindProxy({ '/notes.txt': 'secure notes' });
    const tool = fetcher([], {
      env: { HTTPS_PROXY: proxy.url },
      resolver: publicResolver,
      ca: TEST_CA,
    });
    const { result, text } = await fetchText(tool, 'https://proxied.test/notes.txt');
    expect(result.error).toBeUndefined();
    expect(text).toContain('secure notes');
    expect(proxy.requests).toEqual(['CONNECT proxied.test:443']);
    expect(site.requests).toEqual(['GET proxied.test/notes.txt']);
  });

  it("checks the server's certificate: refused without the ca option that trusts it", async () => {
    const { site, proxy } = await publicServerBehindProxy({ '/notes.txt': 'secure notes' });
    const tool = fetcher([], { env: { HTTPS_PROXY: proxy.url }, resolver: publicResolver });
    const { result, text } = await fetchText(tool, 'https://proxied.test/notes.txt');
    expect(result.error?.type).toBe(ToolErrorType.WEB_FETCH_FAILED);
    expect(result.error?.message).toMatch(/certificate/i);
    expect(text).not.toContain('secure notes');
    expect(site.requests).toEqual([]);
  });

  it('goes direct to hosts NO_PROXY names, and through the proxy to the others', async () => {
    const server = await track(
      startServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('hi')),
    );
    const proxy = await track(startProxy());
    const url = `${server.url}/page`;
    const direct = fetcher(['127.0.0.1'], {
      env: { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, NO_PROXY: 'other.test,127.0.0.1' },
    });
    expect((await fetchText(direct, url)).text).toContain('hi');
    expect(proxy.requests).toEqual([]);
    expect(server.requests).toEqual(['GET /page']);

    const proxied = fetcher(['127.0.0.1'], {
      env: { HTTP_PROXY: proxy.url, NO_PROXY: 'other.test' },
    });
    expect((await fetchText(proxied, `${url}?again`)).text).toContain('hi');
    expect(proxy.requests).toEqual([`CONNECT 127.0.0.1:${server.port}`]);
    expect(server.requests).toEqual(['GET /page', 'GET /page?again']);
  });
});

describe('web_fetch: GitHub blob links', () => {
  it('fetches the raw file from raw.githubusercontent.com instead of the HTML page', async () => {
    const { site, proxy } = await publicServerBehindProxy({
      '/owner/repo/main/src/a.ts': 'export const a = 1;\n',
    });
    const tool = fetcher([], {
      env: { HTTPS_PROXY: proxy.url },
      resolver: publicResolver,
      ca: TEST_CA,
    });
    const { result, text } = await fetchText(
      tool,
      'https://github.com/owner/repo/blob/main/src/a.ts',
    );
    expect(result.error).toBeUndefined();
    expect(text).toContain('export const a = 1;');
    expect(proxy.requests).toEqual(['CONNECT raw.githubusercontent.com:443']);
    expect(site.requests).toEqual(['GET raw.githubusercontent.com/owner/repo/main/src/a.ts']);
  });
});

describe('web_fetch connects to the address it looked up and checked', () => {
  it('does not look the name up again for the connection (no DNS rebinding)', async () => {
    const first = await track(
      startServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('first')),
    );
    // A second server on another loopback address, same port: where a second lookup leads.
    const second = http.createServer((_req, res) => res.writeHead(200).end('second'));
    const secondRequests: string[] = [];
    second.on('request', (req) => secondRequests.push(String(req.url)));
    await new Promise<void>((resolve) => second.listen(first.port, '127.0.0.2', resolve));
    expect((second.address() as AddressInfo).address).toBe('127.0.0.2');
    servers.push({
      close: () =>
        new Promise((resolve) => {
          second.closeAllConnections();
          second.close(() => resolve());
        }),
    });
    const lookups: string[] = [];
    const rebinding: Resolver = async (host) => {
      lookups.push(host);
      const address = lookups.length === 1 ? '127.0.0.1' : '127.0.0.2';
      return [{ address, family: 4 }];
    };
    const tool = fetcher(['rebind.test'], { resolver: rebinding });
    const { text } = await fetchText(tool, `http://rebind.test:${first.port}/x`);
    expect(text).toContain('first');
    expect(lookups).toEqual(['rebind.test']);
    expect(first.requests).toEqual(['GET /x']);
    expect(secondRequests).toEqual([]);
  });

  it('refuses a name whose answer is private before any byte reaches that address', async () => {
    const server = await track(startServer((_req, res) => res.writeHead(200).end('leaked')));
    const lookups: string[] = [];
    const tool = fetcher([], {
      resolver: async (host) => {
        lookups.push(host);
        return [
          { address: PUBLIC, family: 4 },
          { address: '127.0.0.1', family: 4 },
        ];
      },
    });
    const { result } = await fetchText(tool, `http://evil.test:${server.port}/x`);
    expect(result.error?.type).toBe(ToolErrorType.WEB_FETCH_FAILED);
    expect(result.error?.message).toContain('evil.test resolves to 127.0.0.1');
    expect(lookups).toEqual(['evil.test']);
    expect(server.requests).toEqual([]);
  });
});

describe('web_fetch: the cache', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await track(
      startServer((req, res) =>
        res.writeHead(200, { 'content-type': 'text/plain' }).end(`body of ${req.url}`),
      ),
    );
  });

  it('serves a page from the cache for 15 minutes, then fetches it again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const tool = fetcher(['127.0.0.1'], {});
    const url = `${server.url}/page`;
    await fetchText(tool, url);
    vi.advanceTimersByTime(CACHE_TTL_MS - 60_000);
    const cached = (await fetchText(tool, url)).text;
    expect(cached).toContain('from the cache, fetched 14 min ago');
    expect(server.requests).toEqual(['GET /page']);
    vi.advanceTimersByTime(60_000);
    const fresh = (await fetchText(tool, url)).text;
    expect(fresh).not.toContain('from the cache');
    expect(fresh).toContain('body of /page');
    expect(server.requests).toEqual(['GET /page', 'GET /page']);
  });

  it('keeps pages of different URLs apart', async () => {
    const tool = fetcher(['127.0.0.1'], {});
    expect((await fetchText(tool, `${server.url}/a`)).text).toContain('body of /a');
    expect((await fetchText(tool, `${server.url}/b`)).text).toContain('body of /b');
    expect(server.requests).toEqual(['GET /a', 'GET /b']);
  });
});
