/**
 * Long calls: progress keeps a call alive past its timeout (up to maxTotalTimeout) and
 * reaches the front end as live output; a silent call times out with a message naming
 * the setting to raise. The timeouts are scaled down from the defaults (60 s, 30 min).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Config } from '../src/config/config.js';
import type { McpServerSettings } from '../src/config/settings.js';
import { CoreToolScheduler } from '../src/core/core-tool-scheduler.js';
import { createToolRegistry } from '../src/tools/builtin.js';
import type { ToolRegistry } from '../src/tools/tool-registry.js';
import { ToolErrorType } from '../src/tools/tools.js';
import { EVERYTHING, sdkServerScript } from './helpers/mcp-servers.js';
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

async function runCall(server: McpServerSettings, name: string, args: Record<string, unknown>) {
  const config = new Config({
    roots: [ws.root],
    homeDir: ws.home,
    settings: { mcpServers: { everything: { ...server, trust: true } } },
  });
  registry = createToolRegistry(config, { env: {} });
  await registry.discoverAllTools();
  const live: string[] = [];
  const scheduler = new CoreToolScheduler({
    config,
    toolRegistry: registry,
    outputUpdateHandler: (_id, output) => live.push(output),
  });
  const [done] = await scheduler.schedule(
    { callId: 'long', name, args },
    AbortSignal.timeout(60_000),
  );
  return { done: done!, live };
}

const everything = { command: process.execPath, args: [EVERYTHING, 'stdio'] };

describe('progress and long calls', () => {
  it('lets a call that reports progress run past its timeout, and shows the progress', async () => {
    // 12 s of work against an 8 s timeout: only progress every 0.25 s keeps it alive.
    const { done, live } = await runCall(
      { ...everything, timeout: 8000 },
      'trigger-long-running-operation',
      { duration: 12, steps: 48 },
    );
    expect(done.status).toBe('success');
    expect(String(done.response.responseParts[0]?.functionResponse?.response?.output)).toContain(
      'Long running operation completed',
    );
    // The last notification may cross the result on the wire; the ones before it arrive.
    const lines = live.at(-1)?.split('\n').filter(Boolean) ?? [];
    expect(lines[0]).toBe('everything/trigger-long-running-operation progress 1/48 (2%)');
    expect(lines.length).toBeGreaterThanOrEqual(47);
  });

  it('stops a call that keeps reporting progress at maxTotalTimeout, naming that setting', async () => {
    const { done } = await runCall(
      { ...everything, timeout: 8000, maxTotalTimeout: 9000 },
      'trigger-long-running-operation',
      { duration: 20, steps: 80 },
    );
    expect(done.response.error?.type).toBe(ToolErrorType.MCP_TOOL_ERROR);
    expect(done.response.error?.message).toMatch(
      /MCP server "everything" was still working on trigger-long-running-operation after 9 s.*mcpServers\.everything\.maxTotalTimeout/,
    );
  });

  it('times out a silent call with a message naming the timeout setting', async () => {
    const script = path.join(ws.base, 'silent.mjs');
    writeFileSync(
      script,
      sdkServerScript(`
        const server = new McpServer({ name: 'silent', version: '1.0.0' });
        server.registerTool('ponder', { description: 'thinks quietly' }, async () => {
          await new Promise((resolve) => setTimeout(resolve, 30_000));
          return { content: [{ type: 'text', text: 'done' }] };
        });
        await server.connect(new StdioServerTransport());`),
    );
    const { done } = await runCall(
      { command: process.execPath, args: [script], timeout: 4000 },
      'ponder',
      {},
    );
    expect(done.response.error?.message).toBe(
      'MCP server "everything" did not answer ponder within 4 s and reported no progress meanwhile; raise mcpServers.everything.timeout (milliseconds) in settings if the tool needs longer.',
    );
  });
});
