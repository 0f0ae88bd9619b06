/**
 * OAuth against a local authorization server (the SDK's pieces, on 127.0.0.1): a server
 * that needs sign-in is reported with the command to run; signing in discovers the
 * metadata, registers a client, runs PKCE through the loopback redirect and stores the
 * tokens (mode 0600); later sessions use them and refresh them; logout deletes them.
 * Also: clients that get tokens for themselves (client_credentials, by secret or signed
 * JWT), client ID metadata documents instead of registration, and step-up authorization.
 */
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../src/config/config.js';
import type { McpServerSettings } from '../src/config/settings.js';
import { oauthFile } from '../src/tools/mcp/oauth-store.js';
import { signInToMcpServer, signOutOfMcpServer } from '../src/tools/mcp/sign-in.js';
import type { ToolRegistry } from '../src/tools/tool-registry.js';
import { freePort } from './helpers/mcp-servers.js';
import { outputOf, runTool, useMcpSession } from './helpers/mcp-session.js';
import { startOAuthMcpServer } from './helpers/oauth-server.js';

const mcp = useMcpSession();
let server: Awaited<ReturnType<typeof startOAuthMcpServer>>;

beforeEach(async () => {
  server = await startOAuthMcpServer();
});
afterEach(async () => {
  await server.close();
});

function session(oauth?: McpServerSettings['oauth']) {
  const settings: McpServerSettings = {
    httpUrl: server.url,
    trust: true,
    ...(oauth ? { oauth } : {}),
  };
  return { ...mcp.open({ guarded: settings }), settings };
}

const whoami = (config: Config, reg: ToolRegistry) => runTool(config, reg, 'whoami');

/** What a browser does: follow the sign-in page's redirect back to toolhost's listener. */
const browser = async (url: URL) => {
  const page = await fetch(url);
  expect(page.status).toBe(200);
};

describe('OAuth for remote MCP servers', () => {
  it('says a server needs sign-in, signs in, keeps the tokens private, refreshes them, and logs out', async () => {
    const first = session();
    await first.registry.discoverAllTools();
    const guarded = first.registry.getMcpServers()[0]!;
    expect(guarded.status).toBe('failed');
    expect(guarded.error).toContain(
      'needs you to sign in (OAuth); run "toolhost mcp auth guarded"',
    );
    expect(server.auth.clients.size).toBe(0);
    await first.registry.closeMcpServers();

    const file = await signInToMcpServer(first.config, 'guarded', first.settings, {
      openAuthorizationUrl: browser,
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(server.auth.clients.size).toBe(1);

    const second = session();
    await second.registry.discoverAllTools();
    expect(second.registry.getMcpServers()[0]?.status).toBe('connected');
    const done = await whoami(second.config, second.registry);
    expect(outputOf(done)).toMatch(/^signed in as /);
    await second.registry.closeMcpServers();

    server.auth.expireAccessTokens();
    const third = session();
    await third.registry.discoverAllTools();
    expect(third.registry.getMcpServers()[0]?.status).toBe('connected');
    expect(server.auth.refreshes).toBe(1);
    await third.registry.closeMcpServers();

    expect(signOutOfMcpServer(third.config, third.settings)).toBe(true);
    expect(existsSync(file)).toBe(false);
  });

  it('refuses a redirect that does not carry the state of its own sign-in link', async () => {
    const { config, settings } = session();
    await expect(
      signInToMcpServer(config, 'guarded', settings, {
        openAuthorizationUrl: async (url) => {
          const page = await fetch(url, { redirect: 'manual' });
          const back = new URL(page.headers.get('location') ?? '');
          back.searchParams.set('state', 'forged');
          expect((await fetch(back)).status).toBe(400);
          throw new Error('the person gave up');
        },
        timeoutMs: 2000,
      }),
    ).rejects.toThrow(/could not sign in to MCP server "guarded"/);
  });
});

describe('OAuth without a person: client credentials', () => {
  it('gets tokens with a client secret, stores them privately, and refuses a wrong secret', async () => {
    server.auth.clients.set('robot', {
      client_id: 'robot',
      client_secret: 'right secret',
      redirect_uris: [],
    });
    const good = session({
      grantType: 'client_credentials',
      clientId: 'robot',
      clientSecret: 'right secret',
    });
    await good.registry.discoverAllTools();
    expect(good.registry.getMcpServers()[0]?.status).toBe('connected');
    expect(outputOf(await whoami(good.config, good.registry))).toBe('signed in as robot');
    expect(statSync(oauthFile(good.config.userDir, server.url)).mode & 0o777).toBe(0o600);
    await good.registry.closeMcpServers();
    signOutOfMcpServer(good.config, good.settings);

    const bad = session({
      grantType: 'client_credentials',
      clientId: 'robot',
      clientSecret: 'wrong',
    });
    await bad.registry.discoverAllTools();
    const refused = bad.registry.getMcpServers()[0];
    expect(refused?.status).toBe('failed');
    expect(refused?.error).toBe('the authorization server refused toolhost (invalid_client)');
  });

  it('authenticates with a JWT signed by the private key in privateKeyFile (private_key_jwt)', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const keyFile = path.join(mcp.ws.base, 'robot-key.pem');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    server.auth.clientKeys.set(
      'signer',
      publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    );
    const { config, registry } = session({
      grantType: 'client_credentials',
      clientId: 'signer',
      privateKeyFile: keyFile,
    });
    await registry.discoverAllTools();
    expect(registry.getMcpServers()[0]?.error).toBeUndefined();
    expect(outputOf(await whoami(config, registry))).toBe('signed in as signer');

    // Another key than the one the server knows is refused.
    const { privateKey: stranger } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(keyFile, stranger.export({ type: 'pkcs8', format: 'pem' }));
    signOutOfMcpServer(config, { httpUrl: server.url });
    const other = session({
      grantType: 'client_credentials',
      clientId: 'signer',
      privateKeyFile: keyFile,
    });
    await other.registry.discoverAllTools();
    expect(other.registry.getMcpServers()[0]?.status).toBe('failed');
  });
});

describe('OAuth sign-in variants', () => {
  it('uses a client ID metadata document instead of registering, where the server accepts one', async () => {
    const port = await freePort();
    const documentUrl = 'https://toolhost.example/oauth/client.json';
    server.auth.metadataDocuments.set(documentUrl, {
      client_name: 'toolhost',
      redirect_uris: [`http://127.0.0.1:${port}/callback`],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
    const { config, settings } = session({ clientMetadataUrl: documentUrl, redirectPort: port });
    await signInToMcpServer(config, 'guarded', settings, { openAuthorizationUrl: browser });
    expect(server.auth.clients.size).toBe(0);
    const later = session({ clientMetadataUrl: documentUrl, redirectPort: port });
    await later.registry.discoverAllTools();
    expect(outputOf(await whoami(later.config, later.registry))).toBe(
      `signed in as ${documentUrl}`,
    );
  });

  it('asks for the wider scope a tool needs (step-up) on the next sign-in, instead of refreshing', async () => {
    const first = session();
    await signInToMcpServer(first.config, 'guarded', first.settings, {
      openAuthorizationUrl: browser,
    });
    expect(server.auth.scopesAsked).toEqual([['mcp']]);

    const before = session();
    await before.registry.discoverAllTools();
    const refused = await runTool(before.config, before.registry, 'erase');
    expect(refused.status).toBe('error');
    expect(refused.response.error?.message).toContain(
      'MCP server "guarded" needs more permission (scope "mcp admin") than your sign-in gave; run "toolhost mcp auth guarded" to sign in again with it',
    );
    // A refresh would have kept the narrow scope.
    expect(server.auth.refreshes).toBe(0);
    await before.registry.closeMcpServers();

    await signInToMcpServer(first.config, 'guarded', first.settings, {
      openAuthorizationUrl: browser,
    });
    expect(server.auth.scopesAsked.at(-1)).toEqual(['mcp', 'admin']);
    const after = session();
    await after.registry.discoverAllTools();
    expect(outputOf(await runTool(after.config, after.registry, 'erase'))).toMatch(/^erased by /);
  });
});
