import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startProxy, startServer, type TestServer } from '../../test/helpers/http-server.js';
import { scriptedScheduler } from '../../test/helpers/scheduler.js';
import { FIXTURES, makeWorkspace, type TempWorkspace } from '../../test/helpers/temp-workspace.js';
import { Config } from '../config/config.js';
import type { Part } from '../contract/content.js';
import type { Resolver } from '../web/address-guard.js';
import { ToolRegistry } from './tool-registry.js';
import { ToolConfirmationOutcome, ToolErrorType } from './tools.js';
import { rawUrl, type WebFetchOptions, WebFetchTool } from './web-fetch.js';

let ws: TempWorkspace;
let server: TestServer;
const signal = new AbortController().signal;
// Every process warning of this file's run, for the check that none is about undici.
const warnings: string[] = [];
process.on('warning', (warning) => warnings.push(`${warning.name}: ${warning.message}`));
const html = readFileSync(path.join(FIXTURES, 'web', 'article.html'), 'utf8');
const png = readFileSync(path.join(FIXTURES, 'pixel.png'));
const pdf = readFileSync(path.join(FIXTURES, 'page.pdf'));

beforeEach(async () => {
  ws = makeWorkspace();
  server = await startServer((req, res) => {
    switch (req.url) {
      case '/article':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
        break;
      case '/data.json':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"a": [1, 2]}');
        break;
      case '/notes.txt':
        res.writeHead(200, { 'content-type': 'text/plain' }).end('plain notes');
        break;
      case '/pixel.png':
        res.writeHead(200, { 'content-type': 'image/png' }).end(png);
        break;
      case '/report.pdf':
        res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf);
        break;
      case '/huge.pdf':
        res
          .writeHead(200, { 'content-type': 'application/pdf' })
          .end(Buffer.concat([pdf, Buffer.alloc(11 * 1024 * 1024, 0x20)]));
        break;
      case '/archive.zip':
        res.writeHead(200, { 'content-type': 'application/zip' }).end(Buffer.alloc(2048, 1));
        break;
      case '/huge':
        res
          .writeHead(200, { 'content-type': 'text/plain' })
          .end(Buffer.alloc(11 * 1024 * 1024, 0x61));
        break;
      case '/missing':
        res.writeHead(404).end('not here');
        break;
      case '/hang':
        break; // never answers
      default: {
        const hop = /^\/redirect\/(\d+)$/.exec(req.url ?? '');
        if (hop) {
          const n = Number(hop[1]);
          res.writeHead(302, { location: n > 0 ? `/redirect/${n - 1}` : '/notes.txt' }).end();
        } else if (req.url?.startsWith('/to?')) {
          res.writeHead(302, { location: decodeURIComponent(req.url.slice(4)) }).end();
        } else {
          res.writeHead(404).end();
        }
      }
    }
  });
});
afterEach(async () => {
  await server.close();
  ws.cleanup();
});

function fetcher(allowedHosts: string[] = ['127.0.0.1'], options: WebFetchOptions = {}) {
  const config = new Config({
    roots: [ws.root],
    homeDir: ws.home,
    settings: { tools: { webFetch: { allowedHosts } } },
  });
  return { tool: new WebFetchTool(config, options), config };
}
const fetchWith = (tool: WebFetchTool, url: string, prompt = 'summarise') =>
  tool.execute({ url, prompt }, signal);

describe('web_fetch: content', () => {
  it('turns HTML into clean Markdown, marked as untrusted, with the prompt', async () => {
    const result = await fetchWith(fetcher().tool, `${server.url}/article`, 'what is new?');
    const text = String(result.llmContent);
    expect(result.error).toBeUndefined();
    expect(text).toContain('Title: Release notes & changes.');
    expect(text).toContain('# Version 2.0');
    expect(text).toContain(
      'The new **scheduler** runs reads in parallel. See the [upgrade guide](https://example.com/guide).',
    );
    expect(text).toContain('-   Faster grep');
    expect(text).toContain('```\nnpm install toolhost\n```');
    for (const hidden of [
      'SCRIPT_TEXT',
      'INLINE_SCRIPT',
      'NAV_LINK',
      'ASIDE',
      'FOOTER',
      'color: red',
    ]) {
      expect(text).not.toContain(hidden);
    }
    expect(text).toContain('untrusted content from the web');
    expect(text.search(/<<<UNTRUSTED WEB CONTENT BEGINS [0-9a-f]{16}>>>/)).toBeLessThan(
      text.indexOf('# Version 2.0'),
    );
    expect(text).toContain('Request: what is new?');
  });

  it('returns JSON and plain text as they are', async () => {
    const { tool } = fetcher();
    expect(String((await fetchWith(tool, `${server.url}/data.json`)).llmContent)).toContain(
      '{"a": [1, 2]}',
    );
    expect(String((await fetchWith(tool, `${server.url}/notes.txt`)).llmContent)).toContain(
      '\nplain notes\n',
    );
  });

  it('attaches a PDF as read_file does, but not one cut off at the 10 MB cap', async () => {
    const { tool } = fetcher();
    const attached = (await fetchWith(tool, `${server.url}/report.pdf`)).llmContent as Part[];
    expect(attached[0]?.text).toContain('The PDF is attached.');
    expect(attached[1]?.inlineData).toEqual({
      mimeType: 'application/pdf',
      data: pdf.toString('base64'),
      displayName: 'report.pdf',
    });
    const huge = (await fetchWith(tool, `${server.url}/huge.pdf`)).llmContent;
    expect(typeof huge).toBe('string');
    expect(huge).toContain('The PDF is larger than 10 MB');
  });

  it('returns images as inlineData and describes other binaries', async () => {
    const { tool } = fetcher();
    const image = (await fetchWith(tool, `${server.url}/pixel.png`)).llmContent as Part[];
    expect(image[1]?.inlineData).toEqual({
      mimeType: 'image/png',
      data: png.toString('base64'),
      displayName: 'pixel.png',
    });
    const zip = String((await fetchWith(tool, `${server.url}/archive.zip`)).llmContent);
    expect(zip).toContain('The content is binary (application/zip) and is not shown.');
  });

  it('caps the body at 10 MB and says so', async () => {
    const text = String((await fetchWith(fetcher().tool, `${server.url}/huge`)).llmContent);
    expect(text).toContain('only its first 10 MB were read');
    expect(text).toContain('cut to its first');
  });

  it('follows redirects and reports the final URL', async () => {
    const text = String((await fetchWith(fetcher().tool, `${server.url}/redirect/2`)).llmContent);
    expect(text).toContain(`Fetched ${server.url}/notes.txt (after 3 redirects)`);
  });

  it('gives up after 10 redirects', async () => {
    const result = await fetchWith(fetcher().tool, `${server.url}/redirect/12`);
    expect(result.error?.type).toBe(ToolErrorType.WEB_FETCH_FAILED);
    expect(result.error?.message).toContain('redirected more than 10 times');
  });

  it('reports HTTP errors', async () => {
    const result = await fetchWith(fetcher().tool, `${server.url}/missing`);
    expect(result.error?.message).toContain('HTTP 404');
  });

  it('times out', async () => {
    const result = await fetchWith(
      fetcher(['127.0.0.1'], { totalTimeoutMs: 500 }).tool,
      `${server.url}/hang`,
    );
    expect(result.error?.type).toBe(ToolErrorType.WEB_FETCH_FAILED);
    expect(result.error?.message).toMatch(/timed out/);
  });

  it('serves a repeated fetch from the cache for 15 minutes', async () => {
    const { tool } = fetcher();
    await fetchWith(tool, `${server.url}/notes.txt`);
    const second = String((await fetchWith(tool, `${server.url}/notes.txt`)).llmContent);
    expect(server.requests.filter((r) => r === 'GET /notes.txt')).toHaveLength(1);
    expect(second).toContain('from the cache');
  });

  it('hands the content to a separate model call when one is configured', async () => {
    const seen: string[] = [];
    const { tool } = fetcher(['127.0.0.1'], {
      processContent: async (content, prompt) => {
        seen.push(prompt);
        return `answer from ${content.length} characters`;
      },
    });
    const text = String((await fetchWith(tool, `${server.url}/article`, 'version?')).llmContent);
    expect(seen).toEqual(['version?']);
    expect(text).toMatch(/answer from \d+ characters/);
  });

  it('goes through the proxy from HTTP_PROXY', async () => {
    const proxy = await startProxy();
    try {
      const { tool } = fetcher(['127.0.0.1'], { env: { HTTP_PROXY: proxy.url } });
      const result = await fetchWith(tool, `${server.url}/notes.txt`);
      expect(result.error).toBeUndefined();
      expect(proxy.requests.join('\n')).toContain(`127.0.0.1:${server.port}`);
    } finally {
      await proxy.close();
    }
  });
});

describe('web_fetch: the private-network guard', () => {
  const refused = async (url: string, options: WebFetchOptions = {}, allowed: string[] = []) => {
    const result = await fetchWith(fetcher(allowed, options).tool, url);
    expect(result.error?.type).toBe(ToolErrorType.WEB_FETCH_FAILED);
    expect(result.error?.message).toContain('does not reach private networks');
    expect(result.error?.message).toContain('tools.webFetch.allowedHosts');
    return result;
  };

  it('refuses 127.0.0.1, localhost, [::1], 169.254.169.254 and 0.0.0.0 by default', async () => {
    await refused(`${server.url}/notes.txt`);
    await refused(`http://localhost:${server.port}/notes.txt`);
    await refused(`http://[::1]:${server.port}/notes.txt`);
    await refused('http://169.254.169.254/latest/meta-data/');
    await refused(`http://0.0.0.0:${server.port}/`);
    expect(server.requests).toEqual([]);
  });

  it('refuses a name that resolves to a private address', async () => {
    await refused('http://intranet.example/', {
      resolver: async () => [{ address: '10.0.0.7', family: 4 }],
    });
  });

  it('does not reach a private host through a redirect from an allowed one', async () => {
    // Another site is not followed; a private address is refused outright.
    const local = await fetchWith(
      fetcher(['127.0.0.1']).tool,
      `${server.url}/to?${encodeURIComponent(`http://localhost:${server.port}/notes.txt`)}`,
    );
    expect(String(local.llmContent)).toContain('redirects (HTTP 302) to another site');
    await refused(`${server.url}/to?${encodeURIComponent('http://169.254.169.254/')}`, {}, [
      '127.0.0.1',
    ]);
    expect(server.requests).not.toContain('GET /notes.txt');
  });

  it('checks the host even through a proxy', async () => {
    const proxy = await startProxy();
    try {
      await refused(`http://localhost:${server.port}/notes.txt`, {
        env: { HTTP_PROXY: proxy.url },
      });
      expect(proxy.requests).toEqual([]);
    } finally {
      await proxy.close();
    }
  });
});

describe('web_fetch: parameters and confirmation', () => {
  it('rejects other schemes, credentials and malformed URLs', () => {
    const { tool } = fetcher();
    expect(tool.validateToolParams({ url: 'ftp://example.com/x', prompt: 'x' })).toMatch(
      /Only http and https/,
    );
    expect(tool.validateToolParams({ url: 'file:///etc/passwd', prompt: 'x' })).toMatch(
      /Only http and https/,
    );
    expect(tool.validateToolParams({ url: 'https://user:pw@example.com/', prompt: 'x' })).toMatch(
      /user name or password/,
    );
    expect(tool.validateToolParams({ url: 'not a url', prompt: 'x' })).toMatch(/not a valid URL/);
    expect(tool.validateToolParams({ url: 'https://example.com' })).toBe('prompt is required');
  });

  it('fetches GitHub blob links from their raw form', () => {
    expect(rawUrl('https://github.com/o/r/blob/main/src/a.ts')).toBe(
      'https://raw.githubusercontent.com/o/r/main/src/a.ts',
    );
    expect(rawUrl('https://github.com/o/r')).toBe('https://github.com/o/r');
  });

  it('asks with the URL, remembers "always" per host, and skips asking in auto-edit', async () => {
    const { tool, config } = fetcher();
    const registry = new ToolRegistry(config);
    registry.registerTool(tool);
    const scheduled = scriptedScheduler(config, {
      registry,
      answer: ToolConfirmationOutcome.ProceedAlways,
    });
    const asked = scheduled.asked;
    const call = (url: string) =>
      scheduled.call('web_fetch', { url, prompt: 'p' }, { signal, callId: url });
    await call(`${server.url}/notes.txt`);
    await call(`${server.url}/data.json`);
    expect(asked).toEqual([
      expect.objectContaining({ type: 'info', urls: [`${server.url}/notes.txt`] }),
    ]);
    expect(config.sessionAllowedTools.has('web_fetch')).toBe(false);
    await call(`http://localhost:${server.port}/x`);
    expect(asked).toHaveLength(2);
    config.setApprovalMode('auto-edit');
    await call(`http://example.invalid/`);
    expect(asked).toHaveLength(2);
  });
});

describe('web_fetch behind a proxy, without DNS of its own', () => {
  const noDns: Resolver = async (host) => {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  };
  /** A proxy that reaches every name it is asked for at the test server, as a corporate proxy reaches public names. */
  const proxyToServer = () => startProxy({ tunnelTo: server.port });

  it('lets the proxy resolve a public name this machine cannot', async () => {
    const proxy = await proxyToServer();
    try {
      const { tool } = fetcher([], { env: { HTTP_PROXY: proxy.url }, resolver: noDns });
      const result = await fetchWith(tool, `http://docs.example.com:${server.port}/notes.txt`);
      expect(result.error).toBeUndefined();
      expect(String(result.llmContent)).toContain('plain notes');
      expect(proxy.requests.join('\n')).toContain(`docs.example.com:${server.port}`);
    } finally {
      await proxy.close();
    }
  });

  it('still refuses private IP literals and names that are local by definition', async () => {
    const proxy = await proxyToServer();
    try {
      const { tool } = fetcher([], { env: { HTTP_PROXY: proxy.url }, resolver: noDns });
      for (const url of [
        'http://10.0.0.5/',
        'http://[fd00::1]/',
        'http://printer.local/',
        'http://intranet/',
        'http://metadata.google.internal/computeMetadata/v1/',
        'http://router.home.arpa/',
        `http://localhost:${server.port}/notes.txt`,
      ]) {
        const result = await fetchWith(tool, url);
        expect(result.error?.type, url).toBe(ToolErrorType.WEB_FETCH_FAILED);
        expect(result.error?.message, url).toContain('does not reach private networks');
      }
      expect(proxy.requests).toEqual([]);
      expect(server.requests).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('refuses a name that resolves here to a private address, before asking the proxy', async () => {
    const proxy = await proxyToServer();
    try {
      const { tool } = fetcher([], {
        env: { HTTPS_PROXY: proxy.url },
        resolver: async () => [{ address: '192.168.1.20', family: 4 }],
      });
      const result = await fetchWith(tool, 'https://wiki.example.com/');
      expect(result.error?.message).toContain('does not reach private networks');
      expect(proxy.requests).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('connects directly to hosts in NO_PROXY', async () => {
    const proxy = await proxyToServer();
    try {
      const { tool } = fetcher(['127.0.0.1'], {
        env: { HTTP_PROXY: proxy.url, NO_PROXY: 'example.org,127.0.0.1' },
      });
      const result = await fetchWith(tool, `${server.url}/notes.txt`);
      expect(result.error).toBeUndefined();
      expect(proxy.requests).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it("prints no warning about undici's experimental proxy agent", () => {
    // Collected over every fetch of this file, proxied ones included.
    expect(warnings.filter((w) => /experimental/i.test(w))).toEqual([]);
  });
});
