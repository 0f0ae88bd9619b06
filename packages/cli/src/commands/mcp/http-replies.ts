/**
 * What `toolhost mcp --http` answers before a request reaches the MCP SDK: JSON-RPC errors
 * with the HTTP status a client acts on, and request bodies read up to a size limit.
 */
import type http from 'node:http';

/** The largest request body accepted; larger ones are answered 413 without being kept. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** How long what a refused client still sends is read and dropped before its connection ends. */
const LINGER_MS = 5000;

/** JSON-RPC codes: the specification's, and the SDK's for server-defined errors. */
export const PARSE_ERROR = -32700;
export const SERVER_ERROR = -32000;
export const SESSION_NOT_FOUND = -32001;

export function replyError(
  res: http.ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * An error answered at once, before the request's body has been read, and the end of the
 * connection: its body is never wanted. The answer and the end of this side go out now;
 * what the client still sends is read and dropped for a moment, so a client still sending
 * reads the answer instead of a reset, then the connection is closed whatever it does.
 */
export function replyAndClose(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  const socket = req.socket;
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
    ...headers,
  });
  // Written without ending the response: ending it makes Node destroy the socket at once,
  // and a client still sending would get a reset instead of this answer.
  res.write(body);
  req.on('error', () => undefined);
  req.resume();
  socket.end();
  const linger = setTimeout(() => socket.destroy(), LINGER_MS);
  linger.unref();
  socket.once('close', () => clearTimeout(linger));
}

export function replyJson(res: http.ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

export type BodyResult =
  | { kind: 'json'; value: unknown }
  | { kind: 'malformed'; reason: string }
  | { kind: 'too-large' };

/**
 * Reads a JSON body. A declared size over the limit is refused before anything is read,
 * an actual one as soon as it passes the limit (nothing more is kept), so one request can
 * neither fill the memory nor hold its answer back while it is sent.
 */
export function readJsonBody(
  req: http.IncomingMessage,
  limit = MAX_BODY_BYTES,
): Promise<BodyResult> {
  if (declaresTooMuch(req, limit)) return Promise.resolve({ kind: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        req.off('data', onData);
        req.pause();
        resolve({ kind: 'too-large' });
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => {
      if (size > limit) return;
      try {
        resolve({ kind: 'json', value: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      } catch (error) {
        resolve({
          kind: 'malformed',
          reason: error instanceof Error ? error.message : String(error),
        });
      }
    });
    req.on('error', (error) => resolve({ kind: 'malformed', reason: error.message }));
  });
}

/** Whether a request's Content-Length says its body is over the limit. */
export function declaresTooMuch(req: http.IncomingMessage, limit = MAX_BODY_BYTES): boolean {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) && declared > limit;
}

/** The ids of the JSON-RPC requests in a body (one message or a batch). */
export function requestIds(body: unknown): (string | number)[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((message) => {
    if (typeof message !== 'object' || message === null) return [];
    const { id, method } = message as { id?: unknown; method?: unknown };
    return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number')
      ? [id]
      : [];
  });
}

/** Whether a body holds only answers to the server's own requests (a ping's, a question's). */
export function onlyAnswers(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return (
    messages.length > 0 &&
    messages.every(
      (message) =>
        typeof message === 'object' &&
        message !== null &&
        !('method' in message) &&
        ('result' in message || 'error' in message),
    )
  );
}
