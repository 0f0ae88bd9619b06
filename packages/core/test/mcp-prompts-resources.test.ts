/** MCP prompts and resources as a client: listed per server, filled in and read through the library. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Config } from '../src/config/config.js';
import { createToolRegistry } from '../src/tools/builtin.js';
import type { ToolRegistry } from '../src/tools/tool-registry.js';
import { EVERYTHING } from './helpers/mcp-servers.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

let ws: TempWorkspace;
let registry: ToolRegistry | undefined;

beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(async () => {
  await registry?.closeMcpServers();
  registry = undefined;
  ws.cleanup();
});

describe('prompts and resources of an MCP server (server-everything)', () => {
  it('lists them, fills in a prompt and reads a resource', async () => {
    const config = new Config({
      roots: [ws.root],
      homeDir: ws.home,
      settings: {
        mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
      },
    });
    registry = createToolRegistry(config, { env: {} });
    await registry.discoverAllTools();
    const server = registry.getMcpServers()[0]!;
    expect(server.prompts.map((p) => p.name)).toEqual(
      expect.arrayContaining(['simple-prompt', 'args-prompt']),
    );
    expect(server.resources.length).toBeGreaterThan(0);
    expect(server.resourceTemplates.map((t) => t.uriTemplate).join(' ')).toContain(
      'demo://resource/dynamic',
    );

    const prompt = await server.getPrompt('simple-prompt');
    expect(prompt.messages.length).toBeGreaterThan(0);
    const withArgs = await server.getPrompt('args-prompt', { city: 'Lisbon' });
    expect(JSON.stringify(withArgs.messages)).toContain('Lisbon');

    const first = server.resources[0]!;
    const read = await server.readResource(first.uri);
    expect(read.contents[0]?.uri).toBe(first.uri);
  });
});
