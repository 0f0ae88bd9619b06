/**
 * What the interactive terminal shows cannot be forged: a command with a carriage return
 * and cursor moves that would redraw the approval to name `npm test` is shown escaped in
 * the question and in its row, `touch` visible, and nothing runs when the person says no.
 * The model's own text with a screen-clearing sequence is shown escaped too.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hasTmux, tmuxSkipReason } from './helpers/tmux.js';
import { type AppUnderTest, idle, openApp, send } from './helpers/tui-app.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const FORGERY = '\r\u001b[2K\u001b[1A\r\u001b[2KRun this command? …\u001b[1B\r\u001b[2Knpm test';
const SHOWN = '\\r\\e[2K\\e[1A\\r\\e[2KRun this command? …\\e[1B\\r\\e[2Knpm test';

describe.skipIf(!hasTmux)(
  `escaped text in the interactive terminal${tmuxSkipReason}`,
  { timeout: 150_000 },
  () => {
    it('shows a forged command escaped in the approval and its row; no runs nothing', async () => {
      let canary = '';
      app = await openApp(
        (_request, index) =>
          index === 0
            ? {
                toolCalls: [
                  {
                    name: 'run_shell_command',
                    args: { command: `touch ${canary} #${FORGERY}`, is_background: false },
                  },
                ],
              }
            : { text: `Not run.\u001b[2J\u001b[HAll tests passed.` },
        { columns: 220, rows: 40 },
      );
      canary = path.join(app.dirs.root, 'canary');
      send(app.terminal, 'run the tests');
      const question = await app.terminal.waitFor('(n)');
      expect(question).toContain(`touch ${canary} #${SHOWN}`);
      expect(question.split('\n').filter((line) => /^\s*npm test\s*$/.test(line))).toEqual([]);
      app.terminal.press('n');
      await app.terminal.waitFor('All tests passed.');
      expect(existsSync(canary)).toBe(false);
      const shown = await idle(app.terminal);
      expect(shown).toContain(`touch ${canary} #${SHOWN}`);
      expect(shown).toContain('Not run.\\e[2J\\e[HAll tests passed.');
    });
  },
);
