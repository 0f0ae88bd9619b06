/**
 * The confirmation prompt, as a person meets it: `toolhost call` runs in a real terminal
 * (tmux, on a private socket), and the test reads the screen and types the answer.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { CLI } from './run-cli.js';

const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let dirs: TempDirs;
let root: string;
let socket: string;
const tmux = (...args: string[]) =>
  execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const screen = () => tmux('capture-pane', '-p', '-t', 'cli', '-S', '-100');

async function waitFor(text: string | RegExp, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const shown = screen();
    if (typeof text === 'string' ? shown.includes(text) : text.test(shown)) return shown;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${String(text)}; screen:\n${shown}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function startCall(args: string) {
  const command = `cd ${root} && HOME=${dirs.home} NO_COLOR=1 ${process.execPath} ${CLI} ${args}; echo "EXIT=$?"; sleep 60`;
  tmux('new-session', '-d', '-s', 'cli', '-x', '160', '-y', '50', command);
}

beforeEach(() => {
  dirs = makeTempDirs();
  ({ root } = dirs);
  socket = `toolhost-test-${process.pid}-${Date.now()}`;
});
afterEach(() => {
  if (hasTmux) {
    try {
      tmux('kill-server');
    } catch {
      // already gone
    }
  }
  dirs.cleanup();
});

const skipReason = hasTmux ? '' : ' (skipped: tmux is not installed; CI installs it)';

describe.skipIf(!hasTmux)(`toolhost call in a terminal${skipReason}`, () => {
  it('shows the diff, asks, and writes after "yes, once"', async () => {
    const file = path.join(root, 'greeting.txt');
    startCall(`call write_file '${JSON.stringify({ file_path: file, content: 'hello\n' })}'`);
    const shown = await waitFor('Choose 1-');
    expect(shown).toContain('Create greeting.txt?');
    expect(shown).toContain('+hello');
    expect(shown).toContain('1. Yes\n');
    expect(shown).toContain('Change it in my editor first');
    // One call is the whole session: nothing could keep an "always" answer.
    expect(shown).not.toContain('always');
    tmux('send-keys', '-t', 'cli', '1', 'Enter');
    const after = await waitFor('EXIT=0');
    expect(readFileSync(file, 'utf8')).toBe('hello\n');
    // The diff was in the question; the result only confirms it.
    expect(after.split('+hello').length - 1).toBe(1);
    expect(after).toContain('greeting.txt  +1 -0  written as shown above');
  });

  it("shows a running command's output once, then only what is new", async () => {
    const command = 'for i in 1 2 3; do echo "step $i"; sleep 1.1; done; echo done';
    startCall(
      `call run_shell_command '${JSON.stringify({ command, is_background: false })}' --yes`,
    );
    // The machine may be busy; the point is what is shown, not how fast.
    const shown = await waitFor('EXIT=0', 60_000);
    const lines = shown.split('\n').map((line) => line.trimEnd());
    for (const line of ['step 1', 'step 2', 'step 3', 'done'])
      expect(lines.filter((shownLine) => shownLine === line)).toHaveLength(1);
    expect(shown).toContain('[4 lines shown above]');
  }, 90_000);

  it('writes nothing and exits 3 when the person says no, re-asking after a bad answer', async () => {
    const file = path.join(root, 'nope.txt');
    startCall(`call write_file '${JSON.stringify({ file_path: file, content: 'x' })}'`);
    const shown = await waitFor('Choose 1-');
    const noChoice = /(\d)\. No/.exec(shown)?.[1];
    expect(noChoice).toMatch(/^\d$/);
    tmux('send-keys', '-t', 'cli', 'maybe', 'Enter');
    await waitFor('Please type a number');
    tmux('send-keys', '-t', 'cli', noChoice!, 'Enter');
    const after = await waitFor('EXIT=3');
    expect(existsSync(file)).toBe(false);
    // The person is told what happened, not the text written for the model.
    expect(after).toContain('toolhost: declined; write_file did not run.');
    expect(after).not.toContain('The person declined');
  });
});
