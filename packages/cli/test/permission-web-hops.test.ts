/**
 * WebFetch rules on every hop, with HTTP servers on 127.0.0.1 and `toolhost call`: a
 * redirect to a host a deny rule names is refused, one to any other site (here localhost)
 * is not followed but handed to the model as the URL to fetch with a call of its own, and
 * a rule naming an address holds for a name that resolves to it. The proof is the
 * server's log: the covered page is never requested.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../core/test/helpers/http-server.js';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { runCliAsync } from './run-cli.js';

const SECRET = 'internal-page-text-77';
let dirs: TempDirs;
let server: TestServer;
beforeEach(async () => {
  dirs = makeTempDirs();
  server = await startServer((req, res) => {
    if (req.url === '/secret') res.writeHead(200, { 'content-type': 'text/plain' }).end(SECRET);
    else if (req.url?.startsWith('/to?'))
      res.writeHead(302, { location: decodeURIComponent(req.url.slice(4)) }).end();
    else res.writeHead(404).end();
  });
});
afterEach(async () => {
  await server.close();
  dirs.cleanup();
});

const settings = (permissions: unknown) => {
  mkdirSync(path.join(dirs.home, '.toolhost'), { recursive: true });
  writeFileSync(
    path.join(dirs.home, '.toolhost', 'settings.json'),
    JSON.stringify({
      // Both loopback names are let past the private-network guard: only rules decide here.
      tools: { webFetch: { allowedHosts: ['127.0.0.1', 'localhost'] } },
      permissions,
    }),
  );
};
// Asynchronous: the test's own server answers from this process while the command runs.
const fetchPage = (url: string, flags = ['--yes']) =>
  runCliAsync(['call', 'web_fetch', JSON.stringify({ url, prompt: 'the text' }), ...flags], {
    cwd: dirs.root,
    home: dirs.home,
  });
const redirectTo = (target: string) => `${server.url}/to?${encodeURIComponent(target)}`;
const secretHits = () => server.requests.filter((request) => request.endsWith('/secret')).length;

describe('WebFetch rules on every hop', () => {
  it('does not follow a redirect to localhost that no rule names: the model gets the URL', async () => {
    settings({});
    // The setup reaches the page when it is asked for directly.
    const direct = await fetchPage(`http://localhost:${server.port}/secret`);
    expect(direct.stdout, direct.stderr).toContain(SECRET);
    const target = `http://localhost:${server.port}/secret`;
    const stopped = await fetchPage(redirectTo(target));
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stdout).not.toContain(SECRET);
    expect(stopped.stdout).toContain(`redirects (HTTP 302) to another site: ${target}`);
    expect(stopped.stdout).toContain(`call web_fetch again with url "${target}"`);
    expect(secretHits()).toBe(1);
  });

  it('a first URL an allow rule lets run unasked does not carry its redirect to another host', async () => {
    settings({ allow: ['WebFetch(domain:127.0.0.1)'] });
    const target = `http://localhost:${server.port}/secret`;
    // No --yes and no terminal: only the allow rule lets the first call run.
    const stopped = await fetchPage(redirectTo(target), ['--approval-mode', 'default']);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stdout).toContain(`to another site: ${target}`);
    expect(secretHits()).toBe(0);
    // The model's own call for it asks, and nobody can answer here.
    const next = await fetchPage(target, []);
    expect(next.code).toBe(3);
    expect(secretHits()).toBe(0);
  });

  it('refuses a 302 from 127.0.0.1 to localhost under WebFetch(domain:localhost) in deny', async () => {
    settings({ deny: ['WebFetch(domain:localhost)'] });
    const refused = await fetchPage(redirectTo(`http://localhost:${server.port}/secret`));
    expect(refused.stdout + refused.stderr).not.toContain(SECRET);
    expect(refused.stdout + refused.stderr).toContain('WebFetch(domain:localhost)');
    expect(server.requests.some((request) => request.startsWith('GET /to?'))).toBe(true);
    expect(secretHits()).toBe(0);
  });

  it('does not follow a redirect to a host an ask rule names, and gives the URL to ask with', async () => {
    settings({ ask: ['WebFetch(domain:localhost)'] });
    const target = `http://localhost:${server.port}/secret`;
    const stopped = await fetchPage(redirectTo(target));
    expect(stopped.stdout + stopped.stderr).not.toContain(SECRET);
    expect(stopped.stdout + stopped.stderr).toContain(`call web_fetch with ${target}`);
    expect(secretHits()).toBe(0);
  });

  it('refuses a name that resolves to an address a deny rule names', async () => {
    settings({ deny: ['WebFetch(domain:127.0.0.1)'] });
    const refused = await fetchPage(`http://localhost:${server.port}/secret`);
    expect(refused.stdout + refused.stderr).not.toContain(SECRET);
    expect(refused.stdout + refused.stderr).toContain('resolves to 127.0.0.1');
    expect(secretHits()).toBe(0);
  });
});
