/**
 * Control of the interactive app in a real terminal: Esc stops a turn (the running command
 * is killed, the model hears of it, the session goes on); Ctrl+D quits saving the session,
 * and `--continue` shows it again and carries on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { processesMatching, uniqueSleep, waitUntil } from '../../core/test/helpers/processes.js';
import { hasTmux, tmuxSkipReason } from './helpers/tmux.js';
import { type AppUnderTest, idle, openApp, send } from './helpers/tui-app.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const lastUserMessage = (index: number) =>
  String(
    app!.server.requests[index]?.body.messages.filter((message) => message.role === 'user').at(-1)
      ?.content ?? '',
  );

describe.skipIf(!hasTmux)(
  `control of the interactive terminal${tmuxSkipReason}`,
  { timeout: 150_000 },
  () => {
    it('Esc during a long command kills it, tells the model, and the session goes on', async () => {
      const seconds = uniqueSleep();
      app = await openApp(
        (_request, index) =>
          index === 0
            ? {
                toolCalls: [
                  {
                    name: 'run_shell_command',
                    args: {
                      command: `echo started && sleep ${seconds}`,
                      description: 'wait a while',
                      is_background: false,
                    },
                  },
                ],
              }
            : { text: `Answer number ${index + 1}.` },
        { args: ['--approval-mode', 'yolo'] },
      );
      send(app.terminal, 'run the long thing');
      // The command's own output, in the live box under its line.
      await app.terminal.waitFor(/│ started/);
      expect(await waitUntil(() => processesMatching(`sleep ${seconds}`).length > 0, 20_000)).toBe(
        true,
      );
      app.terminal.press('Escape');
      await app.terminal.waitFor('Cancelled');
      expect(
        await waitUntil(() => processesMatching(`sleep ${seconds}`).length === 0, 20_000),
      ).toBe(true);
      await idle(app.terminal);
      send(app.terminal, 'what now?');
      await app.terminal.waitFor('Answer number');
      const next = app.server.requests.at(-1)!.body.messages;
      // The cancelled call was answered, and the next prompt says the turn was cancelled.
      expect(next.some((message) => message.role === 'tool')).toBe(true);
      expect(lastUserMessage(app.server.requests.length - 1)).toMatch(
        /cancelled the previous turn/,
      );
      expect(lastUserMessage(app.server.requests.length - 1)).toContain('what now?');
    });

    it('Ctrl+D quits saving the session; --continue shows it and carries on', async () => {
      app = await openApp((_request, index) => ({ text: `Reply ${index + 1}: the sky is blue.` }));
      send(app.terminal, 'what colour is the sky?');
      await app.terminal.waitFor('Reply 1: the sky is blue.');
      await idle(app.terminal);
      app.terminal.press('C-d');
      expect(await app.terminal.waitForExit()).toBe(0);
      expect(app.terminal.scrollback()).toMatch(/toolhost -c/);

      const again = app.restart(['--continue']);
      const shown = await again.waitFor('Ask anything');
      expect(shown).toContain('what colour is the sky?');
      expect(shown).toContain('Reply 1: the sky is blue.');
      send(again, 'and the grass?');
      await again.waitFor('Reply 2');
      const messages = app.server.requests.at(-1)!.body.messages;
      expect(messages.map((message) => message.content)).toEqual(
        expect.arrayContaining(['what colour is the sky?', 'and the grass?']),
      );
    });

    it('Ctrl+C once warns, twice quits', async () => {
      app = await openApp([{ text: 'unused' }]);
      app.terminal.press('C-c');
      await app.terminal.waitFor('Press Ctrl+C again to quit.');
      app.terminal.press('C-c');
      expect(await app.terminal.waitForExit()).toBe(0);
    });
  },
);
