/**
 * An MCP server's question (elicitation) in the interactive terminal: a real server,
 * written with the MCP SDK, asks while its tool runs; the person fills in a small form
 * (a required name, a number with a default, a choice, a yes/no), which is checked before
 * it is sent; Decline and Esc answer "decline" and "cancel" as the MCP spec says.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sdkServerScript } from '../../core/test/helpers/mcp-servers.js';
import { hasTmux, tmuxSkipReason } from './helpers/tmux.js';
import {
  type AppUnderTest,
  idle,
  lastToolResult,
  openApp,
  send,
  waitForMcpTool,
} from './helpers/tui-app.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const ASKING_SERVER = sdkServerScript(`
const server = new McpServer({ name: 'asking', version: '1.0.0' });
server.registerTool('register', { description: 'Registers the person' }, async () => {
  const answer = await server.server.elicitInput({
    message: 'Who is registering?',
    requestedSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Name', description: 'Your full name', minLength: 2 },
        age: { type: 'integer', title: 'Age', default: 30 },
        colour: { type: 'string', title: 'Colour', enum: ['red', 'blue'] },
        subscribe: { type: 'boolean', title: 'Subscribe' },
      },
      required: ['name'],
    },
  });
  return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
});
await server.connect(new StdioServerTransport());
`);

/** The answer the server got, as its tool reported it to the model in request `index`. */
const serverGot = (index: number): unknown => lastToolResult(app!, index);

describe.skipIf(!hasTmux)(
  `an MCP server's questions in the interactive terminal${tmuxSkipReason}`,
  { timeout: 180_000 },
  () => {
    it('asks with a form, checks it, and answers accept, decline and cancel', async () => {
      app = await openApp(
        (_request, index) =>
          index % 2 === 0
            ? { toolCalls: [{ name: 'register', args: {} }] }
            : { text: ['Registered.', 'Declined.', 'Cancelled.'][(index - 1) / 2] ?? 'Done.' },
        {
          prepare: (dirs) => {
            const script = path.join(dirs.home, 'asking.mjs');
            writeFileSync(script, ASKING_SERVER);
            mkdirSync(path.join(dirs.home, '.toolhost'), { recursive: true });
            writeFileSync(
              path.join(dirs.home, '.toolhost', 'settings.json'),
              JSON.stringify({
                mcpServers: { asking: { command: process.execPath, args: [script], trust: true } },
              }),
            );
          },
        },
      );
      const { terminal } = app;
      await waitForMcpTool(terminal);

      send(terminal, 'register me');
      let form = await terminal.waitFor('Who is registering?');
      expect(form).toContain('MCP server "asking" asks:');
      expect(form).toMatch(/› Name \*\s/);
      expect(form).toMatch(/Age\s+30/);
      expect(form).toMatch(/Colour\s+‹ choose with ←→ ›/);
      expect(form).toContain('Your full name');
      // Submit with the required name left empty: the form says so and stays.
      terminal.press('Tab', 'Tab', 'Tab', 'Tab', 'Enter');
      form = await terminal.waitFor('(required)');
      expect(form).toMatch(/› Name \*.*\(required\)/);
      // Too short for the server's schema (minLength 2): said, not sent.
      terminal.type('A');
      terminal.press('Tab', 'Tab', 'Tab', 'Tab', 'Enter');
      await terminal.waitFor(/name.*2/i);
      terminal.press('BTab', 'BTab', 'BTab', 'BTab');
      terminal.type('da');
      terminal.press('Tab', 'Tab', 'Right', 'Right', 'Tab', 'Space');
      form = await terminal.waitFor('[x] yes');
      expect(form).toMatch(/Name \*\s+Ada/);
      expect(form).toMatch(/Colour\s+‹ blue ›/);
      terminal.press('Tab', 'Enter');
      await terminal.waitFor('Registered.');
      await idle(terminal);
      expect(serverGot(1)).toEqual({
        action: 'accept',
        content: { name: 'Ada', age: 30, colour: 'blue', subscribe: true },
      });

      // Decline (↑ from the first field wraps to it): the server hears "decline".
      send(terminal, 'register me again');
      await terminal.waitFor('Who is registering?');
      terminal.press('Up', 'Enter');
      await terminal.waitFor('Declined.');
      await idle(terminal);
      expect(serverGot(3)).toEqual({ action: 'decline' });

      // Esc dismisses the form: "cancel"; the turn goes on to the model's answer.
      send(terminal, 'once more');
      await terminal.waitFor('Who is registering?');
      terminal.press('Escape');
      await terminal.waitFor('Cancelled.');
      expect(serverGot(5)).toEqual({ action: 'cancel' });
    });
  },
);
