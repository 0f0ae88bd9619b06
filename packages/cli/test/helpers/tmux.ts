/**
 * The command in a real terminal, as a person uses it: a tmux server on a private socket
 * runs `toolhost` in a pane of a given size; a test types keys, resizes the window and
 * reads the screen. Waits are for what the screen shows, never for time: the machine may
 * be busy, so every wait has a generous deadline and fails with the screen it last saw.
 *
 * The command runs with a clean environment (PATH, HOME, TERM, a UTF-8 locale, and what
 * the test passes): no CI variables, which would make Ink print only a final frame.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI } from '../run-cli.js';

export const hasTmux: boolean = (() => {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Why tmux tests are skipped here, for the describe title. */
export const tmuxSkipReason = hasTmux ? '' : ' (skipped: tmux is not installed; CI installs it)';

/** Deadline of a wait for the screen (a loaded machine is slow, not wrong). */
export const SCREEN_TIMEOUT_MS = 45_000;

export interface TerminalOptions {
  cwd: string;
  home: string;
  env?: Record<string, string>;
  columns?: number;
  rows?: number;
}

export interface Terminal {
  /** Keys as tmux names them: 'Enter', 'Escape', 'C-c', 'BTab' (Shift+Tab), 'Up'... */
  press(...keys: string[]): void;
  /** Keys sent together in one `send-keys` (the app reads them as one burst). */
  burst(...keys: string[]): void;
  /** Types text literally (no key names). */
  type(text: string): void;
  /** Pastes text as a terminal does (bracketed when the app asked for it; line feeds sent as CR). */
  paste(text: string): void;
  /** The visible screen as text (trailing spaces trimmed). */
  screen(): string;
  /** The whole pane, scrollback included. */
  scrollback(): string;
  /** The visible screen with colours (escape sequences), for the README's screenshot. */
  screenWithColors(): string;
  /** Waits until the screen (or scrollback) shows the text (or passes the check); resolves with that screen. */
  waitFor(
    text: string | RegExp | ((screen: string) => boolean),
    options?: { timeoutMs?: number; scrollback?: boolean },
  ): Promise<string>;
  /** Waits until the text is gone from the visible screen. */
  waitForGone(text: string | RegExp, options?: { timeoutMs?: number }): Promise<string>;
  resize(columns: number, rows: number): void;
  /** The command's exit code once it ended, else undefined. */
  exitCode(): number | undefined;
  waitForExit(timeoutMs?: number): Promise<number>;
  /** What the program last copied to the clipboard (OSC 52), as tmux holds it; '' when nothing. */
  clipboard(): string;
  /** The process id of the command (the pane's process). */
  pid(): number;
  /** Ends the tmux server and everything in it. */
  close(): void;
}

/**
 * Set before the command starts (a command that ends at once must still leave its pane):
 * the pane stays after the command ends, to read its last screen.
 */
const TMUX_CONFIG = path.join(os.tmpdir(), `toolhost-tui-tests-${process.pid}.tmux.conf`);
// set-clipboard on: a program's OSC 52 (copy to the clipboard) lands in tmux's buffer.
writeFileSync(
  TMUX_CONFIG,
  'set -g history-limit 5000\nset -wg remain-on-exit on\nset -s set-clipboard on\n',
);

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/** Starts `toolhost <args>` in a new tmux server of its own. */
export function startToolhostInTmux(args: string[], options: TerminalOptions): Terminal {
  return startInTmux([process.execPath, CLI, ...args], options);
}

/**
 * Terminals not closed yet. A test that starts two in one slot, or dies before its
 * afterEach, would leave a tmux server (kept alive by remain-on-exit) running after the
 * suite: the worker closes what is left as it exits.
 */
const openTerminals = new Set<Terminal>();
process.once('exit', () => {
  for (const terminal of openTerminals) terminal.close();
});

export function startInTmux(command: string[], options: TerminalOptions): Terminal {
  const socket = `toolhost-tui-${process.pid}-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const tmux = (...args: string[]) =>
    execFileSync('tmux', ['-L', socket, '-f', TMUX_CONFIG, ...args], { encoding: 'utf8' });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.home,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    TOOLHOST_SYSTEM_SETTINGS_PATH: path.join(options.home, 'no-system-settings.json'),
    ...options.env,
  };
  // tmux's own record of a pane's exit status can miss a command that ends at once.
  const statusFile = path.join(os.tmpdir(), `${socket}.status`);
  const line = [
    'cd',
    quote(options.cwd),
    '&&',
    'env',
    '-i',
    ...Object.entries(env).map(([key, value]) => quote(`${key}=${value}`)),
    ...command.map(quote),
    ';',
    'echo',
    '$?',
    '>',
    quote(statusFile),
  ].join(' ');
  const columns = options.columns ?? 100;
  const rows = options.rows ?? 30;
  tmux(
    'new-session',
    '-d',
    '-s',
    'app',
    '-x',
    String(columns),
    '-y',
    String(rows),
    'sh',
    '-c',
    line,
  );
  // The window keeps the size asked for (no client is attached to size it).
  tmux('set-option', '-t', 'app', 'window-size', 'manual');

  const capture = (...extra: string[]) => tmux('capture-pane', '-p', '-J', '-t', 'app', ...extra);
  const trim = (text: string) =>
    text
      .split('\n')
      .map((row) => row.trimEnd())
      .join('\n')
      .replace(/\n+$/, '\n');
  const screen = () => trim(capture());
  const scrollback = () => trim(capture('-S', '-'));
  const matches = (shown: string, text: string | RegExp | ((screen: string) => boolean)) =>
    typeof text === 'string'
      ? shown.includes(text)
      : typeof text === 'function'
        ? text(shown)
        : text.test(shown);
  const exitCode = () => {
    try {
      const text = readFileSync(statusFile, 'utf8').trim();
      return text === '' ? undefined : Number(text);
    } catch {
      return undefined;
    }
  };

  const terminal: Terminal = {
    press: (...keys) => {
      for (const key of keys) tmux('send-keys', '-t', 'app', key);
    },
    burst: (...keys) => {
      tmux('send-keys', '-t', 'app', ...keys);
    },
    type: (text) => {
      tmux('send-keys', '-t', 'app', '-l', text);
    },
    paste: (text) => {
      tmux('set-buffer', '-b', 'paste', '--', text);
      tmux('paste-buffer', '-p', '-d', '-b', 'paste', '-t', 'app');
    },
    screen,
    scrollback,
    screenWithColors: () => tmux('capture-pane', '-p', '-e', '-t', 'app'),
    async waitFor(text, waitOptions = {}) {
      const deadline = Date.now() + (waitOptions.timeoutMs ?? SCREEN_TIMEOUT_MS);
      for (;;) {
        const shown = waitOptions.scrollback ? scrollback() : screen();
        if (matches(shown, text)) return shown;
        if (Date.now() > deadline) {
          throw new Error(`timed out waiting for ${String(text)}; the screen shows:\n${shown}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async waitForGone(text, waitOptions = {}) {
      const deadline = Date.now() + (waitOptions.timeoutMs ?? SCREEN_TIMEOUT_MS);
      for (;;) {
        const shown = screen();
        if (!matches(shown, text)) return shown;
        if (Date.now() > deadline) {
          throw new Error(
            `timed out waiting for ${String(text)} to go; the screen shows:\n${shown}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    resize: (newColumns, newRows) => {
      tmux('resize-window', '-t', 'app', '-x', String(newColumns), '-y', String(newRows));
    },
    exitCode,
    async waitForExit(timeoutMs = SCREEN_TIMEOUT_MS) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const code = exitCode();
        if (code !== undefined) return code;
        if (Date.now() > deadline) {
          throw new Error(
            `timed out waiting for the command to end; the screen shows:\n${screen()}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    clipboard: () => {
      try {
        return tmux('show-buffer');
      } catch {
        return '';
      }
    },
    pid: () => Number(tmux('display-message', '-p', '-t', 'app', '#{pane_pid}').trim()),
    close: () => {
      openTerminals.delete(terminal);
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
      rmSync(statusFile, { force: true });
    },
  };
  openTerminals.add(terminal);
  return terminal;
}
