/**
 * The load bench's client side: MCP sessions over streamable HTTP spoken with node:http
 * directly (no SDK client), so the load generator costs little CPU beside the server it
 * measures. A session initialises, lists the tools, then calls one tool after another
 * from a fixed mix until the deadline; every call's time and every failure is recorded.
 */
import http from 'node:http';

/** Socket errors (reset, refused, hang up) apart from HTTP errors and tool errors. */
export function newTally() {
  return {
    latencies: new Map(),
    completed: 0,
    completedInWindow: 0,
    socketErrors: 0,
    httpErrors: 0,
    toolErrors: 0,
    examples: new Set(),
  };
}

function note(tally, kind, detail) {
  tally[kind]++;
  if (tally.examples.size < 5) tally.examples.add(`${kind}: ${detail}`);
}

/** One MCP session: a POST per message, SSE or JSON answers, the session id kept. */
export class LoadSession {
  constructor(url, token, agent) {
    this.url = new URL(url);
    this.token = token;
    this.agent = agent;
    this.sessionId = undefined;
    this.nextId = 1;
  }

  request(method, body) {
    return new Promise((resolve, reject) => {
      const headers = {
        authorization: `Bearer ${this.token}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-protocol-version': '2025-06-18',
        ...(this.sessionId ? { 'mcp-session-id': this.sessionId } : {}),
      };
      const req = http.request(this.url, { method, headers, agent: this.agent }, (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('error', (error) => reject(Object.assign(error, { socket: true })));
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            session: res.headers['mcp-session-id'],
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      });
      req.on('error', (error) => reject(Object.assign(error, { socket: true })));
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  }

  /** Sends a JSON-RPC request and returns its answer (from a JSON body or an SSE stream). */
  async rpc(method, params) {
    const id = this.nextId++;
    const reply = await this.request('POST', { jsonrpc: '2.0', id, method, params });
    if (reply.status >= 400)
      throw Object.assign(new Error(`HTTP ${reply.status}: ${reply.text.slice(0, 200)}`), {
        http: true,
      });
    if (reply.session) this.sessionId = reply.session;
    const message = findAnswer(reply.text, id);
    if (!message) throw new Error(`no answer to ${method} in: ${reply.text.slice(0, 200)}`);
    if (message.error) throw new Error(`${method}: ${message.error.message}`);
    return message.result;
  }

  async open() {
    await this.rpc('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'toolhost-load-bench', version: '1.0.0' },
    });
    const sent = await this.request('POST', {
      jsonrpc: '2.0',
      method: 'notifications/initialized',
    });
    if (sent.status >= 400) throw Object.assign(new Error(`HTTP ${sent.status}`), { http: true });
    const { tools } = await this.rpc('tools/list', {});
    return tools.map((tool) => tool.name);
  }

  async close() {
    if (this.sessionId) await this.request('DELETE').catch(() => undefined);
  }
}

function findAnswer(text, id) {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    const parsed = JSON.parse(trimmed);
    return (Array.isArray(parsed) ? parsed : [parsed]).find((message) => message.id === id);
  }
  for (const line of text.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const message = JSON.parse(line.slice(5));
    if (message.id === id) return message;
  }
  return undefined;
}

/** Sorts a failure into the tally by its kind. */
function recordFailure(tally, error) {
  if (error.socket) note(tally, 'socketErrors', error.code ?? error.message);
  else if (error.http) note(tally, 'httpErrors', error.message);
  else note(tally, 'toolErrors', error.message);
}

/** Opens a session, tried again after a failure (each one counted) until `deadline`. */
export async function openSession(session, { tally, deadline }) {
  while (Date.now() < deadline) {
    try {
      return await session.open();
    } catch (error) {
      recordFailure(tally, error);
    }
  }
  throw new Error(`a session could not be opened: ${[...tally.examples].join('; ')}`);
}

/**
 * Calls tools from `nextCall(session index, call index)` one after another until
 * `deadline`; calls that end after it count in the totals (CPU per call) but not in the
 * window (calls per second).
 */
export async function runCalls(session, index, { nextCall, deadline, tally }) {
  for (let call = 0; Date.now() < deadline; call++) {
    const { name, args } = nextCall(index, call);
    const start = performance.now();
    try {
      const result = await session.rpc('tools/call', { name, arguments: args });
      if (result.isError) throw new Error(`${name}: ${result.content?.[0]?.text?.slice(0, 200)}`);
      const end = performance.now();
      const list = tally.latencies.get(name) ?? [];
      tally.latencies.set(name, list);
      list.push(end - start);
      tally.completed++;
      if (Date.now() <= deadline) tally.completedInWindow++;
    } catch (error) {
      recordFailure(tally, error);
    }
  }
}

export const percentile = (values, p) => {
  if (!values?.length) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
