/**
 * Discovery that never blocks: built-ins at once, each call waiting only for the server
 * that may bring its tool, and tools of failed servers named as such. Servers that hang
 * get a start timeout of ten minutes here, so a test that waited for them would time out.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolSubset } from '../src/agent/subagents/tool-subset.js';
import type { Config } from '../src/config/config.js';
import type { McpServerSettings } from '../src/config/settings.js';
import { mcpQualifiedNameOf } from '../src/tools/mcp/names.js';
import { McpToolCache } from '../src/tools/mcp/tool-cache.js';
import type { ToolRegistry } from '../src/tools/tool-registry.js';
import { ToolConfirmationOutcome, ToolErrorType } from '../src/tools/tools.js';
import { EVERYTHING, lateEverything, sdkServerScript } from './helpers/mcp-servers.js';
import { outputOf as output, runTool, useMcpSession } from './helpers/mcp-session.js';
import { processesMatching, uniqueSleep, waitUntil } from './helpers/processes.js';

const TEN_MINUTES = 600_000;
const session = useMcpSession();

function start(mcpServers: Record<string, McpServerSettings>) {
  const opened = session.open(mcpServers);
  opened.registry.startDiscovery();
  return opened;
}

const call = (config: Config, reg: ToolRegistry, name: string, args = {}) =>
  runTool(config, reg, name, args, {
    onConfirmationRequest: async () => ({ outcome: ToolConfirmationOutcome.ProceedOnce }),
  });

describe('discovery in the background', () => {
  it('runs built-in tools while a server hangs on start, and ends the hanging server on close', async () => {
    const marker = uniqueSleep();
    const { config, registry: reg } = start({
      hangs: { command: 'sleep', args: [marker], timeout: TEN_MINUTES },
    });
    session.ws.write('a.txt', 'hello\n');
    const done = await call(config, reg, 'read_file', { absolute_path: session.ws.p('a.txt') });
    expect(done.status).toBe('success');
    // The server is still starting (and still will be in ten minutes).
    expect(await waitUntil(() => processesMatching(`sleep ${marker}`).length === 1)).toBe(true);
    expect(reg.getMcpServers()[0]?.status).toBe('connecting');
    await reg.closeMcpServers();
    expect(await waitUntil(() => processesMatching(`sleep ${marker}`).length === 0)).toBe(true);
  });

  it("waits for a late server when a call names one of its tools, and announces the server's tools", async () => {
    const { config, registry: reg } = start({ late: { ...lateEverything(1500), trust: true } });
    let changes = 0;
    reg.onToolsChanged(() => changes++);
    expect(reg.getTool('echo')).toBeUndefined();
    const done = await call(config, reg, 'echo', { message: 'late but here' });
    expect(done.status).toBe('success');
    expect(output(done)).toBe('Echo: late but here');
    expect(changes).toBeGreaterThan(0);
  });

  it('finds a tool by server__tool even when it kept its own name', async () => {
    const { config, registry: reg } = start({
      everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], trust: true },
    });
    const done = await call(config, reg, 'everything__echo', { message: 'qualified' });
    expect(output(done)).toBe('Echo: qualified');
    expect(reg.getTool('echo')?.name).toBe('echo');
  });

  it("finds a tool by Qwen Code's mcp__server__tool, waiting for that server; tools.exclude matches that name", async () => {
    const late = { ...lateEverything(1500), trust: true };
    // Last time the server offered other tools: only the name's server part says to wait.
    const cache = new McpToolCache(path.join(session.ws.home, '.toolhost'));
    cache.remember('late', late, ['other_tool']);
    await cache.flush();
    const { config, registry: reg } = start({ late });
    const done = await call(config, reg, 'mcp__late__echo', { message: 'qwen name' });
    expect(output(done)).toBe('Echo: qwen name');
    const echo = reg.getTool('echo');
    expect(echo?.name).toBe('echo');
    expect(mcpQualifiedNameOf(echo!)).toBe('mcp__late__echo');
    expect(reg.getTool('mcp__late__echo')).toBe(echo);
    config.settings.tools = { exclude: ['mcp__late__echo'] };
    expect(reg.getTool('echo')).toBeUndefined();
    expect(reg.getInactiveTools()).toContainEqual({
      name: 'echo',
      reason: 'turned off by tools.exclude ("mcp__late__echo")',
    });
  });

  it("gives a subagent whose file lists mcp__server__tool that server's tool", async () => {
    const { config, registry: reg } = start({
      everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], trust: true },
    });
    await reg.whenDiscoveryComplete();
    const subset = new ToolSubset(config, reg, ['read_file', 'mcp__everything__echo'], undefined);
    expect(subset.getAllToolNames()).toEqual(['read_file', 'echo']);
    expect(subset.unknownNames()).toEqual([]);
  });

  it('gives a subagent the tools of a server named my__srv by every name rules use for them', async () => {
    const { config, registry: reg } = start({
      my__srv: { command: process.execPath, args: [EVERYTHING, 'stdio'], trust: true },
    });
    await reg.whenDiscoveryComplete();
    const all = reg.getToolsByServer('my__srv').map((tool) => tool.name);
    expect(all.length).toBeGreaterThan(1);
    const subset = (names: string[]) => new ToolSubset(config, reg, names, undefined);
    expect(subset(['mcp__my__srv']).getAllToolNames().sort()).toEqual([...all].sort());
    for (const names of [['mcp__my__srv__echo'], ['mcp__my__srv__ech*'], ['my__srv__echo']]) {
      expect(subset(names).getAllToolNames(), names[0]).toEqual(['echo']);
      expect(subset(names).unknownNames(), names[0]).toEqual([]);
    }
    // Not its server's names: no tool, and the name is reported.
    for (const name of ['mcp__my', 'mcp__my__srv__nope', 'mcp__other__echo']) {
      expect(subset([name]).getAllToolNames(), name).toEqual([]);
      expect(subset([name]).unknownNames(), name).toEqual([name]);
    }
  });

  it('waits only for the servers that may have the tool, from what they offered last time', async () => {
    const hangs = { command: 'sleep', args: [uniqueSleep()], timeout: TEN_MINUTES };
    const cache = new McpToolCache(path.join(session.ws.home, '.toolhost'));
    cache.remember('hangs', hangs, ['slow_tool']);
    await cache.flush();
    const { config, registry: reg } = start({
      hangs,
      late: { ...lateEverything(500), trust: true },
    });
    // Not a tool of "hangs" last time, so only "late" is waited for.
    const echoed = await call(config, reg, 'echo', { message: 'not held up' });
    expect(output(echoed)).toBe('Echo: not held up');
    const unknown = await call(config, reg, 'no_such_tool');
    expect(unknown.response.error?.type).toBe(ToolErrorType.TOOL_NOT_REGISTERED);
    expect(reg.getMcpServers().find((s) => s.alias === 'hangs')?.status).toBe('connecting');
  });

  it('names the tools of a server that failed to start, with its reason', async () => {
    const flag = path.join(session.ws.base, 'broken');
    const script = path.join(session.ws.base, 'flaky.mjs');
    writeFileSync(
      script,
      sdkServerScript(`
        import { existsSync } from 'node:fs';
        if (existsSync(${JSON.stringify(flag)})) { console.error('cannot reach the database'); process.exit(4); }
        const server = new McpServer({ name: 'flaky', version: '1.0.0' });
        server.registerTool('lookup', { description: 'looks up' }, async () => ({ content: [{ type: 'text', text: 'found' }] }));
        await server.connect(new StdioServerTransport());`),
    );
    const flaky = { command: process.execPath, args: [script], trust: true };
    const first = start({ flaky });
    expect(output(await call(first.config, first.registry, 'lookup'))).toBe('found');
    await first.registry.closeMcpServers();

    writeFileSync(flag, '');
    expect(existsSync(flag)).toBe(true);
    const { config, registry: reg } = start({ flaky });
    const failed = await call(config, reg, 'lookup');
    expect(failed.status).toBe('error');
    expect(failed.response.error?.type).toBe(ToolErrorType.MCP_TOOL_ERROR);
    expect(failed.response.error?.message).toMatch(
      /"lookup" is a tool of MCP server "flaky", which is not available: .*cannot reach the database/,
    );
    const qualified = await call(config, reg, 'flaky__anything');
    expect(qualified.response.error?.message).toContain('is a tool of MCP server "flaky"');
    const unknown = await call(config, reg, 'something_else');
    expect(unknown.response.error?.type).toBe(ToolErrorType.TOOL_NOT_REGISTERED);
    expect(unknown.response.error?.message).toMatch(
      /does not exist.*MCP server "flaky" \(.*cannot reach the database\) failed to start/s,
    );
  });
});

describe('start timeout', () => {
  it('gives up on a server that does not start within startTimeout, naming that setting', async () => {
    const { registry: reg } = start({
      hangs: { command: 'sleep', args: [uniqueSleep()], timeout: TEN_MINUTES, startTimeout: 1500 },
    });
    await reg.discoverAllTools();
    const hangs = reg.getMcpServers()[0];
    expect(hangs?.status).toBe('failed');
    expect(hangs?.error).toBe(
      'did not start within 1.5 s; raise mcpServers.hangs.startTimeout (milliseconds) in settings if it needs longer',
    );
  });

  it('lets a call run past startTimeout: calls are bounded by timeout alone', async () => {
    const script = path.join(session.ws.base, 'slow.mjs');
    writeFileSync(
      script,
      sdkServerScript(`
        const server = new McpServer({ name: 'slow', version: '1.0.0' });
        server.registerTool('brew', { description: 'takes a while' }, async () => {
          await new Promise((resolve) => setTimeout(resolve, 7000));
          return { content: [{ type: 'text', text: 'brewed' }] };
        });
        await server.connect(new StdioServerTransport());`),
    );
    const { config, registry: reg } = start({
      slow: {
        command: process.execPath,
        args: [script],
        trust: true,
        startTimeout: 6000,
        timeout: 30_000,
      },
    });
    const done = await call(config, reg, 'brew');
    expect(output(done)).toBe('brewed');
  });
});
