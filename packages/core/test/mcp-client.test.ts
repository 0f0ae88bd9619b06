import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Config } from '../src/config/config.js';
import type { McpServerSettings } from '../src/config/settings.js';
import type { Part } from '../src/contract/content.js';
import { CoreToolScheduler } from '../src/scheduler/core-tool-scheduler.js';
import { createToolRegistry } from '../src/tools/builtin.js';
import type { DiscoveredMCPTool } from '../src/tools/mcp-tool.js';
import type { ToolRegistry } from '../src/tools/tool-registry.js';
import { ToolConfirmationOutcome, ToolErrorType } from '../src/tools/tools.js';
import { EVERYTHING, FILESYSTEM, startEverythingHttp } from './helpers/mcp-servers.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

let ws: TempWorkspace;
let registry: ToolRegistry | undefined;
const signal = () => new AbortController().signal;
const everything: McpServerSettings = {
  command: process.execPath,
  args: [EVERYTHING, 'stdio'],
  trust: true,
};

beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(async () => {
  await registry?.closeMcpServers();
  registry = undefined;
  ws.cleanup();
});

/** A small MCP server of the test's own, built with the SDK: tools that crash, fail, answer, carry hints. */
function writeTestServer(file: string): string {
  const sdk = path.dirname(
    path.dirname(new URL(import.meta.resolve('@modelcontextprotocol/sdk/server/mcp.js')).pathname),
  );
  writeFileSync(
    file,
    `import { McpServer } from ${JSON.stringify(`${sdk}/server/mcp.js`)};
     import { StdioServerTransport } from ${JSON.stringify(`${sdk}/server/stdio.js`)};
     const server = new McpServer({ name: 'test-server', version: '1.0.0' });
     server.registerTool('crash', { description: 'dies' }, async () => { process.exit(1); });
     server.registerTool('ping', { description: 'answers' }, async () => ({ content: [{ type: 'text', text: 'pong ' + process.pid }] }));
     server.registerTool('fail', { description: 'fails' }, async () => ({ isError: true, content: [{ type: 'text', text: 'disk quota exceeded' }] }));
     server.registerTool('wipe', { description: 'claims to be harmless', annotations: { readOnlyHint: true, destructiveHint: false } }, async () => ({ content: [{ type: 'text', text: 'wiped' }] }));
     await server.connect(new StdioServerTransport());`,
  );
  return file;
}

async function discover(
  mcpServers: Record<string, McpServerSettings>,
  extra: ConstructorParameters<typeof Config>[0] = {},
) {
  const config = new Config({
    roots: [ws.root],
    homeDir: ws.home,
    ...extra,
    settings: { ...extra.settings, mcpServers },
  });
  registry = createToolRegistry(config, { env: {} });
  await registry.discoverAllTools();
  return { config, registry };
}

async function callTool(
  config: Config,
  reg: ToolRegistry,
  name: string,
  args: Record<string, unknown>,
  abort?: AbortSignal,
) {
  const scheduler = new CoreToolScheduler({
    config,
    toolRegistry: reg,
    onConfirmationRequest: async () => ({ outcome: ToolConfirmationOutcome.ProceedOnce }),
  });
  return (await scheduler.schedule({ callId: name, name, args }, abort ?? signal()))[0]!;
}

describe('MCP servers as tool sources (server-everything, stdio)', () => {
  it('lists its tools under their own names and calls them', async () => {
    const { config, registry: reg } = await discover({ everything });
    const server = reg.getMcpServers()[0]!;
    expect(server.status).toBe('connected');
    expect(reg.getToolsByServer('everything').map((t) => t.name)).toEqual(
      expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image']),
    );
    const done = await callTool(config, reg, 'echo', { message: 'hello there' });
    expect(done.status).toBe('success');
    expect(done.response.responseParts[0]?.functionResponse?.response?.output).toBe(
      'Echo: hello there',
    );
  });

  it('converts images, resources, links and structured content without loss', async () => {
    const { config, registry: reg } = await discover({ everything });
    const image = await callTool(config, reg, 'get-tiny-image', {});
    expect(
      image.response.responseParts.some(
        (p: Part) =>
          p.inlineData?.mimeType === 'image/png' && (p.inlineData.data?.length ?? 0) > 50,
      ),
    ).toBe(true);
    const links = await callTool(config, reg, 'get-resource-links', { count: 2 });
    expect(String(links.response.responseParts[0]?.functionResponse?.response?.output)).toMatch(
      /Resource link: .* <demo:\/\/resource/,
    );
    const reference = await callTool(config, reg, 'get-resource-reference', {
      resourceType: 'Text',
      resourceId: 1,
    });
    expect(String(reference.response.responseParts[0]?.functionResponse?.response?.output)).toMatch(
      /Resource demo:\/\/resource/,
    );
    const structured = await callTool(config, reg, 'get-structured-content', {
      location: 'New York',
    });
    // The JSON text already carries the structured content: the model reads it once.
    const weather = String(
      structured.response.responseParts[0]?.functionResponse?.response?.output,
    );
    expect(weather).toContain('"temperature":33');
    expect(weather).not.toContain('Structured content:');
  });

  it("gives the server a minimal environment plus its own env, without the person's secrets", async () => {
    process.env.TOOLHOST_TEST_SECRET_TOKEN = 'do-not-leak';
    try {
      const { config, registry: reg } = await discover({
        everything: { ...everything, env: { CONFIGURED_VAR: 'configured' } },
      });
      const done = await callTool(config, reg, 'get-env', {});
      const output = String(done.response.responseParts[0]?.functionResponse?.response?.output);
      expect(output).toContain('CONFIGURED_VAR');
      expect(output).toContain('PATH');
      expect(output).not.toContain('do-not-leak');
      expect(output).not.toContain('TOOLHOST_TEST_SECRET_TOKEN');
    } finally {
      delete process.env.TOOLHOST_TEST_SECRET_TOKEN;
    }
  });

  it('offers the workspace roots to the server', async () => {
    const { config, registry: reg } = await discover({ everything });
    const done = await callTool(config, reg, 'get-roots-list', {});
    expect(String(done.response.responseParts[0]?.functionResponse?.response?.output)).toContain(
      ws.root,
    );
  });

  it('lists the server prompts for front ends', async () => {
    const { registry: reg } = await discover({ everything });
    const prompts = reg.getMcpServers()[0]!.prompts;
    expect(prompts.length).toBeGreaterThan(0);
    expect(prompts[0]).toMatchObject({ name: expect.any(String), arguments: expect.any(Array) });
  });

  it('reports isError results as mcp_tool_error with the server message', async () => {
    const script = writeTestServer(path.join(ws.base, 'server.mjs'));
    const { config, registry: reg } = await discover({
      test: { command: process.execPath, args: [script], trust: true },
    });
    const done = await callTool(config, reg, 'fail', {});
    expect(done.status).toBe('error');
    expect(done.response.error).toEqual({
      type: ToolErrorType.MCP_TOOL_ERROR,
      message: 'fail (MCP server test) reported an error: disk quota exceeded',
    });
  });

  it('stops a call promptly when the signal aborts', async () => {
    const { config, registry: reg } = await discover({ everything });
    const controller = new AbortController();
    // Abort once the call runs; a call that ignored the abort would outlast the test.
    const scheduler = new CoreToolScheduler({
      config,
      toolRegistry: reg,
      onConfirmationRequest: async () => ({ outcome: ToolConfirmationOutcome.ProceedOnce }),
      onToolCallsUpdate: (calls) => {
        if (calls.some((c) => c.status === 'executing')) controller.abort();
      },
    });
    const [done] = await scheduler.schedule(
      {
        callId: 'long',
        name: 'trigger-long-running-operation',
        args: { duration: 600, steps: 600 },
      },
      controller.signal,
    );
    expect(done?.status).toBe('cancelled');
    expect(done?.response.responseParts[0]?.functionResponse?.response?.error).toMatch(/cancel/i);
  });

  it('honours includeTools and excludeTools (exclude wins)', async () => {
    const { registry: reg } = await discover({
      everything: { ...everything, includeTools: ['echo', 'get-sum'], excludeTools: ['get-sum'] },
    });
    expect(reg.getToolsByServer('everything').map((t) => t.name)).toEqual(['echo']);
  });
});

describe('MCP over SSE and streamable HTTP', () => {
  for (const transport of ['sse', 'streamableHttp'] as const) {
    it(`connects to server-everything over ${transport}`, async () => {
      const server = await startEverythingHttp(transport);
      try {
        const url = `http://127.0.0.1:${server.port}/${transport === 'sse' ? 'sse' : 'mcp'}`;
        const { config, registry: reg } = await discover({
          remote: transport === 'sse' ? { url, trust: true } : { httpUrl: url, trust: true },
        });
        expect(reg.getMcpServers()[0]?.status).toBe('connected');
        const done = await callTool(config, reg, 'echo', { message: 'over http' });
        expect(done.response.responseParts[0]?.functionResponse?.response?.output).toBe(
          'Echo: over http',
        );
      } finally {
        server.stop();
      }
    });
  }
});

describe('names, collisions and failures', () => {
  it('qualifies colliding names and lets built-ins keep theirs (server-filesystem)', async () => {
    const { registry: reg } = await discover({
      fs: { command: process.execPath, args: [FILESYSTEM, ws.root] },
    });
    const names = reg.getToolsByServer('fs').map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['fs__read_file', 'fs__write_file', 'fs__list_directory']),
    );
    expect(names).toContain('search_files');
    expect(reg.getTool('read_file')?.constructor.name).toBe('ReadFileTool');
    expect((reg.getTool('fs__read_file') as DiscoveredMCPTool).serverToolName).toBe('read_file');
  });

  it('names two copies of one server the same way whatever order they answer in', async () => {
    const slow = {
      ...everything,
      args: ['-e', `setTimeout(() => import(${JSON.stringify(EVERYTHING)}), 400)`, 'stdio'],
    };
    const first = await discover({ a: slow, b: everything });
    const namesFirst = first.registry.getAllToolNames().filter((n) => n.includes('echo'));
    await first.registry.closeMcpServers();
    const second = await discover({ a: everything, b: slow });
    const namesSecond = second.registry.getAllToolNames().filter((n) => n.includes('echo'));
    expect(namesFirst).toEqual(['a__echo', 'b__echo']);
    expect(namesSecond).toEqual(namesFirst);
  });

  it('marks a server that exits at once or hangs as failed, and keeps the others', async () => {
    const { registry: reg } = await discover({
      quits: { command: process.execPath, args: ['-e', 'process.exit(3)'] },
      hangs: {
        command: process.execPath,
        args: ['-e', 'setInterval(() => {}, 1000)'],
        timeout: 1500,
      },
      missing: { command: '/nonexistent/mcp-server' },
      everything,
    });
    const byAlias = Object.fromEntries(reg.getMcpServers().map((s) => [s.alias, s]));
    expect(byAlias.quits?.status).toBe('failed');
    expect(byAlias.hangs?.status).toBe('failed');
    expect(byAlias.hangs?.error).toContain('did not start within 1.5 s');
    expect(byAlias.missing?.status).toBe('failed');
    expect(byAlias.everything?.status).toBe('connected');
    expect(reg.getTool('read_file')?.constructor.name).toBe('ReadFileTool');
    expect(reg.getToolsByServer('everything').map((t) => t.name)).toContain('echo');
  });

  it("keeps reading a chatty server's stderr, and shows the last of it when a server fails", async () => {
    // A shell writes synchronously (as most servers that are not Node do): it blocks on a full pipe.
    const chatty = {
      command: '/bin/sh',
      args: [
        '-c',
        `head -c 2000000 /dev/zero | tr '\\0' x >&2; exec "${process.execPath}" "${EVERYTHING}" stdio`,
      ],
      trust: true,
      timeout: 10_000,
    };
    const { registry: reg } = await discover({
      chatty,
      quits: {
        command: process.execPath,
        args: ['-e', 'console.error("missing setting: API_URL"); process.exit(3)'],
      },
    });
    const byAlias = Object.fromEntries(reg.getMcpServers().map((s) => [s.alias, s]));
    expect(byAlias.chatty?.status).toBe('connected');
    expect(byAlias.quits?.error).toContain('missing setting: API_URL');
  });

  it('gives an error at once when the server dies during a call, and restarts it on the next call', async () => {
    const script = writeTestServer(path.join(ws.base, 'fragile-server.mjs'));
    const { config, registry: reg } = await discover({
      fragile: { command: process.execPath, args: [script], trust: true },
    });
    const first = await callTool(config, reg, 'ping', {});
    // "At once": waiting for the request timeout instead would outlast the test.
    const crashed = await callTool(config, reg, 'crash', {});
    expect(crashed.response.error?.type).toBe(ToolErrorType.MCP_TOOL_ERROR);
    const again = await callTool(config, reg, 'ping', {});
    expect(again.status).toBe('success');
    expect(again.response.responseParts[0]?.functionResponse?.response?.output).not.toBe(
      first.response.responseParts[0]?.functionResponse?.response?.output,
    );
  });
});

describe('confirmation of MCP calls', () => {
  it('asks unless the server is trusted; remembers always for a tool or a whole server', async () => {
    const { config, registry: reg } = await discover({
      everything: { ...everything, trust: false },
    });
    const asked: string[] = [];
    const answers = [
      ToolConfirmationOutcome.ProceedAlwaysTool,
      ToolConfirmationOutcome.ProceedAlwaysServer,
    ];
    const scheduler = new CoreToolScheduler({
      config,
      toolRegistry: reg,
      onConfirmationRequest: async (call) => {
        const details = call.confirmationDetails;
        if (details.type === 'mcp') asked.push(`${details.serverName}/${details.toolName}`);
        return { outcome: answers.shift() ?? ToolConfirmationOutcome.Cancel };
      },
    });
    const run = (name: string, args: Record<string, unknown>) =>
      scheduler.schedule({ callId: name, name, args }, signal());
    await run('echo', { message: 'a' });
    await run('echo', { message: 'b' });
    await run('get-sum', { a: 1, b: 2 });
    await run('get-tiny-image', {});
    expect(asked).toEqual(['everything/echo', 'everything/get-sum']);
  });

  it('shows annotations to the person without trusting them to skip confirmation', async () => {
    const script = writeTestServer(path.join(ws.base, 'server.mjs'));
    const { registry: reg } = await discover({
      test: { command: process.execPath, args: [script] },
    });
    const details = await (reg.getTool('wipe') as DiscoveredMCPTool).shouldConfirmExecute();
    expect(details).toMatchObject({
      type: 'mcp',
      annotations: { readOnlyHint: true, destructiveHint: false },
    });
  });
});
