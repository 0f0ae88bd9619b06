/**
 * `toolhost mcp`: serves the tools over MCP, on stdio (the default) or on streamable HTTP
 * bound to 127.0.0.1, where every request must carry the bearer token and come from a
 * local origin.
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createToolhostMcpServer,
  type ToolhostMcpServerOptions,
} from '@toolhost/core/internal/mcp/mcp-server.js';
import {
  isInitializeRequest,
  StdioServerTransport,
  StreamableHTTPServerTransport,
} from '@toolhost/core/internal/mcp/mcp-transports.js';
import { exitCleanlyOnSignals } from '@toolhost/core/internal/utils/termination.js';
import { UsageError } from '../errors.js';
import type { Session } from '../session.js';

export interface McpCommandOptions {
  http?: string | boolean;
  token?: string;
}

export async function runMcpCommand(
  session: Session,
  options: McpCommandOptions,
  stderr: NodeJS.WriteStream,
  version: string,
): Promise<number> {
  // Ctrl+C ends the server like TERM and HUP do: every running command ended first.
  const removeHandlers = exitCleanlyOnSignals({ signals: ['SIGINT'] });
  try {
    return await serve(session, options, stderr, version);
  } finally {
    removeHandlers();
  }
}

async function serve(
  session: Session,
  options: McpCommandOptions,
  stderr: NodeJS.WriteStream,
  version: string,
): Promise<number> {
  const serverOptions = { version, warnings: session.warnings };
  if (options.http === undefined || options.http === false) {
    const server = createToolhostMcpServer(session.config, session.registry, serverOptions);
    const transport = new StdioServerTransport();
    // A person who starts it in a terminal would otherwise see nothing and think it hung.
    if (process.stdin.isTTY)
      stderr.write(
        `toolhost mcp: serving toolhost's tools over stdio for ${session.config.targetDir}; MCP clients start this command themselves (Ctrl+C stops it).\n`,
      );
    const closed = new Promise<void>((resolve) => {
      transport.onclose = resolve;
      process.stdin.once('end', resolve);
    });
    await server.connect(transport);
    await closed;
    await server.close().catch(() => undefined);
    return 0;
  }
  const port = options.http === true ? 0 : Number(options.http);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(
      `--http takes a port number from 0 to 65535 (0 picks a free one); got "${String(options.http)}".`,
    );
  }
  const token = options.token ?? process.env.TOOLHOST_MCP_TOKEN ?? randomBytes(24).toString('hex');
  return serveHttp(
    session,
    port,
    token,
    stderr,
    serverOptions,
    options.token === undefined && !process.env.TOOLHOST_MCP_TOKEN,
  );
}

async function serveHttp(
  session: Session,
  port: number,
  token: string,
  stderr: NodeJS.WriteStream,
  serverOptions: ToolhostMcpServerOptions,
  printToken: boolean,
): Promise<number> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const expected = Buffer.from(`Bearer ${token}`);
  let actualPort = port;
  const localHosts = () => new Set([`127.0.0.1:${actualPort}`, `localhost:${actualPort}`]);
  const refuse = (
    res: http.ServerResponse,
    status: number,
    message: string,
    headers: Record<string, string> = {},
  ) =>
    res
      .writeHead(status, { 'content-type': 'application/json', ...headers })
      .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/mcp') return refuse(res, 404, 'Not found: the MCP endpoint is /mcp.');
    // A page in a browser must not reach this server by rebinding a name to 127.0.0.1.
    if (!localHosts().has(req.headers.host ?? ''))
      return refuse(res, 403, 'Forbidden: unexpected Host header.');
    const origin = req.headers.origin;
    if (origin && !localHosts().has(origin.replace(/^https?:\/\//, '')))
      return refuse(res, 403, 'Forbidden: requests from other origins are refused.');
    const given = Buffer.from(req.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return refuse(
        res,
        401,
        'Unauthorized: send the bearer token printed when toolhost mcp started.',
        { 'www-authenticate': 'Bearer' },
      );
    }
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    let body: unknown;
    if (req.method === 'POST') {
      try {
        body = await readJson(req);
      } catch {
        return refuse(res, 400, 'Bad request: the body is not JSON.');
      }
    }
    if (!transport) {
      if (req.method !== 'POST' || !isInitializeRequest(body))
        return refuse(res, 400, 'Bad request: no valid session; start with an initialize request.');
      const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          transports.set(id, created);
        },
      });
      created.onclose = () => {
        if (created.sessionId) transports.delete(created.sessionId);
      };
      await createToolhostMcpServer(session.config, session.registry, serverOptions).connect(
        created,
      );
      transport = created;
    }
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  actualPort = (server.address() as AddressInfo).port;
  stderr.write(`toolhost mcp: serving on http://127.0.0.1:${actualPort}/mcp\n`);
  if (printToken) stderr.write(`toolhost mcp: bearer token ${token}\n`);
  // It serves until a signal stops the process (see utils/termination.ts in core).
  await new Promise<never>(() => undefined);
  return 0;
}

function readJson(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > 16 * 1024 * 1024) req.destroy();
    });
    req.on('end', () => {
      try {
        resolve(JSON.parse(text));
      } catch (error) {
        reject(error);
      }
    });
    req.on('error', reject);
  });
}
