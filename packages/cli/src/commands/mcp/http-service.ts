/**
 * `toolhost mcp --http`: streamable HTTP (on 127.0.0.1 unless --host says otherwise) as a
 * service for many clients. Every MCP request carries the bearer token and names this
 * service in its Host and Origin (allowed-hosts.ts); `/healthz` answers without one. Sessions live in HttpSessions (idle expiry, a cap); a client that drops the
 * connection of a call has the call cancelled; a stop signal stops accepting, lets calls
 * finish within a grace period, cancels the rest, closes every session and exits 0.
 */
import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { spawnFromThread } from '@toolhost/core/files';
import type { createToolhostMcpServer } from '@toolhost/core/mcp';
import { isInitializeRequest } from '@toolhost/core/mcp-http';
import { stopGracefullyOnSignal } from '@toolhost/core/utils';
import { hostPolicy } from './allowed-hosts.js';
import {
  MAX_BODY_BYTES,
  PARSE_ERROR,
  readJsonBody,
  replyError,
  replyJson,
  requestIds,
  SERVER_ERROR,
  SESSION_NOT_FOUND,
} from './http-replies.js';
import { type HttpSession, HttpSessions } from './http-sessions.js';
import { serviceLog } from './service-log.js';

export interface HttpServiceOptions {
  port: number;
  /** The address to listen on (127.0.0.1 unless the person chose another). */
  host: string;
  /** Names besides 127.0.0.1 and localhost that Host and Origin headers may carry. */
  allowedHosts: readonly string[];
  token: string;
  printToken: boolean;
  idleTimeoutMs: number;
  maxSessions: number;
  shutdownGraceMs: number;
  logJson: boolean;
}

/** Searches (ripgrep processes) running at once, per core; more wait their turn. */
const SEARCHES_PER_CORE = 8;

/** How long an idle kept-alive connection stays open (clients' own expiry is shorter). */
const KEEP_ALIVE_MS = 65_000;

/** Cancelled calls get this long to answer before their sessions are closed anyway. */
const CANCEL_SETTLE_MS = 2000;

export async function serveHttp(
  /** A session's server; its running calls end as cancelled, answered, once `stop` aborts. */
  newServer: (stop: AbortSignal) => ReturnType<typeof createToolhostMcpServer>,
  options: HttpServiceOptions,
  stderr: NodeJS.WritableStream,
): Promise<number> {
  const log = serviceLog(stderr, options.logJson);
  // Many clients at once: a search's start must not stop the answers to all the others.
  // The bound keeps 200 clients searching at once from starting 200 ripgreps (each with a
  // thread per core); under it, the cores are still shared by several at a time, which
  // on a busy machine served more calls than a bound of one or two per core.
  spawnFromThread(SEARCHES_PER_CORE * availableParallelism());
  const stop = new AbortController();
  const sessions = new HttpSessions(options, () => newServer(stop.signal), log);
  const expected = Buffer.from(`Bearer ${options.token}`);
  let actualPort = options.port;
  let stopping = false;
  const hosts = hostPolicy(() => actualPort, options.allowedHosts);

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const pathname = endpointPath(req.url);
    const refuse = (
      status: number,
      code: number,
      message: string,
      reason: string,
      headers: Record<string, string> = {},
    ) => {
      const session = req.headers['mcp-session-id'];
      log({
        event: 'refused',
        status,
        reason,
        ...(typeof session === 'string' ? { session } : {}),
      });
      replyError(res, status, code, message, headers);
    };
    // For probes: no token, and nothing in the answer a token would protect.
    if (pathname === '/healthz')
      return replyJson(res, stopping ? 503 : 200, {
        status: stopping ? 'stopping' : 'ok',
        sessions: sessions.size,
        maxSessions: options.maxSessions,
      });
    if (pathname !== '/mcp')
      return refuse(
        404,
        SERVER_ERROR,
        'Not found: the MCP endpoint is /mcp (health checks: /healthz).',
        'path',
      );
    // A page in a browser must not reach this server by rebinding a name to 127.0.0.1.
    if (!hosts.host(req.headers.host))
      return refuse(
        403,
        SERVER_ERROR,
        'Forbidden: unexpected Host header (names other than 127.0.0.1 and localhost need --allowed-hosts).',
        'host',
      );
    const origin = req.headers.origin;
    if (origin && !hosts.origin(origin))
      return refuse(
        403,
        SERVER_ERROR,
        'Forbidden: requests from other origins are refused.',
        'origin',
      );
    const given = Buffer.from(req.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return refuse(
        401,
        SERVER_ERROR,
        'Unauthorized: send the bearer token printed when toolhost mcp started.',
        'token',
        { 'www-authenticate': 'Bearer' },
      );
    if (stopping)
      return refuse(
        503,
        SERVER_ERROR,
        'Service unavailable: toolhost mcp is shutting down; start a new session when it is back.',
        'stopping',
        { connection: 'close' },
      );
    const sessionId = req.headers['mcp-session-id'];
    let session = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    // The specification's answer for a session that has ended: the client initialises anew.
    if (sessionId !== undefined && !session)
      return refuse(
        404,
        SESSION_NOT_FOUND,
        'Session not found: it has ended (closed, idle too long, or the server restarted). Start a new session with an initialize request.',
        'unknown session',
      );
    let body: unknown;
    if (req.method === 'POST') {
      const read = await readJsonBody(req);
      if (read.kind === 'too-large')
        return refuse(
          413,
          SERVER_ERROR,
          `Payload too large: request bodies are limited to ${MAX_BODY_BYTES / 1024 / 1024} MiB; send large content in smaller pieces.`,
          'body too large',
          { connection: 'close' },
        );
      if (read.kind === 'malformed')
        return refuse(
          400,
          PARSE_ERROR,
          `Parse error: the body is not valid JSON (${read.reason}).`,
          'malformed JSON',
        );
      body = read.value;
    }
    let opened: HttpSession | undefined;
    if (!session) {
      if (req.method !== 'POST' || !isInitializeRequest(body))
        return refuse(
          400,
          SERVER_ERROR,
          'Bad request: no session id; start a session with an initialize request.',
          'no session',
        );
      if (!sessions.hasRoom())
        return refuse(
          503,
          SERVER_ERROR,
          `Too many sessions: this toolhost mcp serves at most ${options.maxSessions} live sessions (--max-sessions). End unused sessions (DELETE /mcp), retry later, or restart it with a higher --max-sessions.`,
          'session limit',
          { 'retry-after': '5' },
        );
      opened = await sessions.open();
      session = opened;
    }
    const live = session;
    const ids = requestIds(body);
    const untrack = sessions.track(live, ids);
    res.on('close', () => {
      // The client went away before its answer: the call stops as if it had been cancelled.
      if (!res.writableFinished) {
        const running = ids.filter((id) => live.inFlight.has(id));
        sessions.cancel(live, running, 'the client disconnected');
      }
      untrack();
    });
    await live.transport.handleRequest(req, res, body);
    // An initialize request the SDK refused leaves no session: free what was made for it.
    if (opened && opened.transport.sessionId === undefined)
      await opened.server.close().catch(() => undefined);
  };

  const server = http.createServer(
    // Node closes an idle kept-alive connection after 5 s, the idle expiry of common
    // clients too (Python's httpx): a client that sends on it as it closes gets a reset.
    // Outliving the clients' own expiry leaves the closing to them.
    { keepAliveTimeout: KEEP_ALIVE_MS, headersTimeout: KEEP_ALIVE_MS + 1000 },
    (req, res) => {
      handle(req, res).catch((error: unknown) => {
        replyError(
          res,
          500,
          SERVER_ERROR,
          `Internal error: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  actualPort = (server.address() as AddressInfo).port;
  const shown = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${shown}:${actualPort}/mcp`;
  stderr.write(`toolhost mcp: serving on ${url}\n`);
  if (options.printToken) stderr.write(`toolhost mcp: bearer token ${options.token}\n`);
  log({ event: 'listening', url });

  return new Promise<number>((resolve) => {
    const release = stopGracefullyOnSignal((signal) => {
      stopping = true;
      void (async () => {
        log({ event: 'shutdown', signal, inFlight: sessions.inFlightCount() });
        server.close();
        server.closeIdleConnections();
        await settle(() => sessions.inFlightCount() === 0, options.shutdownGraceMs);
        const cancelled = sessions.inFlightCount();
        stop.abort();
        if (cancelled > 0) await settle(() => sessions.inFlightCount() === 0, CANCEL_SETTLE_MS);
        await sessions.endAll('shutdown');
        server.closeAllConnections();
        log({ event: 'stopped', cancelled });
        release();
        resolve(0);
      })();
    });
  });
}

/** The path of a request's URL; the usual ones without building a URL object for each call. */
function endpointPath(url = '/'): string {
  if (url === '/mcp' || url.startsWith('/mcp?')) return '/mcp';
  return new URL(url, 'http://127.0.0.1').pathname;
}

/** Waits until `done` holds or `ms` have passed. */
async function settle(done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((wake) => setTimeout(wake, 50));
}
