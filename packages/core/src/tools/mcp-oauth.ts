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
import type {
  OAuthClientProvider,
  OAuthDiscoveryState,
} from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
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
 */
export class ToolhostOAuthProvider implements OAuthClientProvider {
  constructor(
    private readonly store: McpOAuthStore,
    private readonly alias: string,
    private readonly settings: NonNullable<McpServerSettings['oauth']>,
    private readonly interaction?: OAuthInteraction,
  ) {}

  get redirectUrl(): string | undefined {
    return this.interaction?.redirectUrl ?? this.store.data.redirectUrl;
  }

  get clientMetadataUrl(): string | undefined {
    return this.settings.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'toolhost',
      redirect_uris: this.redirectUrl ? [this.redirectUrl] : [],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.settings.clientSecret ? 'client_secret_basic' : 'none',
      ...(this.settings.scopes?.length ? { scope: this.settings.scopes.join(' ') } : {}),
    };
  }

  /** The state of the last sign-in link, which the redirect must bring back. */
  lastState: string | undefined;

  state(): string {
    this.lastState = randomBytes(16).toString('hex');
    return this.lastState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
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
    return this.store.data.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.store.update({ tokens });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (!this.interaction) throw this.signInNeeded();
    await this.interaction.openAuthorizationUrl(authorizationUrl);
  }

  private signInNeeded(): McpAuthRequiredError {
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
