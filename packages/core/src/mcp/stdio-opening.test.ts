/**
 * The stdio opening answers exactly as the SDK's server would, and hands everything else to
 * it unchanged: each transcript is run through serveMcpOverStdio and through the SDK's
 * server on its own stdio transport (the way `toolhost mcp` served before), and compared.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ElicitRequestSchema,
  type JSONRPCMessage,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../../test/helpers/processes.js';
import { makeWorkspace, type TempWorkspace } from '../../test/helpers/temp-workspace.js';
import { createToolRegistry } from '../tools/builtin.js';
import { createToolhostMcpServer } from './mcp-server.js';
import { SUPPORTED_PROTOCOL_VERSIONS as OUR_VERSIONS } from './server-identity.js';
import { serveMcpOverStdio } from './stdio-opening.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

const VERSION = '9.9.9';

function initialize(id: number | string, params: Record<string, unknown> = {}) {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'test', version: '1' },
      ...params,
    },
  };
}
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
const listTools = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });

interface Served {
  input: PassThrough;
  /** Every message written so far, parsed. */
  written: () => JSONRPCMessage[];
  done: Promise<void>;
}

/** toolhost's stdio service (the opening), or the SDK's server on its own stdio transport. */
function serve(way: 'opening' | 'sdk'): Served {
  const registry = createToolRegistry(ws.config, { env: {} });
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk) => {
    text += String(chunk);
  });
  let done: Promise<void>;
  if (way === 'opening') {
    done = serveMcpOverStdio(ws.config, registry, { version: VERSION }, { input, output });
  } else {
    const server = createToolhostMcpServer(ws.config, registry, { version: VERSION });
    done = server.connect(new StdioServerTransport(input, output));
  }
  const written = () =>
    text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as JSONRPCMessage);
  return { input, written, done };
}

/** What each way answers to the same lines, once both have answered `expected` messages. */
async function transcripts(lines: string[], expected: number) {
  const answers = [];
  for (const way of ['opening', 'sdk'] as const) {
    const served = serve(way);
    for (const line of lines) served.input.write(`${line}\n`);
    expect(await waitUntil(() => served.written().length >= expected, 10_000)).toBe(true);
    // Nothing more arrives late.
    await new Promise((resolve) => setTimeout(resolve, 50));
    served.input.end();
    answers.push(served.written());
  }
  // Independent requests may be answered in either order.
  const byId = (messages: JSONRPCMessage[]) =>
    [...messages].sort((a, b) =>
      String('id' in a && a.id).localeCompare(String('id' in b && b.id)),
    );
  return { opening: byId(answers[0]!), sdk: byId(answers[1]!) };
}

describe('the stdio opening', () => {
  it('agrees to the protocol versions the SDK does, newest first', () => {
    expect(OUR_VERSIONS).toEqual(SUPPORTED_PROTOCOL_VERSIONS);
    expect(OUR_VERSIONS[0]).toBe(LATEST_PROTOCOL_VERSION);
  });

  for (const protocolVersion of ['2025-06-18', '2024-11-05', LATEST_PROTOCOL_VERSION, '1999-01-01'])
    it(`answers initialize (${protocolVersion}) and tools/list as the SDK's server does`, async () => {
      const lines = [initialize(1, { protocolVersion }), INITIALIZED, listTools(2)].map((m) =>
        JSON.stringify(m),
      );
      const { opening, sdk } = await transcripts(lines, 2);
      expect(opening).toEqual(sdk);
      expect(JSON.stringify(opening)).toContain('"name":"read_file"');
    });

  it('leaves unusual openings to the SDK, which answers them as it always did', async () => {
    const lines = [
      'this is not JSON',
      JSON.stringify({ jsonrpc: '2.0', id: 'p', method: 'ping' }),
      JSON.stringify(listTools(3)),
      JSON.stringify(initialize(4, { clientInfo: { name: 'no version' } })),
      JSON.stringify(initialize(5, { capabilities: { roots: 'yes' } })),
      JSON.stringify(initialize(6)),
      JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: { cursor: 7 } }),
      JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'resources/list' }),
    ];
    const { opening, sdk } = await transcripts(lines, 7);
    expect(opening).toEqual(sdk);
    expect(opening.filter((m) => 'error' in m).length).toBeGreaterThanOrEqual(3);
  });

  const clientShapes: [string, Record<string, unknown>][] = [
    [
      'every capability the SDK knows, well formed',
      {
        capabilities: {
          roots: { listChanged: true },
          sampling: { context: {}, tools: {} },
          elicitation: { form: { applyDefaults: true }, url: {} },
          experimental: { 'x/y': {} },
          extensions: { 'vendor/ext': {} },
          unknownToTheSdk: 5,
        },
        clientInfo: { name: 'c', version: '1', title: 'C', websiteUrl: 'https://c.test' },
      },
    ],
    [
      'roots.listChanged that is not a boolean',
      { capabilities: { roots: { listChanged: 'yes' } } },
    ],
    ['a sampling context that is not an object', { capabilities: { sampling: { context: 5 } } }],
    [
      'an elicitation form with a bad applyDefaults',
      {
        capabilities: { elicitation: { form: { applyDefaults: 'x' } } },
      },
    ],
    [
      'experimental capabilities that are not objects',
      { capabilities: { experimental: { a: 1 } } },
    ],
    ['a client title that is not a string', { clientInfo: { name: 'c', version: '1', title: 5 } }],
    [
      'client icons',
      {
        clientInfo: { name: 'c', version: '1', icons: [{ src: 'https://c.test/i.png' }] },
      },
    ],
    ['task capabilities', { capabilities: { tasks: { list: {} } } }],
    ['capabilities as a list', { capabilities: [] }],
  ];
  for (const [shape, params] of clientShapes)
    it(`answers an initialize with ${shape} as the SDK's server does`, async () => {
      const lines = [initialize(1, params), INITIALIZED, listTools(2)].map((m) =>
        JSON.stringify(m),
      );
      const { opening, sdk } = await transcripts(lines, 2);
      expect(opening).toEqual(sdk);
    });

  it('hands over after its opening: the SDK answers what follows, knowing the client', async () => {
    const lines = [
      initialize(1, { capabilities: { elicitation: {} } }),
      INITIALIZED,
      listTools(2),
      { jsonrpc: '2.0', id: 3, method: 'prompts/list' },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'no_such_tool' } },
      { jsonrpc: '2.0', id: 5, method: 'initialize', params: initialize(5).params },
    ].map((m) => JSON.stringify(m));
    const { opening, sdk } = await transcripts(lines, 5);
    expect(opening).toEqual(sdk);
  });

  it('serves an SDK client from the first message to a write it asks the person about', async () => {
    const served = serveOverPipes();
    const client = new Client(
      { name: 'asker', version: '1' },
      { capabilities: { elicitation: { form: {} } } },
    );
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { decision: 'once' } };
    });
    await client.connect(served.transport);
    expect(client.getServerVersion()).toEqual({ name: 'toolhost', version: VERSION });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('write_file');
    const canary = ws.p('canary.txt');
    const result = await client.callTool({
      name: 'write_file',
      arguments: { file_path: canary, content: 'written after asking\n' },
    });
    expect(result.isError).toBeFalsy();
    // The replayed initialize told the SDK's server that this client can be asked.
    expect(asked.join('\n')).toContain('canary.txt');
    expect(readFileSync(canary, 'utf8')).toBe('written after asking\n');
    await client.close();
    await served.done;
  });

  for (const [when, pingFirst] of [
    ['before the SDK has loaded', false],
    ['after the SDK has taken over (a ping hands over)', true],
  ] as const)
    it(`tells a client that has listed the tools when a discovered tool arrives, ${when}`, async () => {
      const gate = ws.p('go');
      const declarations = JSON.stringify([{ name: 'deploy', description: 'Deploys.' }]);
      writeFileSync(
        ws.p('discover.mjs'),
        `import { existsSync } from 'node:fs';
const wait = () => existsSync(${JSON.stringify(gate)}) ? console.log(${JSON.stringify(declarations)}) : setTimeout(wait, 20);
wait();`,
      );
      ws.config.settings.tools = {
        discoveryCommand: `${process.execPath} ${ws.p('discover.mjs')}`,
      };
      const served = serveOverPipes({
        discover: true,
        loadSdkAfterQuietMs: Number.POSITIVE_INFINITY,
      });
      const client = new Client({ name: 'watcher', version: '1' });
      let changed = 0;
      client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
        changed++;
      });
      await client.connect(served.transport);
      expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('deploy');
      if (pingFirst) await client.ping();
      writeFileSync(gate, '');
      expect(await waitUntil(() => changed > 0, 10_000)).toBe(true);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('deploy');
      await client.close();
      await served.done;
    });

  it('ends when its input ends, before and after handing over', async () => {
    for (const lines of [
      [],
      [initialize(1), listTools(2)],
      [initialize(1), { jsonrpc: '2.0', id: 2, method: 'ping' }],
    ]) {
      const served = serve('opening');
      for (const line of lines) served.input.write(`${JSON.stringify(line)}\n`);
      expect(await waitUntil(() => served.written().length >= lines.length, 10_000)).toBe(true);
      served.input.end();
      await expect(served.done).resolves.toBeUndefined();
    }
  });
});

/** serveMcpOverStdio behind a client transport on two pipes. */
function serveOverPipes(options: { discover?: boolean; loadSdkAfterQuietMs?: number } = {}): {
  transport: Transport;
  done: Promise<void>;
} {
  const registry = createToolRegistry(ws.config, { env: {} });
  if (options.discover) registry.startDiscovery();
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const done = serveMcpOverStdio(
    ws.config,
    registry,
    { version: VERSION, loadSdkAfterQuietMs: options.loadSdkAfterQuietMs },
    { input: toServer, output: fromServer },
  );
  let pending = '';
  const transport: Transport = {
    async start() {
      fromServer.on('data', (chunk) => {
        pending += String(chunk);
        for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n')) {
          const line = pending.slice(0, end);
          pending = pending.slice(end + 1);
          transport.onmessage?.(JSON.parse(line) as JSONRPCMessage);
        }
      });
    },
    async send(message) {
      toServer.write(`${JSON.stringify(message)}\n`);
    },
    async close() {
      toServer.end();
      transport.onclose?.();
    },
  };
  return { transport, done };
}
