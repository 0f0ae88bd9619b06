/**
 * `toolhost mcp --http` against clients that misbehave, on 127.0.0.1 with the installed
 * command: clients that vanish without ending their sessions cannot lock others out (the
 * least recently used idle session makes room, a busy one never does, a client address
 * can be held to its own limit); a frozen client's session is freed; a body declared too
 * large is refused before it is sent; HTTP's case rules for the auth scheme and host names.
 */
import http from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { processesMatching, waitUntil } from '../../core/test/helpers/processes.js';
import {
  health,
  INITIALIZE,
  initialize,
  jsonLines,
  mcpServicePerTest,
  post,
  SESSION_HEADERS,
  shellCall,
  TOKEN,
} from './helpers/mcp-service.js';

const service = mcpServicePerTest();
const LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

describe('toolhost mcp --http: a crowd of clients that vanish', () => {
  it('lets the 121st client in after 120 left without ending their sessions (defaults)', {
    timeout: 120_000,
  }, async () => {
    const url = await service.start();
    const vanished: string[] = [];
    for (let i = 0; i < 120; i++) vanished.push(await initialize(url));
    expect((await health(url)).body.sessions).toBe(100);

    const { client } = await service.connect(url);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('read_file');
    // The oldest made room, and the person running the service is told so.
    const gone = await post(url, LIST, SESSION_HEADERS(vanished[0]!));
    expect(gone.status).toBe(404);
    const kept = await post(url, LIST, SESSION_HEADERS(vanished[119]!));
    expect(kept.status).toBe(200);
    await kept.text();
    expect(service.server.stderr()).toMatch(
      /ended session \S+ \(idle \d+ s, the least recently used\) to make room for a new client under --max-sessions 100/,
    );
  });

  it('never ends a session whose call is running; refuses when every session is busy', {
    timeout: 60_000,
  }, async () => {
    const url = await service.start('--max-sessions', '2', '--log-json');
    const busy = await initialize(url);
    const idle = await initialize(url);
    const first = service.sleepCommand();
    const running = await post(url, shellCall(5, first.command), SESSION_HEADERS(busy));
    expect(running.status).toBe(200);
    expect(await waitUntil(() => processesMatching(first.marker).length > 0, 10_000)).toBe(true);
    // `idle` is now the more recently used: by use alone `busy` would go, but its call runs.
    const again = await post(url, LIST, SESSION_HEADERS(idle));
    await again.text();

    const third = await initialize(url);
    expect((await post(url, LIST, SESSION_HEADERS(idle))).status).toBe(404);
    expect(processesMatching(first.marker)).not.toHaveLength(0);
    const second = service.sleepCommand();
    const alsoRunning = await post(url, shellCall(6, second.command), SESSION_HEADERS(third));
    expect(alsoRunning.status).toBe(200);
    expect(await waitUntil(() => processesMatching(second.marker).length > 0, 10_000)).toBe(true);

    const refused = await post(url, INITIALIZE);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /at most 2 live sessions \(--max-sessions\), and each of them has a request being answered/,
    );
    expect(processesMatching(first.marker)).not.toHaveLength(0);
    const events = jsonLines(service.server.stderr());
    expect(events).toContainEqual(
      expect.objectContaining({
        event: 'session_end',
        session: idle,
        reason: 'evicted',
        level: 'warn',
        limit: '--max-sessions 2',
      }),
    );
    await running.body?.cancel().catch(() => undefined);
    await alsoRunning.body?.cancel().catch(() => undefined);
  });

  it('holds one address to --max-sessions-per-client, making room among its own sessions', {
    timeout: 60_000,
  }, async () => {
    const url = await service.start('--max-sessions-per-client', '2');
    const oldest = await initialize(url);
    const busy = await initialize(url);
    const { command, marker } = service.sleepCommand();
    const running = await post(url, shellCall(5, command), SESSION_HEADERS(busy));
    expect(await waitUntil(() => processesMatching(marker).length > 0, 10_000)).toBe(true);
    const newest = await initialize(url);
    expect((await post(url, LIST, SESSION_HEADERS(oldest))).status).toBe(404);
    // Both places are taken, one by a running call: the address has to wait.
    const second = service.sleepCommand();
    const alsoRunning = await post(url, shellCall(6, second.command), SESSION_HEADERS(newest));
    expect(await waitUntil(() => processesMatching(second.marker).length > 0, 10_000)).toBe(true);
    const refused = await post(url, INITIALIZE);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /--max-sessions-per-client/,
    );
    await running.body?.cancel().catch(() => undefined);
    await alsoRunning.body?.cancel().catch(() => undefined);
  });
});

describe('toolhost mcp --http: requests refused early', () => {
  it('answers a 17 MB declaration with 413 and closes, without waiting for the body', {
    timeout: 30_000,
  }, async () => {
    const url = new URL(await service.start());
    const socket = net.connect(Number(url.port), '127.0.0.1');
    let answer = '';
    let ended = false;
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => (ended = true));
    socket.on('error', () => undefined);
    socket.write(
      [
        'POST /mcp HTTP/1.1',
        `Host: 127.0.0.1:${url.port}`,
        `Authorization: Bearer ${TOKEN}`,
        'Content-Type: application/json',
        'Accept: application/json, text/event-stream',
        `Content-Length: ${17 * 1024 * 1024}`,
        '',
        'x'.repeat(1024),
      ].join('\r\n'),
    );
    // The rest of the body never comes: the answer and the end may not wait for it.
    expect(await waitUntil(() => ended, 5_000)).toBe(true);
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/connection: close/i);
    expect(answer).toContain('16 MiB');
  });

  it('accepts the auth scheme and host names in any case, the token only exactly', async () => {
    const url = new URL(await service.start());
    const initializeWith = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify(INITIALIZE);
        const request = http.request(
          url,
          {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              authorization: `Bearer ${TOKEN}`,
              ...headers,
            },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        request.on('error', reject);
        request.end(body);
      });
    expect(await initializeWith({ authorization: `bearer ${TOKEN}` })).toBe(200);
    expect(await initializeWith({ authorization: `BEARER ${TOKEN}` })).toBe(200);
    expect(await initializeWith({ host: `LOCALHOST:${url.port}` })).toBe(200);
    expect(await initializeWith({ origin: `HTTP://LocalHost:${url.port}` })).toBe(200);
    expect(await initializeWith({ authorization: `Bearer ${TOKEN.toUpperCase()}` })).toBe(401);
    expect(await initializeWith({ authorization: `Basic ${TOKEN}` })).toBe(401);
    expect(await initializeWith({ host: `localhost.evil.example:${url.port}` })).toBe(403);
  });
});
