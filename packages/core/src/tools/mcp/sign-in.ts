/**
 * Signing in to a remote MCP server (`toolhost mcp auth <server>`) and out of it
 * (`logout`): the interactive half of OAuth. A loopback listener takes the browser's
 * redirect; the SDK does discovery, registration, PKCE and the code exchange; the tokens
 * land in the server's file under ~/.toolhost/mcp-oauth/ for every later session.
 */
import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Config } from '../../config/config.js';
import { MCP_SERVER_DEFAULTS, type McpServerSettings } from '../../config/settings.js';
import { describeError } from './errors.js';
import { ToolhostOAuthProvider } from './oauth.js';
import { listenForRedirect } from './oauth-redirect.js';
import { McpOAuthStore } from './oauth-store.js';
import { createTransport, remoteUrl } from './transport.js';

export interface SignInOptions {
  /** Shows the person the sign-in page: prints it, opens a browser. */
  openAuthorizationUrl: (url: URL) => void | Promise<void>;
  /** How long to wait for the person (default five minutes). */
  timeoutMs?: number;
}

/** Signs in to one server; resolves with the file the tokens are kept in. */
export async function signInToMcpServer(
  config: Config,
  alias: string,
  settings: McpServerSettings,
  options: SignInOptions,
): Promise<string> {
  const url = remoteUrl(settings);
  if (!url)
    throw new Error(
      `MCP server "${alias}" is started as a program (command), not reached over HTTP; only servers with url or httpUrl sign in with OAuth.`,
    );
  const store = new McpOAuthStore(config.userDir, url.href);
  const oauth = settings.oauth ?? {};
  const wanted = oauth.redirectPort ?? portOf(store.data.redirectUrl) ?? 0;
  const listener = await listenForRedirect(wanted, options.timeoutMs).catch(() =>
    // The port toolhost registered last time is taken: register again on a free one.
    oauth.redirectPort === undefined
      ? listenForRedirect(0, options.timeoutMs)
      : Promise.reject(
          new Error(`port ${oauth.redirectPort} (oauth.redirectPort) is taken on 127.0.0.1`),
        ),
  );
  try {
    if (store.data.registered && store.data.redirectUrl !== listener.redirectUrl)
      await store.update({ clientInformation: undefined, registered: false });
    const provider = new ToolhostOAuthProvider(
      store,
      alias,
      oauth,
      { redirectUrl: listener.redirectUrl, openAuthorizationUrl: options.openAuthorizationUrl },
      { allowedHosts: config.settings.tools?.webFetch?.allowedHosts },
    );
    listener.expectState(() => provider.lastState);
    const { requiredScope } = store.data;
    if (requiredScope) {
      // A server asked for more scope than the last sign-in gave (step-up): ask for all of it
      // at once, since the server's first challenge names only the narrower one.
      const asked = await auth(provider, {
        serverUrl: url,
        scope: requiredScope,
        fetchFn: provider.fetch,
      });
      if (asked === 'REDIRECT')
        await auth(provider, {
          serverUrl: url,
          fetchFn: provider.fetch,
          scope: requiredScope,
          authorizationCode: await listener.code(),
        });
    }
    // Connecting and listing make the server name what it needs (401 with its scope); the
    // first attempt ends at the sign-in page, the next brings the code back; then the
    // server must answer with the tokens it issued.
    const timeout = settings.startTimeout ?? settings.timeout ?? MCP_SERVER_DEFAULTS.timeout;
    for (let attempt = 0; attempt < 3; attempt++) {
      const transport = createTransport(settings, config.workspace.projectRoot, provider) as
        | StreamableHTTPClientTransport
        | SSEClientTransport;
      const client = new Client({ name: 'toolhost', version: '0.1.0' });
      try {
        await client.connect(transport, { timeout });
        await client.listTools(undefined, { timeout });
        await client.close();
        return store.file;
      } catch (error) {
        await client.close().catch(() => undefined);
        if (!(error instanceof UnauthorizedError)) throw error;
        const code = await listener.code();
        await transport.finishAuth(code);
      }
    }
    throw new Error('the server still refused the tokens it issued');
  } catch (error) {
    throw new Error(`could not sign in to MCP server "${alias}": ${describeError(error)}`);
  } finally {
    await listener.close();
  }
}

/** Forgets a server's tokens and registration; returns whether there were any. */
export function signOutOfMcpServer(config: Config, settings: McpServerSettings): boolean {
  const url = remoteUrl(settings);
  if (!url) return false;
  return new McpOAuthStore(config.userDir, url.href).remove();
}

function portOf(redirectUrl: string | undefined): number | undefined {
  if (!redirectUrl) return undefined;
  const port = Number(new URL(redirectUrl).port);
  return port > 0 ? port : undefined;
}
