/**
 * Long calls: progress keeps a call alive past its timeout (up to maxTotalTimeout) and
 * reaches the front end as live output; a silent call times out with a message naming
 * the setting to raise. The timeouts are scaled down from the defaults (60 s, 30 min).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { McpServerSettings } from '../src/config/settings.js';
import { ToolErrorType } from '../src/tools/tools.js';
import { EVERYTHING, sdkServerScript } from './helpers/mcp-servers.js';
import { runTool, useMcpSession } from './helpers/mcp-session.js';

const session = useMcpSession();

async function runCall(server: McpServerSettings, name: string, args: Record<string, unknown>) {
  const { config, registry } = session.open({ everything: { ...server, trust: true } });
  await registry.discoverAllTools();
  const live: string[] = [];
  const done = await runTool(config, registry, name, args, {
    outputUpdateHandler: (_id, output) => live.push(output),
  });
  return { done, live };
}

const everything = { command: process.execPath, args: [EVERYTHING, 'stdio'] };

describe('progress and long calls', () => {
  it('lets a call that reports progress run past its timeout, and shows the progress', async () => {
    // 12 s of work against an 8 s timeout: only progress every 0.25 s keeps it alive.
    const { done, live } = await runCall(
      { ...everything, timeout: 8000, startTimeout: 60_000 },
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
      { ...everything, timeout: 8000, startTimeout: 60_000, maxTotalTimeout: 9000 },
      'trigger-long-running-operation',
      { duration: 20, steps: 80 },
    );
    expect(done.response.error?.type).toBe(ToolErrorType.MCP_TOOL_ERROR);
    expect(done.response.error?.message).toMatch(
      /MCP server "everything" was still working on trigger-long-running-operation after 9 s.*mcpServers\.everything\.maxTotalTimeout/,
    );
  });

  it('times out a silent call with a message naming the timeout setting', async () => {
    const script = path.join(session.ws.base, 'silent.mjs');
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
      // Starting has its own limit: on a loaded machine the server may need more than 4 s.
      { command: process.execPath, args: [script], timeout: 4000, startTimeout: 60_000 },
      'ponder',
      {},
    );
    expect(done.response.error?.message).toBe(
      'MCP server "everything" did not answer ponder within 4 s and reported no progress meanwhile; raise mcpServers.everything.timeout (milliseconds) in settings if the tool needs longer.',
    );
  });
});
