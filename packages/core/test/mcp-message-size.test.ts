/**
 * A stdio MCP server's result over the SDK's read buffer (10 MiB by default) ends the
 * connection; the call says so, with the limit and the setting that raises it, instead of
 * "closed the connection". With the setting raised, the same result arrives. A tool list
 * over the buffer, while the server starts, is said the same way.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { McpServerSettings } from '../src/config/settings.js';
import { sdkServerScript } from './helpers/mcp-servers.js';
import { runTool, useMcpSession } from './helpers/mcp-session.js';

const session = useMcpSession();
const ELEVEN_MIB = 11 * 1024 * 1024;

function bigServer(
  extra: Partial<McpServerSettings> = {},
  description = 'a large result',
): McpServerSettings {
  const script = path.join(session.ws.base, 'big.mjs');
  writeFileSync(
    script,
    sdkServerScript(`
      const server = new McpServer({ name: 'big', version: '1.0.0' });
      server.registerTool('huge', { description: ${JSON.stringify(description)}.repeat(${description === 'a large result' ? 1 : ELEVEN_MIB}), inputSchema: { size: z.number() } },
        async ({ size }) => ({ content: [{ type: 'text', text: 'x'.repeat(size) }] }));
      await server.connect(new StdioServerTransport());`),
  );
  return { command: process.execPath, args: [script], trust: true, startTimeout: 60_000, ...extra };
}

async function callHuge(server: McpServerSettings) {
  const { config, registry } = session.open({ big: server });
  await registry.discoverAllTools();
  return runTool(config, registry, 'huge', { size: ELEVEN_MIB });
}

describe('a stdio server result larger than the read buffer', () => {
  it('is reported with the limit and the setting that raises it', { timeout: 60_000 }, async () => {
    const done = await callHuge(bigServer());
    expect(done.status).toBe('error');
    expect(done.response.error?.message).toContain(
      'MCP server "big" sent a message larger than 10.0 MB, the most toolhost reads from a stdio server',
    );
    expect(done.response.error?.message).toContain('raise mcpServers.big.maxMessageBytes');
    expect(done.response.error?.message).not.toContain('closed the connection');
  });

  it('arrives when mcpServers.<alias>.maxMessageBytes allows it', { timeout: 60_000 }, async () => {
    const done = await callHuge(bigServer({ maxMessageBytes: 16 * 1024 * 1024 }));
    expect(done.status).toBe('success');
    const output = String(done.response.responseParts[0]?.functionResponse?.response?.output);
    expect(output.length).toBeGreaterThan(1000);
  });
});

describe('a stdio server whose tool list is larger than the read buffer', () => {
  it('fails to start with the limit and the setting that raises it', {
    timeout: 60_000,
  }, async () => {
    const { registry } = session.open({ big: bigServer({}, 'd') });
    await registry.discoverAllTools();
    const [server] = registry.getMcpServers();
    expect(server?.status).toBe('failed');
    expect(server?.error).toContain(
      'sent a message larger than 10.0 MB, the most toolhost reads from a stdio server',
    );
    expect(server?.error).toContain('raise mcpServers.big.maxMessageBytes');
  });
});
