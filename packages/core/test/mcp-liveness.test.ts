/**
 * Liveness: server-everything killed in the middle of a long call, over each transport.
 * The call timeout is ten minutes, so only noticing the dead connection can end the call
 * within the test's time. The server is then started again and the next call reaches it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Config } from '../src/config/config.js';
import type { McpServerSettings } from '../src/config/settings.js';
import { CoreToolScheduler } from '../src/scheduler/core-tool-scheduler.js';
import { createToolRegistry } from '../src/tools/builtin.js';
import type { ToolRegistry } from '../src/tools/tool-registry.js';
import { ToolErrorType } from '../src/tools/tools.js';
import { EVERYTHING, startEverythingHttp } from './helpers/mcp-servers.js';
import { processesMatching, waitUntil } from './helpers/processes.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

const TEN_MINUTES = 600_000;
let ws: TempWorkspace;
let registry: ToolRegistry | undefined;
const cleanups: (() => void)[] = [];

beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  await registry?.closeMcpServers();
  registry = undefined;
  ws.cleanup();
});

async function open(server: McpServerSettings) {
  const config = new Config({
    roots: [ws.root],
    homeDir: ws.home,
    settings: { mcpServers: { remote: { ...server, trust: true, timeout: TEN_MINUTES } } },
  });
  registry = createToolRegistry(config, { env: {} });
  await registry.discoverAllTools();
  expect(registry.getMcpServers()[0]?.status).toBe('connected');
  const reg = registry;
  /** Runs a call; `onStarted` runs once the server has reported progress. */
  return async (name: string, args: Record<string, unknown>, onStarted?: () => void) => {
    let started = false;
    const scheduler = new CoreToolScheduler({
      config,
      toolRegistry: reg,
      outputUpdateHandler: () => {
        if (!started) onStarted?.();
        started = true;
      },
    });
    const [done] = await scheduler.schedule(
      { callId: name, name, args },
      new AbortController().signal,
    );
    return done!;
  };
}

const longCall = { duration: 120, steps: 240 };

describe('a server killed during a call', () => {
  for (const transport of ['sse', 'streamableHttp'] as const) {
    it(`fails the call at once over ${transport}, naming the server, and reconnects later`, async () => {
      let server = await startEverythingHttp(transport);
      cleanups.push(() => server.stop());
      const call = await open(transport === 'sse' ? { url: server.url } : { httpUrl: server.url });
      const killed = await call('trigger-long-running-operation', longCall, () => server.stop());
      expect(killed.status).toBe('error');
      expect(killed.response.error?.type).toBe(ToolErrorType.MCP_TOOL_ERROR);
      expect(killed.response.error?.message).toMatch(/^MCP server "remote" dropped the connection/);

      // While it is down, a call says so at once.
      const down = await call('echo', { message: 'anyone there?' });
      expect(down.response.error?.message).toMatch(/MCP server "remote" is not available/);

      server = await startEverythingHttp(transport, server.port);
      cleanups.push(() => server.stop());
      let again = await call('echo', { message: 'back again' });
      // After a failed attempt, the next one waits its pause (1 s at first).
      for (let i = 0; i < 20 && again.status !== 'success'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        again = await call('echo', { message: 'back again' });
      }
      expect(again.response.responseParts[0]?.functionResponse?.response?.output).toBe(
        'Echo: back again',
      );
    });
  }

  it('fails the call at once over stdio, naming the server, and starts it again on the next call', async () => {
    const marker = `liveness-${process.pid}-${Date.now()}`;
    const call = await open({ command: process.execPath, args: [EVERYTHING, 'stdio', marker] });
    const kill = () => {
      for (const line of processesMatching(marker))
        process.kill(Number(line.trim().split(/\s+/)[0]), 'SIGKILL');
    };
    const killed = await call('trigger-long-running-operation', longCall, kill);
    expect(killed.response.error?.message).toMatch(/^MCP server "remote" closed the connection/);
    const again = await call('echo', { message: 'restarted' });
    expect(again.response.responseParts[0]?.functionResponse?.response?.output).toBe(
      'Echo: restarted',
    );
    await registry?.closeMcpServers();
    expect(await waitUntil(() => processesMatching(marker).length === 0)).toBe(true);
  });
});
