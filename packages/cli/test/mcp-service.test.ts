/**
 * `toolhost mcp --http` as a service for many clients, against the installed command on
 * 127.0.0.1: the protocol's answers for ended sessions, bad JSON and oversized bodies; the
 * health endpoint; the session cap and idle expiry; a session's commands ended with it; a
 * call cancelled when its client drops the connection; a graceful stop on SIGTERM; human
 * tool titles and unknown-tool errors with one prefix in the SDK's client.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EVERYTHING } from '../../core/test/helpers/mcp-servers.js';
import {
  killMatching,
  processesMatching,
  uniqueSleep,
  waitUntil,
} from '../../core/test/helpers/processes.js';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { CLI, type RunningCli, startCli } from './run-cli.js';

const TOKEN = 'service-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const MCP_HEADERS = {
  ...AUTH,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

let dirs: TempDirs;
let server: RunningCli | undefined;
const sleeps: string[] = [];
const clients: Client[] = [];

beforeEach(() => {
  dirs = makeTempDirs({ rootName: 'project' });
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  server?.child.kill('SIGKILL');
  await server?.exited;
  server = undefined;
  for (const marker of sleeps.splice(0)) killMatching(marker);
  dirs.cleanup();
});

/** Starts the service; returns its /mcp address. */
async function startService(...flags: string[]): Promise<string> {
  const running = startCli(
    [
      'mcp',
      '--root',
      dirs.root,
      '--http',
      '0',
      '--token',
      TOKEN,
      '--approval-mode',
      'yolo',
      ...flags,
    ],
    { cwd: dirs.root, home: dirs.home },
  );
  server = running;
  expect(await waitUntil(() => /serving on/.test(running.stderr()), 20_000)).toBe(true);
  return /serving on (\S+)/.exec(running.stderr())![1]!;
}

function sleepCommand(): { command: string; marker: string } {
  const seconds = uniqueSleep();
  sleeps.push(`sleep ${seconds}`);
  return { command: `sleep ${seconds}`, marker: `sleep ${seconds}` };
}

function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
) {
  return fetch(url, {
    method: 'POST',
    headers: { ...MCP_HEADERS, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal,
  });
}

/** A session opened by hand (initialize + initialized); returns its id. */
async function initialize(url: string): Promise<string> {
  const response = await post(url, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw-client', version: '1.0.0' },
    },
  });
  expect(response.status).toBe(200);
  await response.text();
  const id = response.headers.get('mcp-session-id')!;
  const ready = await post(
    url,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
  );
  expect(ready.status).toBe(202);
  return id;
}

async function health(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(new URL('/healthz', url));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function connect(
  url: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'service-client', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: AUTH },
  });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

function jsonLines(text: string): Record<string, unknown>[] {
  return text.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    return [JSON.parse(line) as Record<string, unknown>];
  });
}

describe('toolhost mcp --http: protocol answers a client can act on', () => {
  it('404 for an ended session, -32700 for bad JSON, 413 for a body over 16 MiB, and health', {
    timeout: 60_000,
  }, async () => {
    const url = await startService();
    expect(await health(url)).toEqual({
      status: 200,
      body: { status: 'ok', sessions: 0, maxSessions: 100 },
    });
    const id = await initialize(url);
    expect((await health(url)).body.sessions).toBe(1);

    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const version = { 'mcp-protocol-version': '2025-06-18' };
    const unknown = await post(url, list, { ...version, 'mcp-session-id': 'no-such-session' });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch(
      /initialize/,
    );

    const malformed = await post(url, '{"jsonrpc": "2.0", "id": 3, "method": ', {
      ...version,
      'mcp-session-id': id,
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { code: number } }).error.code).toBe(-32700);

    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: {
        name: 'write_file',
        arguments: { file_path: 'big.txt', content: 'x'.repeat(17 * 1024 * 1024) },
      },
    });
    const tooLarge = await post(url, huge, { ...version, 'mcp-session-id': id });
    expect(tooLarge.status).toBe(413);
    expect(((await tooLarge.json()) as { error: { message: string } }).error.message).toContain(
      '16 MiB',
    );

    // The session still works after each refusal, and ends for good on DELETE.
    const listed = await post(url, list, { ...version, 'mcp-session-id': id });
    expect(listed.status).toBe(200);
    expect(await listed.text()).toContain('read_file');
    const deleted = await fetch(url, {
      method: 'DELETE',
      headers: { ...AUTH, ...version, 'mcp-session-id': id },
    });
    expect(deleted.status).toBe(200);
    expect((await health(url)).body.sessions).toBe(0);
    const after = await post(url, list, { ...version, 'mcp-session-id': id });
    expect(after.status).toBe(404);
  });

  it('titles tools for people and reports an unknown tool with one prefix', async () => {
    const url = await startService();
    const { client } = await connect(url);
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('read_file')?.title).toBe('Read file');
    expect(byName.get('read_file')?.annotations?.title).toBe('Read file');
    expect(byName.get('list_directory')?.title).toBe('List directory');
    expect(byName.get('run_shell_command')?.annotations?.title).toBe('Shell');
    const error = await client
      .callTool({ name: 'read_fiel', arguments: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    const message = (error as McpError).message;
    expect(message).toMatch(/^MCP error -32602: Tool "read_fiel" does not exist/);
    expect(message.match(/MCP error/g)).toHaveLength(1);
  });
});

describe('toolhost mcp --http: progress of another MCP server’s tool', () => {
  it('reaches the client with its total', { timeout: 60_000 }, async () => {
    mkdirSync(path.join(dirs.home, '.toolhost'));
    writeFileSync(
      path.join(dirs.home, '.toolhost', 'settings.json'),
      JSON.stringify({
        mcpServers: {
          everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], trust: true },
        },
      }),
    );
    const url = await startService();
    const { client } = await connect(url);
    const seen: { progress: number; total?: number }[] = [];
    const result = await client.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 1, steps: 3 } },
      undefined,
      { onprogress: ({ progress, total }) => seen.push({ progress, total }) },
    );
    expect(JSON.stringify(result.content)).toContain('Long running operation completed');
    // The last notification may cross the result on the wire; the ones before it arrive.
    expect(seen.slice(0, 2)).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
    ]);
  });
});

describe('toolhost mcp --http: session lifecycle', () => {
  it('refuses sessions over --max-sessions with 503, and frees idle ones', {
    timeout: 60_000,
  }, async () => {
    const url = await startService(
      '--max-sessions',
      '2',
      '--session-idle-timeout',
      '2',
      '--log-json',
    );
    const first = await initialize(url);
    await initialize(url);
    const refused = await post(url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'c', version: '1' },
      },
    });
    expect(refused.status).toBe(503);
    const body = (await refused.json()) as {
      jsonrpc: string;
      error: { code: number; message: string };
    };
    expect(body.jsonrpc).toBe('2.0');
    expect(body.error.message).toMatch(/at most 2 live sessions \(--max-sessions\)/);

    // Idle for longer than the timeout: both end, and their places are free again.
    expect(
      await waitUntil(() => /"reason":"idle"[\s\S]*"reason":"idle"/.test(server!.stderr()), 10_000),
    ).toBe(true);
    expect((await health(url)).body.sessions).toBe(0);
    const stale = await post(
      url,
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { 'mcp-session-id': first, 'mcp-protocol-version': '2025-06-18' },
    );
    expect(stale.status).toBe(404);
    await initialize(url);

    const events = jsonLines(server!.stderr());
    expect(events.filter((e) => e.event === 'session_start')).toHaveLength(3);
    expect(events.filter((e) => e.event === 'session_end' && e.reason === 'idle')).toHaveLength(2);
    expect(events).toContainEqual(
      expect.objectContaining({ event: 'refused', status: 503, reason: 'session limit' }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ event: 'refused', status: 404, reason: 'unknown session' }),
    );
  });

  it("ends a session's background commands when the session ends, not another's", {
    timeout: 60_000,
  }, async () => {
    const url = await startService();
    const a = await connect(url);
    const b = await connect(url);
    const mine = sleepCommand();
    const theirs = sleepCommand();
    for (const [{ client }, { command }] of [
      [a, mine],
      [b, theirs],
    ] as const) {
      const started = await client.callTool({
        name: 'run_shell_command',
        arguments: { command, is_background: true },
      });
      expect(started.isError).toBeFalsy();
    }
    expect(await waitUntil(() => processesMatching(mine.marker).length > 0)).toBe(true);
    expect(await waitUntil(() => processesMatching(theirs.marker).length > 0)).toBe(true);

    await a.transport.terminateSession();
    expect(await waitUntil(() => processesMatching(mine.marker).length === 0, 10_000)).toBe(true);
    expect(processesMatching(theirs.marker)).not.toHaveLength(0);
  });
});

describe('toolhost mcp --http: calls whose client went away', () => {
  it('cancels a running command when its client drops the connection', {
    timeout: 60_000,
  }, async () => {
    const url = await startService();
    const id = await initialize(url);
    const { command, marker } = sleepCommand();
    const dropped = new AbortController();
    const response = await post(
      url,
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'run_shell_command', arguments: { command, is_background: false } },
      },
      { 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
      dropped.signal,
    );
    expect(response.status).toBe(200);
    expect(await waitUntil(() => processesMatching(marker).length > 0, 10_000)).toBe(true);
    dropped.abort();
    expect(await waitUntil(() => processesMatching(marker).length === 0, 5_000)).toBe(true);
    // The session outlives the dropped connection.
    expect((await health(url)).body.sessions).toBe(1);
  });

  it('cancels a running command when a stdio client closes its end', {
    timeout: 60_000,
  }, async () => {
    const { command, marker } = sleepCommand();
    const child = spawn(CLI, ['mcp', '--root', dirs.root, '--approval-mode', 'yolo'], {
      cwd: dirs.root,
      env: { PATH: process.env.PATH, HOME: dirs.home },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'c', version: '1' },
      },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'run_shell_command', arguments: { command, is_background: false } },
    });
    try {
      expect(await waitUntil(() => processesMatching(marker).length > 0, 20_000)).toBe(true);
      child.stdin.end();
      expect(await waitUntil(() => processesMatching(marker).length === 0, 5_000)).toBe(true);
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('on SIGTERM stops accepting, cancels calls after the grace period, and exits 0', {
    timeout: 60_000,
  }, async () => {
    const url = await startService('--shutdown-grace', '1', '--log-json');
    const { client } = await connect(url);
    const { command, marker } = sleepCommand();
    const call = client
      .callTool({ name: 'run_shell_command', arguments: { command, is_background: false } })
      .catch((error: unknown) => error);
    expect(await waitUntil(() => processesMatching(marker).length > 0, 10_000)).toBe(true);
    server!.child.kill('SIGTERM');
    const exited = await server!.exited;
    expect(exited.code).toBe(0);
    expect(processesMatching(marker)).toHaveLength(0);
    const answer = await call;
    expect(JSON.stringify(answer)).toMatch(/cancel/i);
    const events = jsonLines(exited.stderr);
    expect(events).toContainEqual(
      expect.objectContaining({ event: 'shutdown', signal: 'SIGTERM', inFlight: 1 }),
    );
    expect(events).toContainEqual(expect.objectContaining({ event: 'stopped', cancelled: 1 }));
    expect(events).toContainEqual(
      expect.objectContaining({ event: 'session_end', reason: 'shutdown' }),
    );
    await expect(fetch(new URL('/healthz', url))).rejects.toThrow();
  });
});
