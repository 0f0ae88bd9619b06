/**
 * The interactive app in tmux against the scripted model server, in temporary folders:
 * what every tmux test of the app starts from. `close()` ends the terminal, the server and
 * the folders.
 */
import { expect } from 'vitest';
import {
  type ModelServer,
  type Script,
  startModelServer,
} from '../../../core/test/helpers/model-server.js';
import { makeTempDirs, type TempDirs } from '../../../core/test/helpers/temp-workspace.js';
import { startToolhostInTmux, type Terminal } from './tmux.js';

export interface AppUnderTest {
  terminal: Terminal;
  server: ModelServer;
  dirs: TempDirs;
  /** Starts the command again in the same folders (after a quit), e.g. with `-c`. */
  restart(args: string[], env?: Record<string, string>): Terminal;
  close(): Promise<void>;
}

export interface AppOptions {
  args?: string[];
  columns?: number;
  rows?: number;
  env?: Record<string, string>;
  /** Runs before the command starts (settings, files in the project or the home folder). */
  prepare?: (dirs: TempDirs) => void;
}

export function modelEnv(baseUrl: string): Record<string, string> {
  return { OPENAI_BASE_URL: baseUrl, OPENAI_MODEL: 'scripted-model', OPENAI_API_KEY: 'test' };
}

/** Starts the app and waits until it is ready for a prompt. */
export async function openApp(script: Script, options: AppOptions = {}): Promise<AppUnderTest> {
  const dirs = makeTempDirs();
  options.prepare?.(dirs);
  const server = await startModelServer(script);
  const start = (args: string[], env: Record<string, string> = {}) =>
    startToolhostInTmux(args, {
      cwd: dirs.root,
      home: dirs.home,
      env: { ...modelEnv(server.baseUrl), ...options.env, ...env },
      columns: options.columns ?? 100,
      rows: options.rows ?? 30,
    });
  const app: AppUnderTest = {
    terminal: start(options.args ?? []),
    server,
    dirs,
    restart(args, env) {
      app.terminal.close();
      app.terminal = start(args, env);
      return app.terminal;
    },
    async close() {
      app.terminal.close();
      await server.close();
      dirs.cleanup();
    },
  };
  try {
    await app.terminal.waitFor(/\(shift\+tab\)|shift\+tab|Ask anything/);
    // The first prompt typed must reach the app, not the terminal's own line editing (the
    // probe looks for the boxed prompt's "> ", which screen-reader mode does not draw).
    if (!options.args?.includes('--screen-reader')) await whenTakingKeys(app.terminal);
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}

/** Types a prompt and sends it. */
export function send(terminal: Terminal, prompt: string): void {
  terminal.type(prompt);
  terminal.press('Enter');
}

/** Waits until the turn has ended (the prompt is idle again). */
export function idle(terminal: Terminal): Promise<string> {
  return terminal.waitFor('Ask anything');
}

/** Waits until `/mcp` lists the configured server's tool (servers connect in the background). */
export async function waitForMcpTool(terminal: Terminal): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    send(terminal, '/mcp');
    try {
      await terminal.waitFor(/1 tool:/, { timeoutMs: 3000 });
      return;
    } catch (error) {
      if (attempt >= 15) throw error;
    }
  }
}

/** The last tool result the model was sent in request `index`, parsed as JSON. */
export function lastToolResult(app: AppUnderTest, index: number): unknown {
  const messages = app.server.requests[index]?.body.messages ?? [];
  const tool = messages.findLast((message) => message.role === 'tool');
  return JSON.parse(String(tool?.content ?? 'null'));
}

/** The message the model received for its call, in request `index` (its next one). */
export function toolMessage(app: AppUnderTest, index: number): string {
  const messages = app.server.requests[index]?.body.messages ?? [];
  return String(messages.find((message) => message.role === 'tool')?.content ?? '');
}

/**
 * Past sessions for /resume: each prompt answered in a session of its own, quit with
 * Ctrl+D, the app started again after each.
 */
export async function pastSessions(app: AppUnderTest, prompts: string[]): Promise<void> {
  for (const prompt of prompts) {
    await whenTakingKeys(app.terminal);
    send(app.terminal, prompt);
    await app.terminal.waitFor(/Reply \d\./);
    await idle(app.terminal);
    app.terminal.press('C-d');
    expect(await app.terminal.waitForExit()).toBe(0);
    app.restart([]);
    await idle(app.terminal);
  }
}

/**
 * Waits until the prompt takes keys: keys typed while the app is still starting reach the
 * terminal's line editing, where Enter arrives as a new line. A probe character typed after
 * `text` (what the prompt holds) must show in the prompt, and is then taken back.
 */
export async function whenTakingKeys(terminal: Terminal, text = ''): Promise<void> {
  terminal.type('§');
  await terminal.waitFor(`> ${text}§`);
  terminal.press('BSpace');
  await terminal.waitForGone(`${text}§`);
}
