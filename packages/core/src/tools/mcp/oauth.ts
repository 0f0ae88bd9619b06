/**
 * OAuth for remote MCP servers, on the MCP SDK's client auth: the SDK discovers the
 * protected-resource and authorization-server metadata, registers a client dynamically,
 * runs PKCE and refreshes tokens; this file is the SDK's view of one server's state
 * (kept by oauth-store.ts) and says what the person must do when a server needs them.
 * The browser's redirect is taken by oauth-redirect.ts.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
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
import type { McpServerSettings } from '../../config/settings.js';
import type { Resolver } from '../../web/address-guard.js';
import { guardedRequest } from '../../web/guarded-request.js';
import { webLinkProblem } from '../../web/web-link.js';
import type { McpOAuthStore } from './oauth-store.js';

/** Thrown when a server needs the person to sign in and nobody can be asked here. */
export class McpAuthRequiredError extends Error {}

export interface OAuthInteraction {
  /** Where the browser comes back to (the loopback listener). */
  redirectUrl: string;
  /** Shows the person the sign-in page (prints it, opens a browser). */
  openAuthorizationUrl: (url: URL) => void | Promise<void>;
}

/** Which hosts OAuth requests may reach besides public ones (see fetch below). */
export interface OAuthNetwork {
  /** tools.webFetch.allowedHosts. */
  allowedHosts?: readonly string[];
  resolver?: Resolver;
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
    network: OAuthNetwork = {},
  ) {
    const server = new URL(store.serverUrl);
    const elsewhere = guardedRequest(
      [server.hostname, ...(network.allowedHosts ?? [])],
      network.resolver,
    );
    // The person chose the server's address; every other one (the metadata's authorization
    // server, its token and registration endpoints) the server chose, so it is guarded.
    this.fetch = (url, init) =>
      new URL(String(url)).origin === server.origin ? fetch(url, init) : elsewhere(url, init);
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

  /** The fetch for this server's requests and its OAuth requests. */
  readonly fetch: FetchLike;

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
    const problem = webLinkProblem(authorizationUrl.href);
    if (problem)
      throw new McpAuthRequiredError(
        `its authorization server names a sign-in page toolhost will not open, since ${problem}: ${JSON.stringify(authorizationUrl.href.slice(0, 200))}. Ask the server's operator to fix its OAuth metadata (authorization_endpoint).`,
      );
    await this.interaction.openAuthorizationUrl(authorizationUrl);
  }

  /**
   * The server's fetch, watched for 403 insufficient_scope: the scope it names is kept, so
   * the SDK's step-up authorizes anew instead of refreshing, and the next sign-in asks for it.
   */
  watchScopeChallenges(fetchFn: FetchLike = this.fetch): FetchLike {
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
