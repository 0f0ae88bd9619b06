/**
 * `toolhost call` as a running process: Ctrl+C (SIGINT) ends the call's whole process tree
 * and exits 130, and background commands end when the command exits unless settings keep
 * them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  killMatching,
  processesMatching,
  uniqueSleep,
  waitUntil,
} from '../../core/test/helpers/processes.js';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { runCli, startCli } from './run-cli.js';

let dirs: TempDirs;
const markers: string[] = [];
const newMarker = () => {
  const marker = uniqueSleep();
  markers.push(marker);
  return marker;
};
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => {
  for (const marker of markers.splice(0)) killMatching(marker);
  dirs.cleanup();
});

const shellArgs = (command: string, background = false) => [
  'call',
  'run_shell_command',
  JSON.stringify({ command, is_background: background }),
  '--yes',
];

/** The command's own processes: the `toolhost` command line holds the marker too. */
// The command's own processes, not toolhost or the sandbox (bwrap) whose arguments name it.
const commandProcesses = (marker: string) =>
  processesMatching(`sleep ${marker}`).filter(
    (line) => !line.includes('run_shell_command') && !line.includes('bwrap'),
  );

function writeUserSettings(settings: unknown) {
  mkdirSync(path.join(dirs.home, '.toolhost'), { recursive: true });
  writeFileSync(path.join(dirs.home, '.toolhost', 'settings.json'), JSON.stringify(settings));
}

/** Generous: on a loaded machine the command alone can take many seconds to start. */
const SLOW = { timeout: 90_000 };

describe('toolhost call: interrupted', () => {
  it('exits 130 on Ctrl+C and ends the whole process tree of the command', SLOW, async () => {
    const marker = newMarker();
    const cli = startCli(shellArgs(`echo started; (sleep ${marker} &); sleep ${marker}`), {
      cwd: dirs.root,
      home: dirs.home,
    });
    try {
      // Live output shows the command runs; then both sleeps must be there before Ctrl+C.
      expect(await waitUntil(() => cli.stderr().includes('started'), 60_000)).toBe(true);
      expect(await waitUntil(() => commandProcesses(marker).length === 2)).toBe(true);
      cli.child.kill('SIGINT');
      const { code, stderr } = await cli.exited;
      expect(code).toBe(130);
      expect(stderr).toContain('toolhost: cancelled; run_shell_command did not finish.');
    } finally {
      cli.child.kill('SIGKILL');
    }
    expect(await waitUntil(() => commandProcesses(marker).length === 0)).toBe(true);
  });
});

describe('toolhost call: background commands', () => {
  // In the sandbox, bwrap also ends with toolhost; without it only toolhost's own ending of
  // its background commands does (the case that shows that ending works).
  for (const sandbox of ['default', 'off'] as const) {
    it(`ends them when the command exits (sandbox ${sandbox})`, SLOW, async () => {
      const marker = newMarker();
      if (sandbox === 'off') writeUserSettings({ tools: { shell: { sandbox: 'off' } } });
      const { code, stdout } = runCli(shellArgs(`sleep ${marker}`, true), {
        cwd: dirs.root,
        home: dirs.home,
        timeoutMs: 60_000,
      });
      expect(code).toBe(0);
      expect(stdout).toMatch(/Started PID \d+ in the background/);
      expect(await waitUntil(() => processesMatching(`sleep ${marker}`).length === 0)).toBe(true);
    });
  }

  it('keeps them when tools.shell.keepBackgroundProcesses is true', SLOW, async () => {
    const marker = newMarker();
    writeUserSettings({ tools: { shell: { keepBackgroundProcesses: true } } });
    const { code } = runCli(shellArgs(`sleep ${marker}`, true), {
      cwd: dirs.root,
      home: dirs.home,
      timeoutMs: 60_000,
    });
    expect(code).toBe(0);
    // toolhost has exited; on a loaded machine the sandbox may still be starting the
    // command, so wait for it to show up rather than look once.
    expect(await waitUntil(() => commandProcesses(marker).length === 1, 30_000)).toBe(true);
  });
});
