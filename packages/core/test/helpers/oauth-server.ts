/**
 * An MCP server behind OAuth on 127.0.0.1, built from the MCP SDK's server pieces: its
 * authorization server (metadata, dynamic registration, PKCE, tokens, refresh) and the
 * bearer check in front of a streamable HTTP endpoint. The sign-in page approves at once,
 * as if the person had clicked "allow", granting the scopes asked for.
 *
 * On top of the SDK's pieces, which stop there: the client_credentials grant (a client
 * secret in Basic auth, or a private_key_jwt assertion checked against the client's public
 * key), client ID metadata documents (client IDs that are https URLs, the documents given
 * by the test instead of fetched), and a tool, `erase`, that needs the `admin` scope and
 * answers 403 insufficient_scope without it (step-up).
 */
import { createPublicKey, randomUUID, verify } from 'node:crypto';
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
  createOAuthMetadata,
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthRouter,
} from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type {
  OAuthClientInformationFull,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

// express comes with the SDK; its types do not, so it is used untyped here.
// biome-ignore lint/suspicious/noExplicitAny: see above
const express = createRequire(import.meta.url)('express') as any;

interface Grant {
  clientId: string;
  scopes: string[];
}

export class TestAuthorizationServer implements OAuthServerProvider {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  /** Client ID metadata documents by their URL, as the authorization server would fetch them. */
  readonly metadataDocuments = new Map<string, OAuthClientMetadata>();
  /** Public keys (PEM) of clients that authenticate with private_key_jwt. */
  readonly clientKeys = new Map<string, string>();
  /** Scopes of each authorization request, in order. */
  readonly scopesAsked: string[][] = [];
  private readonly codes = new Map<string, Grant & { challenge: string }>();
  private readonly accessTokens = new Map<string, Grant & { expiresAt: number }>();
  private readonly refreshTokens = new Map<string, Grant>();
  refreshes = 0;

  readonly clientsStore = {
    getClient: async (id: string): Promise<OAuthClientInformationFull | undefined> => {
      const document = this.metadataDocuments.get(id);
      return document ? { ...document, client_id: id } : this.clients.get(id);
    },
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
    const scopes = params.scopes ?? [];
    this.scopesAsked.push(scopes);
    this.codes.set(code, { clientId: client.client_id, scopes, challenge: params.codeChallenge });
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
    return this.issue({ clientId: client.client_id, scopes: entry.scopes });
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string) {
    const grant = this.refreshTokens.get(refreshToken);
    if (grant?.clientId !== client.client_id) throw new InvalidGrantError('unknown refresh token');
    this.refreshTokens.delete(refreshToken);
    this.refreshes++;
    return this.issue(grant);
  }

  /** The client_credentials grant: a secret in Basic auth or the body, or a signed assertion. */
  async clientCredentials(body: Record<string, string>, authorization: string | undefined) {
    let clientId: string | undefined;
    if (body.client_assertion) {
      clientId = this.checkAssertion(body.client_assertion);
    } else {
      const [id, secret] = authorization?.startsWith('Basic ')
        ? Buffer.from(authorization.slice(6), 'base64')
            .toString()
            .split(':')
            .map(decodeURIComponent)
        : [body.client_id, body.client_secret];
      const client = this.clients.get(id ?? '');
      if (!client?.client_secret || client.client_secret !== secret) return undefined;
      clientId = id;
    }
    if (!clientId) return undefined;
    return this.issue({ clientId, scopes: body.scope?.split(' ') ?? [] }, false);
  }

  /** The client a private_key_jwt assertion (RS256) names, if its signature and claims hold. */
  private checkAssertion(assertion: string): string | undefined {
    const [header, payload, signature] = assertion.split('.');
    if (!header || !payload || !signature) return undefined;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as {
      sub?: string;
      iss?: string;
      exp?: number;
    };
    const key = this.clientKeys.get(claims.sub ?? '');
    if (!key || claims.iss !== claims.sub || (claims.exp ?? 0) < Date.now() / 1000)
      return undefined;
    const signed = Buffer.from(`${header}.${payload}`);
    const valid = verify(
      'sha256',
      signed,
      createPublicKey(key),
      Buffer.from(signature, 'base64url'),
    );
    return valid ? claims.sub : undefined;
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const entry = this.accessTokens.get(token);
    if (!entry || entry.expiresAt <= Date.now() / 1000)
      throw new InvalidTokenError('the access token is unknown or expired');
    return { token, clientId: entry.clientId, scopes: entry.scopes, expiresAt: entry.expiresAt };
  }

  /** Makes every access token issued so far expire now (refresh tokens stay good). */
  expireAccessTokens(): void {
    for (const entry of this.accessTokens.values()) entry.expiresAt = 0;
  }

  private issue(grant: Grant, refreshable = true): OAuthTokens {
    const access = randomUUID();
    this.accessTokens.set(access, { ...grant, expiresAt: Date.now() / 1000 + 3600 });
    const tokens: OAuthTokens = {
      access_token: access,
      token_type: 'Bearer',
      expires_in: 3600,
      ...(grant.scopes.length ? { scope: grant.scopes.join(' ') } : {}),
    };
    if (!refreshable) return tokens;
    const refresh = randomUUID();
    this.refreshTokens.set(refresh, grant);
    return { ...tokens, refresh_token: refresh };
  }
}

/**
 * `metadata` replaces fields of the authorization server's metadata and `resource` of the
 * protected resource's (a server naming a sign-in page or an authorization server of its
 * choosing).
 */
export async function startOAuthMcpServer(
  overrides: { metadata?: Record<string, unknown>; resource?: Record<string, unknown> } = {},
): Promise<{
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
  const metadata = createOAuthMetadata({
    provider: auth,
    issuerUrl: base,
    scopesSupported: ['mcp'],
  });
  app.get('/.well-known/oauth-authorization-server', (_req: unknown, res: http.ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        ...metadata,
        grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
        token_endpoint_auth_methods_supported: [
          'client_secret_basic',
          'client_secret_post',
          'private_key_jwt',
          'none',
        ],
        client_id_metadata_document_supported: true,
        ...overrides.metadata,
      }),
    );
  });
  if (overrides.resource) {
    const resource = {
      resource: mcpUrl.href,
      authorization_servers: [base.href],
      ...overrides.resource,
    };
    for (const route of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
    ])
      app.get(route, (_req: unknown, res: http.ServerResponse) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(resource));
      });
  }
  app.post(
    '/token',
    express.urlencoded({ extended: false }),
    async (
      req: http.IncomingMessage & { body: Record<string, string> },
      res: http.ServerResponse,
      next: () => void,
    ) => {
      if (req.body.grant_type !== 'client_credentials') return next();
      const tokens = await auth.clientCredentials(req.body, req.headers.authorization);
      res
        .writeHead(tokens ? 200 : 401, { 'content-type': 'application/json' })
        .end(JSON.stringify(tokens ?? { error: 'invalid_client' }));
    },
  );
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
      const call = req.body as { method?: string; params?: { name?: string } };
      if (
        call.method === 'tools/call' &&
        call.params?.name === 'erase' &&
        !req.auth?.scopes.includes('admin')
      ) {
        const prm = getOAuthProtectedResourceMetadataUrl(mcpUrl);
        res
          .writeHead(403, {
            'content-type': 'application/json',
            'www-authenticate': `Bearer error="insufficient_scope", scope="mcp admin", resource_metadata="${prm}"`,
          })
          .end(JSON.stringify({ error: 'insufficient_scope' }));
        return;
      }
      const mcp = new McpServer({ name: 'guarded', version: '1.0.0' });
      mcp.registerTool('whoami', { description: 'says which client called' }, async () => ({
        content: [{ type: 'text', text: `signed in as ${req.auth?.clientId}` }],
      }));
      mcp.registerTool('erase', { description: 'needs the admin scope' }, async () => ({
        content: [{ type: 'text', text: `erased by ${req.auth?.clientId}` }],
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
