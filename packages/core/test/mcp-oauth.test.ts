/**
 * OAuth against a local authorization server (the SDK's pieces, on 127.0.0.1): a server
 * that needs sign-in is reported with the command to run; signing in discovers the
 * metadata, registers a client, runs PKCE through the loopback redirect and stores the
 * tokens (mode 0600); later sessions use them and refresh them; logout deletes them.
 */
import { existsSync, statSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Config } from '../src/config/config.js';
import { CoreToolScheduler } from '../src/core/core-tool-scheduler.js';
import { createToolRegistry } from '../src/tools/builtin.js';
import { signInToMcpServer, signOutOfMcpServer } from '../src/tools/mcp-sign-in.js';
import type { ToolRegistry } from '../src/tools/tool-registry.js';
import { startOAuthMcpServer } from './helpers/oauth-server.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

let ws: TempWorkspace;
let registry: ToolRegistry | undefined;
let server: Awaited<ReturnType<typeof startOAuthMcpServer>>;

beforeEach(async () => {
  ws = makeWorkspace();
  server = await startOAuthMcpServer();
});
afterEach(async () => {
  await registry?.closeMcpServers();
  registry = undefined;
  await server.close();
  ws.cleanup();
});

function session() {
  const settings = { httpUrl: server.url, trust: true };
  const config = new Config({
    roots: [ws.root],
    homeDir: ws.home,
    settings: { mcpServers: { guarded: settings } },
  });
  registry = createToolRegistry(config, { env: {} });
  return { config, settings, registry };
}

async function whoami(config: Config, reg: ToolRegistry) {
  const scheduler = new CoreToolScheduler({ config, toolRegistry: reg });
  const [done] = await scheduler.schedule(
    { callId: 'w', name: 'whoami', args: {} },
    new AbortController().signal,
  );
  return done!;
}

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
    expect(done.response.responseParts[0]?.functionResponse?.response?.output).toMatch(
      /^signed in as /,
    );
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
