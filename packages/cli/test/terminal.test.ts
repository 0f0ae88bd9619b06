/**
 * The confirmation prompt, as a person meets it: `toolhost call` runs in a real terminal
 * (tmux, on a private socket), and the test reads the screen and types the answer.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { hasTmux, startToolhostInTmux, type Terminal, tmuxSkipReason } from './helpers/tmux.js';
import { runCli } from './run-cli.js';

let dirs: TempDirs;
let root: string;
/** Every terminal a test started (some start two), closed after it. */
const terminals: Terminal[] = [];

/** `toolhost call …` in a 160x50 terminal; resolves with the screen (scrollback too) once it exits. */
function startCall(args: string[]): Terminal {
  const terminal = startToolhostInTmux(['call', ...args], {
    cwd: root,
    home: dirs.home,
    env: { NO_COLOR: '1' },
    columns: 160,
    rows: 50,
  });
  terminals.push(terminal);
  return terminal;
}

async function exited(shown: Terminal, timeoutMs?: number) {
  const code = await shown.waitForExit(timeoutMs);
  return { code, screen: shown.scrollback() };
}

beforeEach(() => {
  dirs = makeTempDirs();
  ({ root } = dirs);
});
afterEach(() => {
  for (const terminal of terminals.splice(0)) terminal.close();
  dirs.cleanup();
});

describe.skipIf(!hasTmux)(`toolhost call in a terminal${tmuxSkipReason}`, () => {
  it('shows the diff, asks, and writes after "yes, once"', async () => {
    const file = path.join(root, 'greeting.txt');
    const call = startCall(['write_file', JSON.stringify({ file_path: file, content: 'hello\n' })]);
    const shown = await call.waitFor('Choose 1-');
    expect(shown).toContain('Create greeting.txt?');
    expect(shown).toContain('+hello');
    expect(shown).toContain('1. Yes (y)\n');
    expect(shown).toContain('Change it in my editor first');
    // One call is the whole session: nothing could keep an "always ... this session"
    // answer; a rule saved in settings outlives it.
    expect(shown).not.toContain('this session');
    expect(shown).toContain(`always allow Edit(/${root}/**) (saved in your settings) (u)`);
    call.press('1', 'Enter');
    const { code, screen: after } = await exited(call);
    expect(code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('hello\n');
    // The diff was in the question; the result only confirms it.
    expect(after.split('+hello').length - 1).toBe(1);
    expect(after).toContain('greeting.txt  +1 -0  written as shown above');
  });

  it("shows a running command's output once, then only what is new", async () => {
    const command = 'for i in 1 2 3; do echo "step $i"; sleep 1.1; done; echo done';
    const call = startCall([
      'run_shell_command',
      JSON.stringify({ command, is_background: false }),
      '--yes',
    ]);
    // The machine may be busy; the point is what is shown, not how fast.
    const { code, screen: shown } = await exited(call, 60_000);
    expect(code).toBe(0);
    const lines = shown.split('\n').map((line) => line.trimEnd());
    for (const line of ['step 1', 'step 2', 'step 3', 'done'])
      expect(lines.filter((shownLine) => shownLine === line)).toHaveLength(1);
    expect(shown).toContain('[4 lines shown above]');
  }, 90_000);

  it('writes nothing and exits 3 when the person says no, re-asking after a bad answer', async () => {
    const file = path.join(root, 'nope.txt');
    const call = startCall(['write_file', JSON.stringify({ file_path: file, content: 'x' })]);
    const shown = await call.waitFor('Choose 1-');
    const noChoice = /(\d)\. No/.exec(shown)?.[1];
    expect(noChoice).toMatch(/^\d$/);
    call.type('maybe');
    call.press('Enter');
    await call.waitFor('Please type a number from 1 to');
    call.type(noChoice!);
    call.press('Enter');
    const { code, screen: after } = await exited(call);
    expect(code).toBe(3);
    expect(existsSync(file)).toBe(false);
    // The person is told what happened, not the text written for the model.
    expect(after).toContain('toolhost: declined; write_file did not run.');
    expect(after).not.toContain('The person declined');
  });

  it('shows a command that tries to redraw the question escaped, touch and all', async () => {
    const canary = path.join(root, 'canary');
    // \r and cursor moves that, printed as they are, erase "touch ..." and draw a forged
    // question naming npm test in its place.
    const command = `touch ${canary} #\r\u001b[2K\u001b[1A\r\u001b[2KRun this command? …\u001b[1B\r\u001b[2Knpm test`;
    const call = startCall([
      'run_shell_command',
      JSON.stringify({ command, is_background: false }),
    ]);
    const shown = await call.waitFor('Choose 1-');
    expect(shown).toContain(
      `touch ${canary} #\\r\\e[2K\\e[1A\\r\\e[2KRun this command? …\\e[1B\\r\\e[2Knpm test`,
    );
    expect(shown.split('\n').filter((line) => line.trim() === 'npm test')).toEqual([]);
    const noChoice = /(\d)\. No/.exec(shown)?.[1];
    call.type(noChoice!);
    call.press('Enter');
    const { code } = await exited(call);
    expect(code).toBe(3);
    expect(existsSync(canary)).toBe(false);
  });

  it('takes y and n as the interactive terminal does, and yes or no spelled out', async () => {
    const file = path.join(root, 'by-key.txt');
    const call = startCall(['write_file', JSON.stringify({ file_path: file, content: 'k\n' })]);
    const shown = await call.waitFor('Choose 1-');
    expect(shown).toMatch(/Choose 1-\d or y\/u\/e\/n:/);
    call.type('y');
    call.press('Enter');
    expect((await exited(call)).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('k\n');

    const other = path.join(root, 'declined.txt');
    const second = startCall(['write_file', JSON.stringify({ file_path: other, content: 'x' })]);
    await second.waitFor('Choose 1-');
    second.type('no');
    second.press('Enter');
    expect((await exited(second)).code).toBe(3);
    expect(existsSync(other)).toBe(false);
  });

  it('saves "always allow" as a rule in the user settings, which the next run honours', async () => {
    const call = startCall([
      'run_shell_command',
      JSON.stringify({ command: 'touch first', is_background: false }),
    ]);
    const shown = await call.waitFor('Choose 1-');
    expect(shown).toContain('always allow Bash(touch:*) (saved in your settings) (u)');
    // The folder is not trusted: nothing is offered for the project's file.
    expect(shown).not.toContain('(p)');
    call.type('u');
    call.press('Enter');
    const { code, screen } = await exited(call);
    expect(code).toBe(0);
    expect(screen).toContain('Saved Bash(touch:*) to');
    expect(existsSync(path.join(root, 'first'))).toBe(true);
    const settings = JSON.parse(
      readFileSync(path.join(dirs.home, '.toolhost', 'settings.json'), 'utf8'),
    );
    expect(settings.permissions.allow).toEqual(['Bash(touch:*)']);

    // No terminal and no --yes: only the saved rule lets it run.
    const next = runCli(
      [
        'call',
        'run_shell_command',
        JSON.stringify({ command: 'touch second', is_background: false }),
      ],
      { cwd: root, home: dirs.home },
    );
    expect(next.code, next.stderr).toBe(0);
    expect(existsSync(path.join(root, 'second'))).toBe(true);
    const other = runCli(
      [
        'call',
        'run_shell_command',
        JSON.stringify({ command: 'mkdir third', is_background: false }),
      ],
      { cwd: root, home: dirs.home },
    );
    expect(other.code).toBe(3);
    expect(existsSync(path.join(root, 'third'))).toBe(false);
  });

  it('in a trusted folder, p saves the rule in the project settings, keeping its comments', async () => {
    expect(runCli(['trust'], { cwd: root, home: dirs.home }).code).toBe(0);
    const projectFile = path.join(root, '.toolhost', 'settings.json');
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(path.dirname(projectFile));
    writeFileSync(
      projectFile,
      '{\n  // the team\'s settings\n  "tools": { "approvalMode": "default" }\n}\n',
    );
    const call = startCall([
      'run_shell_command',
      JSON.stringify({ command: 'mkdir made', is_background: false }),
    ]);
    const shown = await call.waitFor('Choose 1-');
    expect(shown).toContain('always allow Bash(mkdir:*) in this project');
    call.type('p');
    call.press('Enter');
    expect((await exited(call)).code).toBe(0);
    const text = readFileSync(projectFile, 'utf8');
    expect(text).toContain("// the team's settings");
    expect(text).toContain('"Bash(mkdir:*)"');
    expect(existsSync(path.join(dirs.home, '.toolhost', 'settings.json'))).toBe(false);
    const next = runCli(
      [
        'call',
        'run_shell_command',
        JSON.stringify({ command: 'mkdir again', is_background: false }),
      ],
      { cwd: root, home: dirs.home },
    );
    expect(next.code, next.stderr).toBe(0);
  });
});
