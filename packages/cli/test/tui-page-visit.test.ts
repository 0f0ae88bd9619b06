/**
 * An MCP server asks the person to visit a page (elicitation, URL mode) in the interactive
 * terminal: a real server, written with the MCP SDK, asks while its tool runs; the person
 * sees the server, its message, the whole link and its host; "open it" runs the system's
 * opener (a stand-in on PATH records what it was given), the server hears "accept" and its
 * completion notice is shown; Esc answers "cancel". The model never sees the link.
 * `toolhost call` on a terminal asks the same question on its standard error.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sdkServerScript } from '../../core/test/helpers/mcp-servers.js';
import { settledValue } from '../../core/test/helpers/processes.js';
import { makeTempDirs } from '../../core/test/helpers/temp-workspace.js';
import { hasTmux, startToolhostInTmux, type Terminal, tmuxSkipReason } from './helpers/tmux.js';
import {
  type AppUnderTest,
  idle,
  lastToolResult,
  openApp,
  send,
  waitForMcpTool,
} from './helpers/tui-app.js';

let app: AppUnderTest | undefined;
let call: Terminal | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  call?.close();
  call = undefined;
});

/** The server in the user's settings of `home`, started by toolhost as a trusted server. */
function configureServer(home: string): void {
  const script = path.join(home, 'visiting.mjs');
  writeFileSync(script, VISITING_SERVER);
  mkdirSync(path.join(home, '.toolhost'), { recursive: true });
  writeFileSync(
    path.join(home, '.toolhost', 'settings.json'),
    JSON.stringify({
      mcpServers: { visiting: { command: process.execPath, args: [script], trust: true } },
    }),
  );
}

const LINK = 'https://login.example.com/link?code=42';

const VISITING_SERVER = sdkServerScript(`
const server = new McpServer({ name: 'visiting', version: '1.0.0' });
server.registerTool('link_account', { description: 'Links an account' }, async () => {
  const answer = await server.server.elicitInput({
    mode: 'url',
    message: 'Sign in to Example to link your account.',
    url: ${JSON.stringify(LINK)},
    elicitationId: 'visit-1',
  });
  if (answer.action === 'accept') await server.server.createElicitationCompletionNotifier('visit-1')();
  return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
});
await server.connect(new StdioServerTransport());
`);

/** The answer the server got, as its tool reported it to the model in request `index`. */
const serverGot = (index: number): unknown => lastToolResult(app!, index);

describe.skipIf(!hasTmux)(
  `an MCP server's page visits in the interactive terminal${tmuxSkipReason}`,
  { timeout: 180_000 },
  () => {
    it('shows the server, the link and its host; opens it only when asked; accept and cancel reach the server', async () => {
      // The system's opener, standing in: it records the page it was asked to open.
      const bin = mkdtempSync(path.join(os.tmpdir(), 'toolhost-opener-'));
      const opened = path.join(bin, 'opened.txt');
      writeFileSync(
        path.join(bin, 'xdg-open'),
        `#!/bin/sh\nprintf '%s' "$1" > ${JSON.stringify(opened)}\n`,
      );
      chmodSync(path.join(bin, 'xdg-open'), 0o755);
      try {
        app = await openApp(
          (_request, index) =>
            index % 2 === 0
              ? { toolCalls: [{ name: 'link_account', args: {} }] }
              : { text: ['Linked.', 'Not linked.'][(index - 1) / 2] ?? 'Done.' },
          {
            prepare: (dirs) => configureServer(dirs.home),
            env: { PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, DISPLAY: ':99' },
          },
        );
        const { terminal } = app;
        await waitForMcpTool(terminal);

        send(terminal, 'link my account');
        const question = await terminal.waitFor('Sign in to Example to link your account.');
        expect(question).toContain('MCP server "visiting" asks you to visit a page');
        expect(question).toContain(LINK);
        expect(question).toMatch(/It leads to login\.example\.com\./);
        expect(question).toMatch(/1\. I will open it myself \(y\)/);
        expect(question).toMatch(/2\. Open it in my browser now \(o\)/);
        // Shown, not opened.
        expect(existsSync(opened)).toBe(false);
        terminal.type('o');
        await terminal.waitFor('Linked.');
        const done = await terminal.waitFor('reports the step on login.example.com is done');
        expect(done).toContain(
          'MCP server "visiting" reports the step on login.example.com is done.',
        );
        await idle(terminal);
        // The browser opener runs on its own; wait for what it writes.
        expect(await settledValue(() => readFileSync(opened, 'utf8'), LINK)).toBe(LINK);
        expect(serverGot(1)).toEqual({ action: 'accept' });
        // The model saw the server's answer, never the link.
        expect(JSON.stringify(app.server.requests.map((r) => r.body.messages))).not.toContain(
          'login.example.com',
        );

        // Esc dismisses it: the server hears "cancel" and the turn goes on.
        send(terminal, 'try again');
        await terminal.waitFor(/Sign in to Example[\s\S]*Esc dismisses it/);
        terminal.press('Escape');
        await terminal.waitFor('Not linked.');
        expect(serverGot(3)).toEqual({ action: 'cancel' });
      } finally {
        rmSync(bin, { recursive: true, force: true });
      }
    });

    it('toolhost call on a terminal asks the same way; no opener is offered where there is none', async () => {
      const dirs = makeTempDirs();
      try {
        configureServer(dirs.home);
        call = startToolhostInTmux(['call', 'link_account', '{}'], {
          cwd: dirs.root,
          home: dirs.home,
          env: { NO_COLOR: '1' },
          columns: 160,
          rows: 40,
        });
        const question = await call.waitFor('Will you open it?');
        expect(question).toContain('MCP server "visiting" asks you to visit a page');
        expect(question).toContain('Sign in to Example to link your account.');
        expect(question).toContain(LINK);
        expect(question).toContain('It leads to login.example.com.');
        // No graphical session here: only "I will open it" and "no".
        expect(question).toContain('y = yes, I will open it; n = no:');
        call.type('y');
        call.press('Enter');
        expect(await call.waitForExit()).toBe(0);
        const screen = call.scrollback();
        expect(screen).toContain('{"action":"accept"}');
        expect(screen).toContain(
          'toolhost: MCP server "visiting" reports the step on login.example.com is done.',
        );
      } finally {
        dirs.cleanup();
      }
    });
  },
);
