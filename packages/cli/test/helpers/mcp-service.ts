/**
 * A `toolhost mcp --http` service started per test (the installed command, 127.0.0.1, a
 * known token, approval mode yolo) and the raw and SDK clients the service tests use.
 * Everything a test started (the service, clients, sleep commands) ends after it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, expect } from 'vitest';
import { killMatching, uniqueSleep, waitUntil } from '../../../core/test/helpers/processes.js';
import { makeTempDirs, type TempDirs } from '../../../core/test/helpers/temp-workspace.js';
import { initializeRequest } from '../../scripts/mcp-opening.mjs';
import { type RunningCli, startCli } from '../run-cli.js';

export const TOKEN = 'service-token';
export const AUTH = { authorization: `Bearer ${TOKEN}` };
const MCP_HEADERS = {
  ...AUTH,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};
export const SESSION_HEADERS = (id: string) => ({
  'mcp-session-id': id,
  'mcp-protocol-version': '2025-06-18',
});

export interface McpService {
  readonly dirs: TempDirs;
  /** The running service (its stderr, its process). */
  readonly server: RunningCli;
  /** Starts the service with more flags; returns its /mcp address. */
  start(...flags: string[]): Promise<string>;
  connect(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }>;
  /** A `sleep` command unique to this test, killed after it whatever happens. */
  sleepCommand(): { command: string; marker: string };
}

/** Registers the beforeEach/afterEach of a service test file; call it at the top level. */
export function mcpServicePerTest(): McpService {
  let dirs: TempDirs | undefined;
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
    dirs?.cleanup();
  });
  return {
    get dirs() {
      if (!dirs) throw new Error('mcpServicePerTest: the folders exist only inside a test');
      return dirs;
    },
    get server() {
      if (!server) throw new Error('mcpServicePerTest: start the service first');
      return server;
    },
    async start(...flags) {
      const { root, home } = this.dirs;
      const running = startCli(
        [
          'mcp',
          '--root',
          root,
          '--http',
          '0',
          '--token',
          TOKEN,
          '--approval-mode',
          'yolo',
          ...flags,
        ],
        { cwd: root, home },
      );
      server = running;
      expect(await waitUntil(() => /serving on/.test(running.stderr()), 20_000)).toBe(true);
      return /serving on (\S+)/.exec(running.stderr())![1]!;
    },
    async connect(url) {
      const client = new Client({ name: 'service-client', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: AUTH },
      });
      await client.connect(transport);
      clients.push(client);
      return { client, transport };
    },
    sleepCommand() {
      const seconds = uniqueSleep();
      sleeps.push(`sleep ${seconds}`);
      return { command: `sleep ${seconds}`, marker: `sleep ${seconds}` };
    },
  };
}

export function post(
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

export const INITIALIZE = initializeRequest('raw-client', '1.0.0');

/** A tools/call request running `command` in the foreground. */
export function shellCall(id: number, command: string) {
  return {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'run_shell_command', arguments: { command, is_background: false } },
  };
}

/** A session opened by hand (initialize + initialized); returns its id. */
export async function initialize(url: string): Promise<string> {
  const response = await post(url, INITIALIZE);
  expect(response.status).toBe(200);
  await response.text();
  const id = response.headers.get('mcp-session-id')!;
  const ready = await post(
    url,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    SESSION_HEADERS(id),
  );
  expect(ready.status).toBe(202);
  return id;
}

export async function health(
  url: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(new URL('/healthz', url));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The JSON lines of a --log-json stderr. */
export function jsonLines(text: string): Record<string, unknown>[] {
  return text.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    return [JSON.parse(line) as Record<string, unknown>];
  });
}

/** Waits until the service counts `count` live sessions; false if it still does not after `ms`. */
export async function sessionsReach(url: string, count: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if ((await health(url)).body.sessions === count) return true;
    if (Date.now() > deadline) return false;
    await new Promise((wake) => setTimeout(wake, 100));
  }
}
