/**
 * web_fetch follows a redirect only on the site its call was approved for. A redirect to
 * another site (another port, or another name for the same machine) is not requested: the
 * model is told the new URL, and its own call for it goes through the rules and the
 * question again. Real HTTP servers on 127.0.0.1 and the real scheduler; the proof is the
 * second server's log.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Config } from '../src/config/config.js';
import type { ApprovalMode, Settings } from '../src/config/settings.js';
import { startServer, type TestServer } from './helpers/http-server.js';
import { outputOf, scriptedScheduler } from './helpers/scheduler.js';
import { makeTempDirs, type TempDirs } from './helpers/temp-workspace.js';

const OTHER_PAGE = 'page-of-the-other-site-31';
let dirs: TempDirs;
let first: TestServer;
let other: TestServer;
const configs: Config[] = [];

beforeEach(async () => {
  dirs = makeTempDirs();
  other = await startServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/plain' }).end(OTHER_PAGE),
  );
  first = await startServer((req, res) => {
    if (req.url?.startsWith('/to?'))
      res.writeHead(302, { location: decodeURIComponent(req.url.slice(4)) }).end();
    else if (req.url === '/here') res.writeHead(301, { location: '/page' }).end();
    else res.writeHead(200, { 'content-type': 'text/plain' }).end('first-site-page');
  });
});
afterEach(async () => {
  for (const config of configs.splice(0)) await config.dispose();
  await first.close();
  await other.close();
  dirs.cleanup();
});

/** Nobody to ask: a call that would ask is refused, so what runs ran unasked. */
function session(permissions: Settings['permissions'], approvalMode: ApprovalMode) {
  const config = new Config({
    roots: [dirs.root],
    homeDir: dirs.home,
    settings: {
      permissions,
      tools: { approvalMode, webFetch: { allowedHosts: ['127.0.0.1', 'localhost'] } },
    },
  });
  configs.push(config);
  return scriptedScheduler(config, { answer: null });
}

const fetchCall = (url: string) => ({ url, prompt: 'what does it say' });
const redirectTo = (target: string) => `${first.url}/to?${encodeURIComponent(target)}`;

describe('web_fetch: redirects to another site are not followed', () => {
  const cases: Array<[string, Settings['permissions'], ApprovalMode]> = [
    ['an allow rule', { allow: ['WebFetch(domain:127.0.0.1)'] }, 'default'],
    ['yolo', {}, 'yolo'],
    ['auto-edit', {}, 'auto-edit'],
  ];

  it.each(cases)(
    'allowed by %s: another port is the model’s next call, asked about as its own',
    async (_how, permissions, mode) => {
      const s = session(permissions, mode);
      const target = `${other.url}/page`;
      const done = await s.call('web_fetch', fetchCall(redirectTo(target)));
      expect(done.status).toBe('success');
      const told = outputOf(done);
      expect(told).toContain(`redirects (HTTP 302) to another site: ${target}`);
      expect(told).toContain(`call web_fetch again with url "${target}"`);
      expect(told).not.toContain(OTHER_PAGE);
      expect(other.requests).toEqual([]);
    },
  );

  it('another name for the same machine (127.0.0.1 to localhost) is another site', async () => {
    const s = session({ allow: ['WebFetch(domain:127.0.0.1)'] }, 'default');
    const target = `http://localhost:${other.port}/page`;
    const done = await s.call('web_fetch', fetchCall(redirectTo(target)));
    expect(outputOf(done)).toContain(`to another site: ${target}`);
    expect(other.requests).toEqual([]);
    // The model's own call for it: no rule allows localhost, and nobody can be asked.
    const next = await s.call('web_fetch', fetchCall(target));
    expect(next.status).toBe('error');
    expect(other.requests).toEqual([]);
  });

  it('a redirect on the same host and port is followed', async () => {
    const s = session({ allow: ['WebFetch(domain:127.0.0.1)'] }, 'default');
    const done = await s.call('web_fetch', fetchCall(`${first.url}/here`));
    expect(outputOf(done)).toContain('first-site-page');
    expect(outputOf(done)).toContain(`Fetched ${first.url}/page (after 1 redirect)`);
  });

  it('a redirect to a site a deny rule names is refused with the rule, not offered', async () => {
    const s = session(
      { allow: ['WebFetch(domain:127.0.0.1)'], deny: ['WebFetch(domain:localhost)'] },
      'yolo',
    );
    const done = await s.call(
      'web_fetch',
      fetchCall(redirectTo(`http://localhost:${other.port}/page`)),
    );
    expect(done.status).toBe('error');
    expect(done.response.error?.message).toContain('WebFetch(domain:localhost)');
    expect(other.requests).toEqual([]);
  });
});
