/**
 * MCP client promises checked against real servers: the configured `headers` reach the
 * server on every request of both HTTP transports, a streamable HTTP session is ended
 * (DELETE) when toolhost is done with the server, audio results reach the model as
 * audio, and `mcp.excluded` adds up across settings layers (an excluded server is never
 * started, shown by the canary file its command would create).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Config } from '../src/config/config.js';
import type { McpServerSettings } from '../src/config/settings.js';
import { toOpenAIToolMessages } from '../src/providers/openai-chat.js';
import { CoreToolScheduler } from '../src/scheduler/core-tool-scheduler.js';
import { createToolRegistry } from '../src/tools/builtin.js';
import type { ToolRegistry } from '../src/tools/tool-registry.js';
import { ToolConfirmationOutcome } from '../src/tools/tools.js';
import { startServer } from './helpers/http-server.js';
import { startEverythingHttp } from './helpers/mcp-servers.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

let ws: TempWorkspace;
const registries: ToolRegistry[] = [];
const stops: (() => unknown)[] = [];
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(async () => {
  for (const registry of registries.splice(0)) await registry.closeMcpServers();
  for (const stop of stops.splice(0)) await stop();
  ws.cleanup();
});

async function discover(config: Config) {
  const registry = createToolRegistry(config, { env: {} });
  registries.push(registry);
  await registry.discoverAllTools();
  return registry;
}
function configWith(mcpServers: Record<string, McpServerSettings>) {
  return new Config({ roots: [ws.root], homeDir: ws.home, settings: { mcpServers } });
}
async function call(config: Config, registry: ToolRegistry, name: string, args = {}) {
  const scheduler = new CoreToolScheduler({
    config,
    toolRegistry: registry,
    onConfirmationRequest: async () => ({ outcome: ToolConfirmationOutcome.ProceedOnce }),
  });
  return (await scheduler.schedule({ callId: name, name, args }, new AbortController().signal))[0]!;
}

describe('MCP headers', () => {
  for (const transport of ['sse', 'streamableHttp'] as const) {
    it(`sends the configured headers with every ${transport} request`, async () => {
      const everything = await startEverythingHttp(transport);
      stops.push(everything.stop);
      // A recording reverse proxy in front of the real server.
      const seen: { method: string; auth?: string; custom?: string }[] = [];
      const front = await startServer((req, res) => {
        seen.push({
          method: String(req.method),
          auth: req.headers.authorization,
          custom: req.headers['x-team'] as string | undefined,
        });
        const upstream = http.request(
          {
            host: '127.0.0.1',
            port: everything.port,
            path: req.url,
            method: req.method,
            headers: req.headers,
          },
          (response) => {
            res.writeHead(response.statusCode ?? 502, response.headers);
            response.pipe(res);
          },
        );
        req.pipe(upstream);
      });
      stops.push(front.close);
      const url = `${front.url}/${transport === 'sse' ? 'sse' : 'mcp'}`;
      const headers = { Authorization: 'Bearer team-token', 'X-Team': 'tools' };
      const config = configWith({
        remote: { ...(transport === 'sse' ? { url } : { httpUrl: url }), headers, trust: true },
      });
      const registry = await discover(config);
      expect(registry.getMcpServers()[0]?.status).toBe('connected');
      const done = await call(config, registry, 'echo', { message: 'with headers' });
      expect(done.response.responseParts[0]?.functionResponse?.response?.output).toBe(
        'Echo: with headers',
      );
      expect(seen.length).toBeGreaterThanOrEqual(2);
      expect(new Set(seen.map((s) => s.method))).toContain('POST');
      for (const request of seen) {
        expect(request.auth).toBe('Bearer team-token');
        expect(request.custom).toBe('tools');
      }
    });
  }
});

describe('MCP streamable HTTP sessions', () => {
  /** The everything server behind a recording proxy; `hangOnDelete` never answers a DELETE. */
  async function recordedEverything(hangOnDelete = false) {
    const everything = await startEverythingHttp('streamableHttp');
    stops.push(everything.stop);
    const seen: { method: string; session?: string; auth?: string }[] = [];
    const front = await startServer((req, res) => {
      const session = req.headers['mcp-session-id'] as string | undefined;
      seen.push({ method: String(req.method), session, auth: req.headers.authorization });
      if (hangOnDelete && req.method === 'DELETE') return;
      const upstream = http.request(
        {
          host: '127.0.0.1',
          port: everything.port,
          path: req.url,
          method: req.method,
          headers: req.headers,
        },
        (response) => {
          res.writeHead(response.statusCode ?? 502, response.headers);
          response.pipe(res);
        },
      );
      // The server may stop while a stream of the client is still open.
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    stops.push(front.close);
    return { url: `${front.url}/mcp`, seen };
  }

  it('are ended with DELETE when toolhost is done with the server', async () => {
    const { url, seen } = await recordedEverything();
    const headers = { Authorization: 'Bearer team-token' };
    const config = configWith({ remote: { httpUrl: url, headers, trust: true } });
    const registry = await discover(config);
    expect(registry.getMcpServers()[0]?.status).toBe('connected');
    const session = seen.find((request) => request.session)?.session;
    expect(session).toBeDefined();
    expect(seen.some((request) => request.method === 'DELETE')).toBe(false);
    await registry.closeMcpServers();
    expect(seen.filter((request) => request.method === 'DELETE')).toEqual([
      { method: 'DELETE', session, auth: 'Bearer team-token' },
    ]);
  });

  it('are left to the server when it does not answer the DELETE: closing still ends', async () => {
    const { url, seen } = await recordedEverything(true);
    const registry = await discover(configWith({ remote: { httpUrl: url, trust: true } }));
    expect(registry.getMcpServers()[0]?.status).toBe('connected');
    await registry.closeMcpServers();
    expect(seen.filter((request) => request.method === 'DELETE')).toHaveLength(1);
  });
});

describe('MCP audio results', () => {
  it('reach the model as audio, and an OpenAI endpoint as input_audio', async () => {
    const sdk = path.dirname(
      path.dirname(
        new URL(import.meta.resolve('@modelcontextprotocol/sdk/server/mcp.js')).pathname,
      ),
    );
    const wav = Buffer.from('RIFF....WAVEfmt fake-audio-bytes').toString('base64');
    const server = path.join(ws.base, 'audio-server.mjs');
    writeFileSync(
      server,
      `import { McpServer } from ${JSON.stringify(`${sdk}/server/mcp.js`)};
       import { StdioServerTransport } from ${JSON.stringify(`${sdk}/server/stdio.js`)};
       const server = new McpServer({ name: 'audio', version: '1.0.0' });
       server.registerTool('speak', { description: 'says hello' }, async () => ({
         content: [{ type: 'text', text: 'here it is' }, { type: 'audio', mimeType: 'audio/wav', data: ${JSON.stringify(wav)} }],
       }));
       await server.connect(new StdioServerTransport());`,
    );
    const config = configWith({
      audio: { command: process.execPath, args: [server], trust: true },
    });
    const registry = await discover(config);
    const done = await call(config, registry, 'speak');
    expect(done.status).toBe('success');
    const parts = done.response.responseParts;
    expect(parts[0]?.functionResponse?.response?.output).toBe('here it is');
    expect(parts.slice(1)).toEqual([{ inlineData: { mimeType: 'audio/wav', data: wav } }]);
    const messages = toOpenAIToolMessages(parts);
    expect(JSON.stringify(messages)).toContain(
      JSON.stringify({ type: 'input_audio', input_audio: { data: wav, format: 'wav' } }),
    );
  });
});

describe('mcp.excluded across settings layers', () => {
  it('adds up the user, project and system lists; excluded servers are never started', async () => {
    const canary = (name: string) => path.join(ws.base, `${name}.started`);
    const server = (name: string): McpServerSettings => ({
      command: 'touch',
      args: [canary(name)],
    });
    const write = (file: string, settings: unknown) => {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(settings));
    };
    const systemFile = path.join(ws.base, 'system-settings.json');
    write(path.join(ws.home, '.toolhost', 'settings.json'), {
      mcpServers: {
        user: server('user'),
        project: server('project'),
        system: server('system'),
        kept: server('kept'),
      },
      mcp: { excluded: ['user'] },
    });
    write(path.join(ws.root, '.toolhost', 'settings.json'), { mcp: { excluded: ['project'] } });
    write(systemFile, { excludeMCPServers: ['system'] });
    const { config, settings } = Config.load({
      root: ws.root,
      homeDir: ws.home,
      systemSettingsPath: systemFile,
      env: {},
    });
    expect(settings.warnings).toEqual([]);
    expect(config.settings.mcp?.excluded?.slice().sort()).toEqual(['project', 'system', 'user']);
    const registry = await discover(config);
    expect(registry.getMcpServers().map((s) => s.alias)).toEqual(['kept']);
    expect(existsSync(canary('kept'))).toBe(true);
    for (const name of ['user', 'project', 'system']) expect(existsSync(canary(name))).toBe(false);
  });
});
