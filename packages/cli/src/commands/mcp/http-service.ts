/**
 * `toolhost mcp --http`: streamable HTTP (on 127.0.0.1 unless --host says otherwise) as a
 * service for many clients. Every MCP request carries the bearer token and names this
 * service in its Host and Origin (allowed-hosts.ts); `/healthz` answers without one.
 * Sessions live in HttpSessions (idle expiry, a cap at which the least recently used idle
 * session makes room); open streams whose client stopped reading are closed
 * (stream-watch.ts); a body declared too large is refused before it is read; a client
 * that drops the connection of a call has the call cancelled; a stop signal stops
 * accepting, lets calls finish within a grace period, cancels the rest, closes every
 * session and exits 0.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { spawnFromThread } from '@toolhost/core/files';
import {
  type createToolhostMcpServer,
  isInitializeRequest,
  loadStreamableHttpTransport,
} from '@toolhost/core/mcp';
import { stopGracefullyOnSignal } from '@toolhost/core/utils';
import { UsageError } from '../../errors.js';
import { hostPolicy } from './allowed-hosts.js';
import {
  declaresTooMuch,
  MAX_BODY_BYTES,
  onlyAnswers,
  PARSE_ERROR,
  readJsonBody,
  replyAndClose,
  replyError,
  replyJson,
  requestIds,
  SERVER_ERROR,
  SESSION_NOT_FOUND,
} from './http-replies.js';
import { type HttpSession, HttpSessions } from './http-sessions.js';
import { serviceLog } from './service-log.js';
import { watchStreams } from './stream-watch.js';

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
  /** Sessions one client address may hold at most; 0 for no limit of its own. */
  maxSessionsPerClient: number;
  /** Keep-alive comments and pings on open streams, this often (stream-watch.ts). */
  keepAliveMs: number;
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
  const sessions = new HttpSessions(
    options,
    () => newServer(stop.signal),
    log,
    await loadStreamableHttpTransport(),
  );
  const expected = digest(options.token);
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
      // A body declared too large is never read: the connection ends with the answer.
      bodyUnread = declaresTooMuch(req),
    ) => {
      const session = req.headers['mcp-session-id'];
      log({
        event: 'refused',
        status,
        reason,
        ...(typeof session === 'string' ? { session } : {}),
      });
      if (bodyUnread) replyAndClose(req, res, status, code, message, headers);
      else replyError(res, status, code, message, headers);
    };
    const tooLarge = () =>
      refuse(
        413,
        SERVER_ERROR,
        `Payload too large: request bodies are limited to ${MAX_BODY_BYTES / 1024 / 1024} MiB; send large content in smaller pieces.`,
        'body too large',
        {},
        true,
      );
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
    if (!hasToken(req.headers.authorization, expected))
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
    if (declaresTooMuch(req)) return tooLarge();
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
      // Sent without a size (chunked) and over the limit: the rest is not read either.
      if (read.kind === 'too-large') return tooLarge();
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
      const address = req.socket.remoteAddress ?? '';
      const noRoom = sessions.makeRoom(address);
      if (noRoom === 'client full')
        return refuse(
          429,
          SERVER_ERROR,
          `Too many sessions from this address: at most ${options.maxSessionsPerClient} (--max-sessions-per-client), and each of them has a request being answered. Retry when one of them is done, or end unused sessions (DELETE /mcp).`,
          'client session limit',
          { 'retry-after': '5' },
        );
      if (noRoom === 'service full')
        return refuse(
          503,
          SERVER_ERROR,
          `Too many sessions: this toolhost mcp serves at most ${options.maxSessions} live sessions (--max-sessions), and each of them has a request being answered. Retry later, or restart it with a higher --max-sessions.`,
          'session limit',
          { 'retry-after': '5' },
        );
      opened = await sessions.open(address);
      session = opened;
    }
    const live = session;
    const ids = requestIds(body);
    // Answering the server's pings is not using the session: it does not make it recent.
    const untrack = sessions.track(live, req, res, ids, !onlyAnswers(body));
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
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new UsageError(listenProblem(error, options.host, options.port))),
    );
    server.listen(options.port, options.host, resolve);
  });
  actualPort = (server.address() as AddressInfo).port;
  const stopWatching = watchStreams(sessions, options.keepAliveMs, log);
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
        stopWatching();
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

/** The SHA-256 of a token: compared in constant time whatever the lengths. */
function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/**
 * Whether an Authorization header carries the token. The scheme's name is matched in any
 * case, as HTTP says; the token itself exactly, by its digest, in constant time.
 */
function hasToken(header: string | undefined, expected: Buffer): boolean {
  const match = /^bearer +(.+)$/i.exec(header ?? '');
  return timingSafeEqual(digest(match?.[1] ?? ''), expected) && match !== null;
}

/** A failure to listen, said as what to do about it (a usage error: one line, exit 2). */
function listenProblem(error: NodeJS.ErrnoException, host: string, port: number): string {
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  switch (error.code) {
    case 'EADDRINUSE':
      return `cannot listen on ${where}: the port is in use (another toolhost mcp or another server). Stop that one, or pick another port with --http <port> (--http 0 picks a free one).`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: ${host} is not an address of this machine. Pass one of its own addresses with --host (127.0.0.1 for this machine only, 0.0.0.0 for all).`;
    case 'EACCES':
    case 'EPERM':
      return `cannot listen on ${where}: not allowed (ports below 1024 need privileges). Pick a port from 1024 up with --http <port>.`;
    default:
      return `cannot listen on ${where}: ${error.message}. Check --host and --http.`;
  }
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
