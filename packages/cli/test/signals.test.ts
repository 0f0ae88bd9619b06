/**
 * No orphans on any signal: TERM, HUP (and INT for `toolhost mcp`) sent to the real
 * `toolhost` process end the command's whole tree, grandchildren included, before it exits.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  killMatching,
  processesRunning,
  uniqueSleep,
  waitUntil,
} from '../../core/test/helpers/processes.js';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { CLI, startCli } from './run-cli.js';

// Starting toolhost on a loaded machine can take many seconds; the test waits for events.
vi.setConfig({ testTimeout: 200_000 });

// The tests share one project folder and tell their processes apart by unique sleep
// arguments.
let dirs: TempDirs;
let root: string;
const startedProcesses: ChildProcess[] = [];
const markers: string[] = [];

beforeAll(() => {
  dirs = makeTempDirs({ rootName: 'project' });
  ({ root } = dirs);
});
afterAll(() => {
  for (const child of startedProcesses) child.kill('SIGKILL');
  // Never leave a test's sleepers behind, even when an assertion failed.
  for (const marker of markers) killMatching(marker);
  dirs.cleanup();
});

const env = () => ({
  PATH: process.env.PATH ?? '',
  HOME: dirs.home,
  TOOLHOST_SYSTEM_SETTINGS_PATH: path.join(dirs.home, 'no-system-settings.json'),
});

/**
 * A command whose children, grandchildren and a process whose parent already exited
 * (re-parented, still in the group) sleep with unique arguments.
 */
function treeCommand(): { command: string; sleeps: string[] } {
  const [child, grandchild, orphan] = [uniqueSleep(), uniqueSleep(), uniqueSleep()];
  const sleeps = [`sleep ${child}`, `sleep ${grandchild}`, `sleep ${orphan}`];
  markers.push(...sleeps);
  return {
    command: `(sleep ${orphan} &); sleep ${child} & bash -c 'sleep ${grandchild} & wait' & wait`,
    sleeps,
  };
}

const allRunning = (sleeps: string[]) =>
  sleeps.every((marker) => processesRunning(marker).length > 0);
const noneRunning = (sleeps: string[]) =>
  sleeps.every((marker) => processesRunning(marker).length === 0);

function exited(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

describe('toolhost call stopped by a signal', () => {
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    it(`${signal}: every process of the running command is gone before toolhost exits`, async () => {
      const { command, sleeps } = treeCommand();
      const cli = startCli(
        ['call', 'run_shell_command', JSON.stringify({ command, is_background: false }), '--yes'],
        { cwd: root, home: dirs.home },
      );
      startedProcesses.push(cli.child);
      // The tree must really be there, or "all gone" would prove nothing.
      expect(await waitUntil(() => allRunning(sleeps), 90_000)).toBe(true);
      cli.child.kill(signal);
      const result = await exited(cli.child);
      // Checked right at toolhost's exit: nothing is left to be cleaned up later.
      expect(noneRunning(sleeps)).toBe(true);
      expect({ ...result, stderr: cli.stderr() }).toMatchObject({ code, signal: null });
    });
  }
});

describe('toolhost mcp stopped by a signal', () => {
  for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) {
    it(`${signal} while a tool call runs: its process tree is gone when toolhost exits`, async () => {
      const { command, sleeps } = treeCommand();
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', '--root', root, '--approval-mode', 'yolo'],
        env: env(),
        stderr: 'pipe',
      });
      const client = new Client({ name: 'signals-test', version: '1.0.0' });
      await client.connect(transport);
      const pid = transport.pid;
      expect(pid).toBeGreaterThan(0);
      const call = client
        .callTool({ name: 'run_shell_command', arguments: { command, is_background: false } })
        .catch(() => undefined);
      try {
        expect(await waitUntil(() => allRunning(sleeps), 90_000)).toBe(true);
        const gone = new Promise<number | null>((resolve) => {
          transport.onclose = () => resolve(null);
        });
        process.kill(pid!, signal);
        await gone;
        expect(await waitUntil(() => !isAlive(pid!), 10_000)).toBe(true);
        expect(noneRunning(sleeps)).toBe(true);
      } finally {
        await client.close().catch(() => undefined);
        void call;
      }
    });
  }
});

function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
