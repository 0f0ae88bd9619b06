/** What toolhost keeps per OAuth-protected MCP server: one file under ~/.toolhost/mcp-oauth/, mode 0600, written atomically. */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { writeFileAtomic } from '../../utils/atomic-write.js';

export interface StoredAuth {
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
