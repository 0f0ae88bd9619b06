/**
 * Big tool sets: a real MCP server with 300 tools; past the budget their declarations are
 * held back behind tool_search, and a tool the search found is called within two turns.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../src/agent/agent-events.js';
import { createAgent } from '../src/agent/create-agent.js';
import type { ModelEndpoint } from '../src/models/endpoint.js';
import { createToolRegistry } from '../src/tools/builtin.js';
import { MAX_DECLARED_TOOLS } from '../src/tools/deferred-tools.js';
import { sdkServerScript } from './helpers/mcp-servers.js';
import { type ModelServer, type Script, startModelServer } from './helpers/model-server.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

let ws: TempWorkspace | undefined;
let server: ModelServer | undefined;
let closeRegistry: (() => Promise<void>) | undefined;
const serverFiles = mkdtempSync(path.join(os.tmpdir(), 'toolhost-many-tools-'));
afterEach(closeSession);
afterAll(() => rmSync(serverFiles, { recursive: true, force: true }));

async function closeSession() {
  await closeRegistry?.();
  await server?.close();
  await ws?.config.dispose();
  ws?.cleanup();
  ws = undefined;
  server = undefined;
  closeRegistry = undefined;
}

/** An MCP server with `count` tools (tool_000 ...) and lookup_invoice among them. */
function manyToolsServer(count: number): string {
  const file = path.join(serverFiles, `many-${count}.mjs`);
  writeFileSync(
    file,
    sdkServerScript(`
      const server = new McpServer({ name: 'many', version: '1.0.0' });
      for (let i = 0; i < ${count - 1}; i++) {
        const name = 'tool_' + String(i).padStart(3, '0');
        server.registerTool(name, {
          description: 'Reports the status of the warehouse shelf number ' + i + ' with its stock levels and reorder dates.',
          inputSchema: { shelf: z.string().describe('The shelf label'), verbose: z.boolean().optional() },
        }, async () => ({ content: [{ type: 'text', text: 'shelf ' + i }] }));
      }
      server.registerTool('lookup_invoice', {
        description: 'Looks up an invoice by its id and says whether it is paid.',
        inputSchema: { id: z.string() },
      }, async ({ id }) => ({ content: [{ type: 'text', text: 'invoice ' + id + ': paid' }] }));
      await server.connect(new StdioServerTransport());`),
  );
  return file;
}

/** An agent session whose settings name the MCP server with `count` tools. */
async function session(count: number, script: Script, deferLoading?: boolean) {
  const workspace = makeWorkspace({
    settings: {
      mcpServers: {
        many: { command: process.execPath, args: [manyToolsServer(count)], trust: true },
      },
      ...(deferLoading !== undefined ? { tools: { deferLoading } } : {}),
    },
  });
  ws = workspace;
  server = await startModelServer(script, { contextSize: 200_000 });
  const registry = createToolRegistry(workspace.config);
  closeRegistry = () => registry.closeMcpServers();
  await registry.discoverAllTools();
  const endpoint: ModelEndpoint = {
    baseUrl: server.baseUrl,
    apiKey: 'test',
    model: 'scripted-model',
    contextWindow: 32_768,
    contextWindowSource: 'default',
    timeoutMs: 10_000,
    maxRetries: 0,
  };
  const events: AgentEvent[] = [];
  const agent = createAgent({
    config: workspace.config,
    registry,
    endpoint,
    checkpoints: false,
    maxSubagentDepth: 0,
    onEvent: (event) => events.push(event),
  });
  return { agent, events, registry };
}

const declared = (request: number) =>
  (server!.requests[request]!.body.tools ?? []).map((tool) => tool.function.name);

describe('deferred MCP tools', { timeout: 60_000 }, () => {
  it('with 300 MCP tools, declares few and calls a found tool within two turns', async () => {
    const { agent, events, registry } = await session(300, (request, index) => {
      if (index === 0)
        return { toolCalls: [{ name: 'tool_search', args: { query: 'invoice paid' } }] };
      if (index === 1 && request.body.tools?.some((t) => t.function.name === 'lookup_invoice'))
        return { toolCalls: [{ name: 'lookup_invoice', args: { id: 'INV-7' } }] };
      return { text: index === 2 ? 'INV-7 is paid.' : 'lookup_invoice was not declared.' };
    });
    expect(registry.getAllTools().length).toBeGreaterThan(300);
    const result = await agent.loop.run('Is invoice INV-7 paid?', new AbortController().signal);
    expect(result).toMatchObject({ status: 'success', text: 'INV-7 is paid.' });

    const first = declared(0);
    expect(first.length).toBeLessThanOrEqual(MAX_DECLARED_TOOLS);
    expect(first).toContain('tool_search');
    expect(first).toContain('read_file');
    expect(first.filter((name) => name.startsWith('tool_') && name !== 'tool_search')).toEqual([]);
    const search = server!.requests[0]!.body.tools!.find((t) => t.function.name === 'tool_search');
    expect(search!.function.description).toContain('300 tools of MCP servers are not declared yet');
    // The found tool is declared from the next request on, and it ran on the MCP server.
    expect(declared(1)).toContain('lookup_invoice');
    const results = events.filter(
      (e): e is Extract<AgentEvent, { type: 'tool_results' }> => e.type === 'tool_results',
    );
    expect(results[0]!.results[0]!.content).toMatch(/lookup_invoice \(server many\)/);
    expect(results[1]!.results[0]).toMatchObject({
      name: 'lookup_invoice',
      status: 'success',
      content: 'invoice INV-7: paid',
    });
  });

  it('declares a few small MCP tools directly; tools.deferLoading overrides both ways', async () => {
    let context = await session(3, [{ text: 'ok' }]);
    await context.agent.loop.run('hi', new AbortController().signal);
    expect(declared(0)).toEqual(expect.arrayContaining(['lookup_invoice', 'tool_000']));
    expect(declared(0)).not.toContain('tool_search');
    await closeSession();

    context = await session(3, [{ text: 'ok' }], true);
    await context.agent.loop.run('hi', new AbortController().signal);
    expect(declared(0)).toContain('tool_search');
    expect(declared(0)).not.toContain('lookup_invoice');
    await closeSession();

    context = await session(300, [{ text: 'ok' }], false);
    await context.agent.loop.run('hi', new AbortController().signal);
    expect(declared(0).length).toBeGreaterThan(300);
    expect(declared(0)).not.toContain('tool_search');
  });
});
