/**
 * The empty prompt folders (.claude, .gemini, .qwen, .toolhost) the sandbox makes in the
 * project root to keep them read-only while a command runs are gone after every way
 * `toolhost` can end, with real bwrap: killed with SIGKILL mid-command, stopped by
 * SIGTERM, and ended normally while a background command it kept runs on.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandboxStatus } from '@toolhost/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROMPT_FOLDER_ROOTS } from '../../core/src/config/prompt-folders.js';
import {
  killMatching,
  processesMatching,
  uniqueSleep,
  waitUntil,
} from '../../core/test/helpers/processes.js';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { runCli, startCli } from './run-cli.js';

const status = sandboxStatus('allow');
if (!status.available) console.warn(`mount point tests skipped: ${status.reason}`);
/** .claude, .gemini, .qwen and .toolhost: the loaders' own list. */
const PROMPT_FOLDERS = [...PROMPT_FOLDER_ROOTS].sort();

let dirs: TempDirs;
const sleeps: string[] = [];
beforeEach(() => {
  dirs = makeTempDirs({ rootName: 'project' });
  mkdirSync(path.join(dirs.home, '.toolhost'), { recursive: true });
  writeFileSync(
    path.join(dirs.home, '.toolhost', 'settings.json'),
    JSON.stringify({ tools: { shell: { sandbox: 'on', keepBackgroundProcesses: true } } }),
  );
});
afterEach(() => {
  for (const marker of sleeps.splice(0)) killMatching(marker);
  dirs.cleanup();
});

const leftBehind = () => readdirSync(dirs.root).filter((name) => PROMPT_FOLDERS.includes(name));

/** `toolhost call` running `command` in the sandbox; resolves once the command has started. */
async function started(command: string, background = false) {
  const seconds = uniqueSleep();
  sleeps.push(`sleep ${seconds}`);
  const running = startCli(
    [
      'call',
      'run_shell_command',
      JSON.stringify({
        command: `touch started; ${command.replace('SLEEP', `sleep ${seconds}`)}`,
        is_background: background,
      }),
      '--yes',
    ],
    { cwd: dirs.root, home: dirs.home },
  );
  expect(await waitUntil(() => existsSync(path.join(dirs.root, 'started')), 20_000)).toBe(true);
  // While it runs, the folders are there and keep what it tries to plant out.
  expect(leftBehind().sort()).toEqual(PROMPT_FOLDERS);
  return { running, marker: `sleep ${seconds}` };
}

describe.skipIf(!status.available)('no empty prompt folders left in the project', () => {
  it('when toolhost is killed with SIGKILL mid-command', { timeout: 60_000 }, async () => {
    const { running, marker } = await started('SLEEP; touch late');
    running.child.kill('SIGKILL');
    await running.exited;
    expect(await waitUntil(() => leftBehind().length === 0, 15_000)).toBe(true);
    // The command died with it, before it could go on.
    expect(await waitUntil(() => processesMatching(marker).length === 0, 10_000)).toBe(true);
    expect(existsSync(path.join(dirs.root, 'late'))).toBe(false);
    expect(readdirSync(dirs.root)).toEqual(['started']);
  });

  it('when toolhost is stopped by SIGTERM mid-command', { timeout: 60_000 }, async () => {
    const { running } = await started('SLEEP');
    running.child.kill('SIGTERM');
    await running.exited;
    expect(await waitUntil(() => leftBehind().length === 0, 15_000)).toBe(true);
  });

  it('when a background command it kept outlives it, once that command ends', {
    timeout: 60_000,
  }, async () => {
    const { running } = await started('sleep 3; mkdir -p .claude/commands; touch ended', true);
    const done = await running.exited;
    expect(done.code).toBe(0);
    expect(await waitUntil(() => existsSync(path.join(dirs.root, 'ended')), 20_000)).toBe(true);
    expect(await waitUntil(() => leftBehind().length === 0, 15_000)).toBe(true);
    expect(readdirSync(dirs.root).sort()).toEqual(['ended', 'started']);
    // A later command makes and gives back its own.
    const later = runCli(['call', 'run_shell_command', '{"command":"true"}', '--yes'], {
      cwd: dirs.root,
      home: dirs.home,
    });
    expect(later.code).toBe(0);
    expect(leftBehind()).toEqual([]);
  });
});
