/**
 * A whole turn as the README shows it: thinking, the todo list, a read, and an edit asked
 * about in place with its diff, then approved. With TOOLHOST_SCREENSHOT=<file.svg> set
 * (`npm run screenshot`), the screen at the question is saved as that SVG image.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { screenToSvg } from './helpers/ansi-svg.js';
import { hasTmux, tmuxSkipReason } from './helpers/tmux.js';
import { type AppUnderTest, idle, openApp, send } from './helpers/tui-app.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const CONFIG = "export const config = {\n  host: 'localhost',\n  port: 3000,\n};\n";

describe.skipIf(!hasTmux)(
  `a turn in the interactive terminal${tmuxSkipReason}`,
  { timeout: 150_000 },
  () => {
    it('shows thinking, the todo list, the calls and the diff to approve', async () => {
      let file = '';
      const todos = (first: string, second: string) => [
        { id: '1', content: 'Read the current config', status: first },
        { id: '2', content: 'Make the port configurable', status: second },
        { id: '3', content: 'Explain how to set it', status: 'pending' },
      ];
      app = await openApp(
        (_request, index) => {
          if (index === 0)
            return {
              reasoning: 'The port is hard-coded in config.js; read it first, then change it.',
              text: "I'll read the config and make the port configurable.",
              toolCalls: [
                { name: 'todo_write', args: { todos: todos('in_progress', 'pending') } },
                { name: 'read_file', args: { absolute_path: file } },
              ],
              usage: { prompt_tokens: 5200, completion_tokens: 120 },
            };
          if (index === 1)
            return {
              toolCalls: [
                { name: 'todo_write', args: { todos: todos('completed', 'in_progress') } },
                {
                  name: 'edit',
                  args: {
                    file_path: file,
                    old_string: '  port: 3000,',
                    new_string: '  port: Number(process.env.PORT ?? 3000),',
                  },
                },
              ],
              usage: { prompt_tokens: 5900, completion_tokens: 90 },
            };
          return {
            text: 'Done: the port now comes from **`PORT`**, with `3000` as the default.\n\n```sh\nPORT=8080 npm start\n```',
            usage: { prompt_tokens: 6300, completion_tokens: 60 },
          };
        },
        { columns: 100, rows: 44 },
      );
      file = path.join(app.dirs.root, 'config.js');
      writeFileSync(file, CONFIG);
      send(app.terminal, 'make the port configurable with an environment variable');
      const question = await app.terminal.waitFor('(y)');
      expect(question).toMatch(/\[x\] Read the current config/);
      expect(question).toMatch(/\[~\] Make the port configurable/);
      expect(question).toMatch(/✓ Read config\.js/);
      expect(question).toContain('-  port: 3000,');
      expect(question).toContain('+  port: Number(process.env.PORT ?? 3000),');
      // Thinking folded to one line, once.
      expect(app.terminal.scrollback().match(/Thought for/g)).toHaveLength(1);
      const target = process.env.TOOLHOST_SCREENSHOT;
      if (target)
        writeFileSync(
          target,
          screenToSvg(
            app.terminal.screenWithColors(),
            'toolhost in a terminal: an edit asked about in place with its diff',
          ),
        );
      app.terminal.press('y');
      await app.terminal.waitFor('PORT=8080 npm start');
      await idle(app.terminal);
      expect(readFileSync(file, 'utf8')).toContain('Number(process.env.PORT ?? 3000)');
    });
  },
);
