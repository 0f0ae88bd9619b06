/**
 * What `toolhost mcp --http` answers before a request reaches the MCP SDK: JSON-RPC errors
 * with the HTTP status a client acts on, and request bodies read up to a size limit.
 */
import type http from 'node:http';

/** The largest request body accepted; larger ones are answered 413 without being kept. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

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

export function replyJson(res: http.ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

export type BodyResult =
  | { kind: 'json'; value: unknown }
  | { kind: 'malformed'; reason: string }
  | { kind: 'too-large' };

/**
 * Reads a JSON body. A declared or actual size over the limit stops the keeping at once
 * (what follows is read and discarded), so one request cannot fill the memory.
 */
export function readJsonBody(
  req: http.IncomingMessage,
  limit = MAX_BODY_BYTES,
): Promise<BodyResult> {
  // The rest of a body over the limit is read and dropped before the 413 goes out: a
  // reply that closed the connection while the client still sends would reach it as a
  // broken pipe instead of an answer.
  const tooLarge = (resolve: (result: BodyResult) => void) => {
    req.resume();
    req.once('end', () => resolve({ kind: 'too-large' }));
    req.once('error', () => resolve({ kind: 'too-large' }));
  };
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return new Promise(tooLarge);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        req.off('data', onData);
        tooLarge(resolve);
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
