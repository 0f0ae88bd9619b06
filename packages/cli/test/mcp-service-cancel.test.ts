/**
 * `toolhost mcp` calls whose client went away, against the installed command: a dropped
 * HTTP connection and a closed stdin cancel the running command (its process ends), and
 * SIGTERM stops the HTTP service gracefully, cancelling what outlives the grace period.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { processesMatching, waitUntil } from '../../core/test/helpers/processes.js';
import {
  AUTH,
  health,
  INITIALIZE,
  initialize,
  jsonLines,
  mcpServicePerTest,
  post,
  SESSION_HEADERS,
  shellCall,
} from './helpers/mcp-service.js';
import { CLI } from './run-cli.js';

const service = mcpServicePerTest();

describe('toolhost mcp --http: calls whose client went away', () => {
  it('cancels a running command when its client drops the connection', {
    timeout: 60_000,
  }, async () => {
    const url = await service.start();
    const id = await initialize(url);
    const { command, marker } = service.sleepCommand();
    const dropped = new AbortController();
    const response = await post(url, shellCall(7, command), SESSION_HEADERS(id), dropped.signal);
    expect(response.status).toBe(200);
    expect(await waitUntil(() => processesMatching(marker).length > 0, 10_000)).toBe(true);
    dropped.abort();
    expect(await waitUntil(() => processesMatching(marker).length === 0, 5_000)).toBe(true);
    // The session outlives the dropped connection.
    expect((await health(url)).body.sessions).toBe(1);
  });

  it('cancels a running command when its session is deleted', { timeout: 60_000 }, async () => {
    const url = await service.start();
    const id = await initialize(url);
    const { command, marker } = service.sleepCommand();
    const response = await post(url, shellCall(3, command), SESSION_HEADERS(id));
    expect(response.status).toBe(200);
    expect(await waitUntil(() => processesMatching(marker).length > 0, 10_000)).toBe(true);
    const deleted = await fetch(url, {
      method: 'DELETE',
      headers: { ...AUTH, ...SESSION_HEADERS(id) },
    });
    expect(deleted.status).toBe(200);
    expect(await waitUntil(() => processesMatching(marker).length === 0, 5_000)).toBe(true);
    await response.body?.cancel().catch(() => undefined);
  });

  it('cancels a running command when a stdio client closes its end', {
    timeout: 60_000,
  }, async () => {
    const { command, marker } = service.sleepCommand();
    const child = spawn(CLI, ['mcp', '--root', service.dirs.root, '--approval-mode', 'yolo'], {
      cwd: service.dirs.root,
      env: { PATH: process.env.PATH, HOME: service.dirs.home },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send(INITIALIZE);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send(shellCall(2, command));
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
    const url = await service.start('--shutdown-grace', '1', '--log-json');
    const { client } = await service.connect(url);
    const { command, marker } = service.sleepCommand();
    const call = client
      .callTool({ name: 'run_shell_command', arguments: { command, is_background: false } })
      .catch((error: unknown) => error);
    expect(await waitUntil(() => processesMatching(marker).length > 0, 10_000)).toBe(true);
    service.server.child.kill('SIGTERM');
    const exited = await service.server.exited;
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

  it('on SIGTERM lets a call that ends within the grace period finish with its result', {
    timeout: 60_000,
  }, async () => {
    const url = await service.start('--shutdown-grace', '20');
    const { client } = await service.connect(url);
    const marker = `sleep 1.5${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;
    const call = client.callTool({
      name: 'run_shell_command',
      arguments: { command: `${marker} && echo finished`, is_background: false },
    });
    expect(await waitUntil(() => processesMatching(marker).length > 0, 10_000)).toBe(true);
    service.server.child.kill('SIGTERM');
    const answer = await call;
    expect(answer.isError).toBeFalsy();
    expect(JSON.stringify(answer.content)).toContain('finished');
    expect((await service.server.exited).code).toBe(0);
  });
});
