/**
 * The transports of MCP servers (stdio, SSE, streamable HTTP) as settings describe them,
 * their orderly end, and the reachability probe that tells a dropped stream from a dead
 * server.
 */
import net from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { MCP_SERVER_DEFAULTS, type McpServerSettings } from '../../config/settings.js';
import { withoutSecrets } from '../../shell/shell-environment.js';
import { withTimeout } from './errors.js';
import type { ToolhostOAuthProvider } from './oauth.js';

/** How long ending a remote session may take; toolhost closes without waiting longer. */
const END_SESSION_MS = 2000;

/** Locale and terminal variables a stdio server may need, on top of the SDK's minimal set. */
const PASSED_THROUGH =
  /^(LANG|LANGUAGE|LC_[A-Z]+|TERM|TZ|TMPDIR|TEMP|TMP|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SystemRoot)$/;

export function stdioEnvironment(
  configured: Record<string, string> | undefined,
  base: NodeJS.ProcessEnv = process.env,
  allowEnv: readonly string[] = [],
): Record<string, string> {
  const inherited: Record<string, string> = { ...getDefaultEnvironment() };
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && PASSED_THROUGH.test(name)) inherited[name] = value;
  }
  // The server's own `env` entries are the person's explicit choice; what is inherited is filtered.
  return { ...withoutSecrets(inherited, allowEnv), ...configured };
}

/** The endpoint of a remote server, or undefined for a stdio server. */
export function remoteUrl(settings: McpServerSettings): URL | undefined {
  const url = settings.httpUrl ?? settings.url;
  return url ? new URL(url) : undefined;
}

export function createTransport(
  settings: McpServerSettings,
  defaultCwd: string,
  authProvider?: ToolhostOAuthProvider,
  allowEnv: readonly string[] = [],
): Transport {
  const headers = settings.headers ?? {};
  const auth = authProvider ? { authProvider, fetch: authProvider.watchScopeChallenges() } : {};
  if (settings.httpUrl) {
    return new StreamableHTTPClientTransport(new URL(settings.httpUrl), {
      requestInit: { headers },
      ...auth,
    });
  }
  if (settings.url) {
    return new SSEClientTransport(new URL(settings.url), {
      requestInit: { headers },
      ...auth,
    });
  }
  if (settings.command) {
    return new StdioClientTransport({
      command: settings.command,
      args: settings.args ?? [],
      env: stdioEnvironment(settings.env, process.env, allowEnv),
      cwd: settings.cwd ?? defaultCwd,
      stderr: 'pipe',
      maxBufferSize: settings.maxMessageBytes ?? MCP_SERVER_DEFAULTS.maxMessageBytes,
    });
  }
  throw new Error('has no command, url or httpUrl; set one of them in its mcpServers entry');
}

/**
 * Closes an SDK client. A streamable HTTP session is ended first (DELETE with its id), as
 * the specification asks of a client that leaves: the server frees it at once instead of
 * holding it until it expires, and a server with a full session table lets others in.
 * `transport` is closed too: a client still connecting may not hold it yet.
 */
export async function closeClient(client: Client, transport?: Transport): Promise<void> {
  const http = client.transport ?? transport;
  if (http instanceof StreamableHTTPClientTransport && http.sessionId !== undefined)
    await withTimeout(
      http.terminateSession(),
      END_SESSION_MS,
      'the server did not answer the end of the session',
    ).catch(() => undefined);
  await client.close();
  await transport?.close();
}

/**
 * Whether something still accepts connections at the server's address. A stream that
 * breaks while the server listens may be resumed; one whose server is gone cannot.
 * Resolves with the reason it is unreachable, or undefined when it answers.
 */
export function probeReachable(url: URL, timeoutMs = 1000): Promise<string | undefined> {
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (reason: string | undefined) => {
      socket.destroy();
      resolve(reason);
    };
    socket.setTimeout(timeoutMs, () => done(`no answer from ${url.host} within ${timeoutMs} ms`));
    socket.once('connect', () => done(undefined));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      done(error.code === 'ECONNREFUSED' ? `connection refused by ${url.host}` : error.message),
    );
  });
}
