/**
 * OAuth for remote MCP servers, on the MCP SDK's client auth: the SDK discovers the
 * protected-resource and authorization-server metadata, registers a client dynamically,
 * runs PKCE and refreshes tokens; this file stores what it learns per server (one file
 * per server under ~/.toolhost/mcp-oauth/, mode 0600), listens on 127.0.0.1 for the
 * browser's redirect, and says what the person must do when a server needs them.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import {
  extractWWWAuthenticateParams,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerSettings } from '../config/settings.js';
import { writeFileAtomic } from '../utils/atomic-write.js';

/** Thrown when a server needs the person to sign in and nobody can be asked here. */
export class McpAuthRequiredError extends Error {}

interface StoredAuth {
  serverUrl: string;
  redirectUrl?: string;
  clientInformation?: OAuthClientInformationMixed;
  /** True when toolhost registered the client itself (it may register again). */
  registered?: boolean;
  tokens?: OAuthTokens;
  codeVerifier?: string;
  discoveryState?: OAuthDiscoveryState;
  /** Scope a server asked for beyond what the tokens carry (step-up); the next sign-in asks for it. */
  requiredScope?: string;
}

export function oauthFile(userDir: string, serverUrl: string): string {
  const digest = createHash('sha256').update(serverUrl).digest('hex').slice(0, 24);
  return path.join(userDir, 'mcp-oauth', `${digest}.json`);
}

/** What toolhost keeps for one server: client registration, tokens, discovery. */
export class McpOAuthStore {
  readonly file: string;
  data: StoredAuth;

  constructor(
    userDir: string,
    readonly serverUrl: string,
  ) {
    this.file = oauthFile(userDir, serverUrl);
    this.data = { serverUrl };
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as StoredAuth;
      if (parsed.serverUrl === serverUrl) this.data = parsed;
    } catch {
      // Nothing stored yet.
    }
  }

  get hasTokens(): boolean {
    return Boolean(this.data.tokens?.access_token);
  }

  async update(changes: Partial<StoredAuth>): Promise<void> {
    this.data = { ...this.data, ...changes };
    await writeFileAtomic(this.file, Buffer.from(JSON.stringify(this.data, null, 1)), {
      createParents: true,
      mode: 0o600,
    });
  }

  /** Forgets everything about the server (logout). Returns whether anything was stored. */
  remove(): boolean {
    const had = this.hasTokens || this.data.clientInformation !== undefined;
    rmSync(this.file, { force: true });
    this.data = { serverUrl: this.serverUrl };
    return had;
  }
}

export interface OAuthInteraction {
  /** Where the browser comes back to (the loopback listener). */
  redirectUrl: string;
  /** Shows the person the sign-in page (prints it, opens a browser). */
  openAuthorizationUrl: (url: URL) => void | Promise<void>;
}

/**
 * The SDK's view of a server's OAuth state. Without an interaction (servers connecting in
 * the background) it uses and refreshes stored tokens, and a server that needs the person
 * to sign in fails with McpAuthRequiredError instead of opening anything.
 *
 * With `grantType: "client_credentials"` nobody signs in: the SDK fetches tokens for the
 * client itself, authenticated by its secret or by a JWT signed with `privateKeyFile`.
 * A server that answers 403 insufficient_scope (step-up) has the wider scope remembered:
 * the tokens' refresh is then skipped, since refreshing keeps the old scope, and the next
 * sign-in asks for it.
 */
export class ToolhostOAuthProvider implements OAuthClientProvider {
  /** Signs token requests with the client's private key (private_key_jwt), when configured. */
  readonly addClientAuthentication?: OAuthClientProvider['addClientAuthentication'];
  /** The token request of the client_credentials grant (the SDK's default is the code exchange). */
  readonly prepareTokenRequest?: OAuthClientProvider['prepareTokenRequest'];

  constructor(
    private readonly store: McpOAuthStore,
    private readonly alias: string,
    private readonly settings: NonNullable<McpServerSettings['oauth']>,
    private readonly interaction?: OAuthInteraction,
  ) {
    if (this.clientCredentials)
      this.prepareTokenRequest = (scope) =>
        new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) });
    else if (!interaction)
      // Never signed in (no redirect address yet): the SDK would take this for a flow
      // without a person and ask for tokens directly; a person must sign in instead.
      this.prepareTokenRequest = () => {
        throw this.signInNeeded();
      };
    const keyFile = settings.privateKeyFile;
    if (this.clientCredentials && keyFile && settings.clientId) {
      const clientId = settings.clientId;
      this.addClientAuthentication = (headers, params, url, metadata) =>
        createPrivateKeyJwtAuth({
          issuer: clientId,
          subject: clientId,
          privateKey: readPrivateKey(keyFile),
          alg: settings.signingAlgorithm ?? 'RS256',
        })(headers, params, url, metadata);
    }
  }

  private get clientCredentials(): boolean {
    return this.settings.grantType === 'client_credentials';
  }

  /** Undefined for client_credentials: the SDK then fetches tokens without a person. */
  get redirectUrl(): string | undefined {
    if (this.clientCredentials) return undefined;
    return this.interaction?.redirectUrl ?? this.store.data.redirectUrl;
  }

  get clientMetadataUrl(): string | undefined {
    return this.settings.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.settings.scopes?.length ? { scope: this.settings.scopes.join(' ') } : {};
    if (this.clientCredentials)
      return {
        client_name: 'toolhost',
        redirect_uris: [],
        grant_types: ['client_credentials'],
        token_endpoint_auth_method: this.settings.privateKeyFile
          ? 'private_key_jwt'
          : 'client_secret_basic',
        ...scope,
      };
    return {
      client_name: 'toolhost',
      redirect_uris: this.redirectUrl ? [this.redirectUrl] : [],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.settings.clientSecret ? 'client_secret_basic' : 'none',
      ...scope,
    };
  }

  /** Whether this sign-in has got its tokens yet (see tokens()). */
  private signedIn = false;

  /** The state of the last sign-in link, which the redirect must bring back. */
  lastState: string | undefined;

  state(): string {
    this.lastState = randomBytes(16).toString('hex');
    return this.lastState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    if (this.clientCredentials && !this.settings.clientId)
      throw new McpAuthRequiredError(
        `uses client_credentials but has no clientId; set mcpServers.${this.alias}.oauth.clientId (and clientSecret or privateKeyFile)`,
      );
    // Without a registration the SDK would register now, the first step of a sign-in;
    // with nobody to sign in, that would only leave a client with no way back.
    if (!this.interaction && !this.settings.clientId && !this.store.data.clientInformation)
      throw this.signInNeeded();
    if (this.settings.clientId)
      return {
        client_id: this.settings.clientId,
        ...(this.settings.clientSecret ? { client_secret: this.settings.clientSecret } : {}),
      };
    return this.store.data.clientInformation;
  }

  async saveClientInformation(clientInformation: OAuthClientInformationMixed): Promise<void> {
    await this.store.update({
      clientInformation,
      registered: true,
      ...(this.redirectUrl ? { redirectUrl: this.redirectUrl } : {}),
    });
  }

  tokens(): OAuthTokens | undefined {
    // A sign-in starts afresh (another account, more permission); the old tokens stay
    // stored until new ones replace them.
    if (this.interaction && !this.signedIn) return undefined;
    const { tokens, requiredScope } = this.store.data;
    // Refreshing keeps the scope the tokens have; a wider one needs a new sign-in.
    if (tokens?.refresh_token && requiredScope && !covers(tokens.scope, requiredScope))
      return { ...tokens, refresh_token: undefined };
    return tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.signedIn = true;
    const { requiredScope } = this.store.data;
    const stillShort = requiredScope && tokens.scope && !covers(tokens.scope, requiredScope);
    await this.store.update({ tokens, requiredScope: stillShort ? requiredScope : undefined });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (!this.interaction) throw this.signInNeeded();
    await this.interaction.openAuthorizationUrl(authorizationUrl);
  }

  /**
   * The server's fetch, watched for 403 insufficient_scope: the scope it names is kept, so
   * the SDK's step-up authorizes anew instead of refreshing, and the next sign-in asks for it.
   */
  watchScopeChallenges(fetchFn: FetchLike = fetch): FetchLike {
    return async (url, init) => {
      const response = await fetchFn(url, init);
      if (response.status === 403) {
        const { error, scope } = extractWWWAuthenticateParams(response);
        if (error === 'insufficient_scope' && scope) {
          const granted = this.store.data.tokens?.scope;
          const wanted = [...new Set([...(granted?.split(' ') ?? []), ...scope.split(' ')])];
          await this.store.update({ requiredScope: wanted.filter(Boolean).join(' ') });
        }
      }
      return response;
    };
  }

  private signInNeeded(): McpAuthRequiredError {
    const { requiredScope } = this.store.data;
    if (requiredScope && this.store.hasTokens)
      return new McpAuthRequiredError(
        `needs more permission (scope "${requiredScope}") than your sign-in gave; run "toolhost mcp auth ${this.alias}" to sign in again with it, then try again`,
      );
    return new McpAuthRequiredError(
      `needs you to sign in (OAuth); run "toolhost mcp auth ${this.alias}", then try again`,
    );
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.store.update({ codeVerifier });
  }

  codeVerifier(): string {
    const verifier = this.store.data.codeVerifier;
    if (!verifier) throw new Error('no PKCE code verifier was saved for this sign-in');
    return verifier;
  }

  async saveDiscoveryState(discoveryState: OAuthDiscoveryState): Promise<void> {
    await this.store.update({ discoveryState });
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.store.data.discoveryState;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    const { data } = this.store;
    await this.store.update({
      ...(scope === 'all' || scope === 'client' ? { clientInformation: undefined } : {}),
      ...(scope === 'all' || scope === 'tokens' ? { tokens: undefined } : {}),
      ...(scope === 'all' || scope === 'verifier' ? { codeVerifier: undefined } : {}),
      ...(scope === 'all' || scope === 'discovery' ? { discoveryState: undefined } : {}),
      serverUrl: data.serverUrl,
    });
  }
}

/** Whether a space-separated scope string includes every scope of another. */
function covers(granted: string | undefined, wanted: string): boolean {
  const have = new Set(granted?.split(' ') ?? []);
  return wanted.split(' ').every((scope) => !scope || have.has(scope));
}

function readPrivateKey(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new McpAuthRequiredError(
      `cannot read its oauth.privateKeyFile ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

/** A listener on 127.0.0.1 that takes the browser's redirect after sign-in. */
export interface RedirectListener {
  redirectUrl: string;
  /** Only redirects carrying this state are taken (the one in the last sign-in link). */
  expectState(state: () => string | undefined): void;
  /** The next authorization code the browser brings back. */
  code(): Promise<string>;
  close(): Promise<void>;
}

export async function listenForRedirect(
  port: number,
  timeoutMs = 5 * 60_000,
): Promise<RedirectListener> {
  let expected: () => string | undefined = () => undefined;
  let waiting: { resolve(code: string): void; reject(error: Error): void } | undefined;
  // A browser (or a test) may come back before anyone waits: keep what it brought.
  const received: (string | Error)[] = [];
  const deliver = (outcome: string | Error) => {
    const taker = waiting;
    waiting = undefined;
    if (!taker) received.push(outcome);
    else if (typeof outcome === 'string') taker.resolve(outcome);
    else taker.reject(outcome);
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    const state = expected();
    if (state !== undefined && url.searchParams.get('state') !== state) {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(
        'This sign-in link is not the one toolhost is waiting for. Start again from toolhost.\n',
      );
      return;
    }
    const error = url.searchParams.get('error');
    const given = url.searchParams.get('code');
    res.writeHead(error || !given ? 400 : 200, { 'content-type': 'text/plain; charset=utf-8' });
    if (error || !given) {
      const said = url.searchParams.get('error_description') ?? error ?? 'no code';
      res.end(`Sign-in failed: ${said}. You can close this page.\n`);
      deliver(new Error(`the authorization server refused the sign-in: ${said}`));
      return;
    }
    res.end('Signed in. You can close this page and return to toolhost.\n');
    deliver(given);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    redirectUrl: `http://127.0.0.1:${actual}/callback`,
    expectState(state) {
      expected = state;
    },
    code: () =>
      new Promise<string>((resolve, reject) => {
        const early = received.shift();
        if (early !== undefined) {
          if (typeof early === 'string') resolve(early);
          else reject(early);
          return;
        }
        const timer = setTimeout(
          () =>
            reject(new Error(`nobody finished signing in within ${timeoutMs / 60_000} minutes`)),
          timeoutMs,
        );
        waiting = {
          resolve: (code) => {
            clearTimeout(timer);
            resolve(code);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        };
      }),
    close: async () => {
      deliver(new Error('the sign-in was abandoned'));
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
