/**
 * `toolhost mcp --http` as a service for many clients, against the installed command on
 * 127.0.0.1: the protocol's answers for ended sessions, bad JSON and oversized bodies; the
 * health endpoint; human tool titles and unknown-tool errors with one prefix in the SDK's
 * client; another server's progress with its total; the session cap and idle expiry; a
 * session's background commands ended with it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { EVERYTHING } from '../../core/test/helpers/mcp-servers.js';
import { processesMatching, waitUntil } from '../../core/test/helpers/processes.js';
import {
  AUTH,
  health,
  initialize,
  jsonLines,
  mcpServicePerTest,
  post,
  SESSION_HEADERS,
} from './helpers/mcp-service.js';

const service = mcpServicePerTest();

describe('toolhost mcp --http: protocol answers a client can act on', () => {
  it('404 for an ended session, -32700 for bad JSON, 413 for a body over 16 MiB, and health', {
    timeout: 60_000,
  }, async () => {
    const url = await service.start();
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
    const url = await service.start();
    const { client } = await service.connect(url);
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
    mkdirSync(path.join(service.dirs.home, '.toolhost'));
    writeFileSync(
      path.join(service.dirs.home, '.toolhost', 'settings.json'),
      JSON.stringify({
        mcpServers: {
          everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], trust: true },
        },
      }),
    );
    const url = await service.start();
    const { client } = await service.connect(url);
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
  it('makes room at --max-sessions by ending the least recently used, and frees idle ones', {
    timeout: 60_000,
  }, async () => {
    const url = await service.start(
      '--max-sessions',
      '2',
      '--session-idle-timeout',
      '2',
      '--log-json',
    );
    const first = await initialize(url);
    await initialize(url);
    await initialize(url);
    expect((await health(url)).body.sessions).toBe(2);
    const evicted = await post(
      url,
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      SESSION_HEADERS(first),
    );
    expect(evicted.status).toBe(404);

    // Idle for longer than the timeout: both end, and their places are free again.
    expect(
      await waitUntil(
        () => /"reason":"idle"[\s\S]*"reason":"idle"/.test(service.server.stderr()),
        10_000,
      ),
    ).toBe(true);
    expect((await health(url)).body.sessions).toBe(0);
    await initialize(url);

    const events = jsonLines(service.server.stderr());
    expect(events.filter((e) => e.event === 'session_start')).toHaveLength(4);
    expect(events.filter((e) => e.event === 'session_end' && e.reason === 'idle')).toHaveLength(2);
    expect(events).toContainEqual(
      expect.objectContaining({ event: 'session_end', session: first, reason: 'evicted' }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ event: 'refused', status: 404, reason: 'unknown session' }),
    );
  });

  it("ends a session's background commands when the session ends, not another's", {
    timeout: 60_000,
  }, async () => {
    const url = await service.start();
    const a = await service.connect(url);
    const b = await service.connect(url);
    const mine = service.sleepCommand();
    const theirs = service.sleepCommand();
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
