import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/helpers/http-server.js';
import { guardedRequest } from './guarded-request.js';

let server: TestServer;
beforeEach(async () => {
  server = await startServer((req, res) => {
    if (req.url === '/away') res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
});
afterEach(() => server.close());

describe('guardedRequest', () => {
  it('reaches an allowed host, and refuses a loopback one that is not, without connecting', async () => {
    const allowed = guardedRequest(['127.0.0.1']);
    expect(await (await allowed(`${server.url}/meta`)).json()).toEqual({ ok: true });
    const guarded = guardedRequest([]);
    await expect(guarded(`${server.url}/meta`)).rejects.toThrow(
      /was not contacted: 127\.0\.0\.1 resolves to 127\.0\.0\.1, a loopback address/,
    );
    const byName = guardedRequest(['127.0.0.1']);
    await expect(byName(`http://localhost:${server.port}/meta`)).rejects.toThrow(
      /was not contacted: localhost resolves to \S+, a loopback address/,
    );
    expect(server.requests).toEqual(['GET /meta']);
  });

  it('refuses other schemes and leaves redirects to the caller', async () => {
    const request = guardedRequest(['127.0.0.1']);
    await expect(request('file:///etc/passwd')).rejects.toThrow(/Only http and https/);
    const redirect = await request(`${server.url}/away`);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('http://169.254.169.254/');
  });
});
