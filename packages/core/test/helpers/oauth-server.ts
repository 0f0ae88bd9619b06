/**
 * An MCP server behind OAuth on 127.0.0.1, built from the MCP SDK's server pieces: its
 * authorization server (metadata, dynamic registration, PKCE, tokens, refresh) and the
 * bearer check in front of a streamable HTTP endpoint. The sign-in page approves at once,
 * as if the person had clicked "allow".
 */
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import {
  InvalidGrantError,
  InvalidTokenError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type {
  AuthorizationParams,
  OAuthServerProvider,
} from '@modelcontextprotocol/sdk/server/auth/provider.js';
import {
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthRouter,
} from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type {
  OAuthClientInformationFull,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

// express comes with the SDK; its types do not, so it is used untyped here.
// biome-ignore lint/suspicious/noExplicitAny: see above
const express = createRequire(import.meta.url)('express') as any;

export class TestAuthorizationServer implements OAuthServerProvider {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  private readonly codes = new Map<string, { clientId: string; challenge: string }>();
  private readonly accessTokens = new Map<string, { clientId: string; expiresAt: number }>();
  private readonly refreshTokens = new Map<string, string>();
  refreshes = 0;

  readonly clientsStore = {
    getClient: async (id: string) => this.clients.get(id),
    registerClient: async (client: OAuthClientInformationFull) => {
      this.clients.set(client.client_id, client);
      return client;
    },
  };

  async authorize(
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    res: { redirect(url: string): void },
  ): Promise<void> {
    const code = randomUUID();
    this.codes.set(code, { clientId: client.client_id, challenge: params.codeChallenge });
    const back = new URL(params.redirectUri);
    back.searchParams.set('code', code);
    if (params.state) back.searchParams.set('state', params.state);
    res.redirect(back.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string) {
    const entry = this.codes.get(code);
    if (!entry) throw new InvalidGrantError('unknown authorization code');
    return entry.challenge;
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string) {
    const entry = this.codes.get(code);
    if (!entry || entry.clientId !== client.client_id)
      throw new InvalidGrantError('unknown authorization code');
    this.codes.delete(code);
    return this.issue(client.client_id);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string) {
    if (this.refreshTokens.get(refreshToken) !== client.client_id)
      throw new InvalidGrantError('unknown refresh token');
    this.refreshTokens.delete(refreshToken);
    this.refreshes++;
    return this.issue(client.client_id);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const entry = this.accessTokens.get(token);
    if (!entry || entry.expiresAt <= Date.now() / 1000)
      throw new InvalidTokenError('the access token is unknown or expired');
    return { token, clientId: entry.clientId, scopes: ['mcp'], expiresAt: entry.expiresAt };
  }

  /** Makes every access token issued so far expire now (refresh tokens stay good). */
  expireAccessTokens(): void {
    for (const entry of this.accessTokens.values()) entry.expiresAt = 0;
  }

  private issue(clientId: string): OAuthTokens {
    const access = randomUUID();
    const refresh = randomUUID();
    this.accessTokens.set(access, { clientId, expiresAt: Date.now() / 1000 + 3600 });
    this.refreshTokens.set(refresh, clientId);
    return { access_token: access, token_type: 'Bearer', expires_in: 3600, refresh_token: refresh };
  }
}

export async function startOAuthMcpServer(): Promise<{
  url: string;
  auth: TestAuthorizationServer;
  close(): Promise<void>;
}> {
  const auth = new TestAuthorizationServer();
  const app = express();
  const server: http.Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const mcpUrl = new URL('/mcp', base);
  app.use(
    mcpAuthRouter({
      provider: auth,
      issuerUrl: base,
      resourceServerUrl: mcpUrl,
      scopesSupported: ['mcp'],
    }),
  );
  const bearer = requireBearerAuth({
    verifier: auth,
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
  });
  app.post(
    '/mcp',
    express.json(),
    bearer,
    async (
      req: http.IncomingMessage & { body: unknown; auth?: AuthInfo },
      res: http.ServerResponse,
    ) => {
      const mcp = new McpServer({ name: 'guarded', version: '1.0.0' });
      mcp.registerTool('whoami', { description: 'says which client called' }, async () => ({
        content: [{ type: 'text', text: `signed in as ${req.auth?.clientId}` }],
      }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => {
        void transport.close();
        void mcp.close();
      });
      await mcp.connect(transport);
      await transport.handleRequest(req, res, req.body);
    },
  );
  app.get('/mcp', (_req: unknown, res: http.ServerResponse) => res.writeHead(405).end());
  return {
    url: mcpUrl.href,
    auth,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
