/**
 * Hooks in the interactive terminal: `/hooks` lists what this session runs, a question to
 * the person fires the Notification hooks, /clear ends the session and starts another, and
 * quitting fires SessionEnd.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { quote } from 'shell-quote';
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../../core/test/helpers/processes.js';
import { FIXTURES } from '../../core/test/helpers/temp-workspace.js';
import { hasTmux, tmuxSkipReason } from './helpers/tmux.js';
import { type AppUnderTest, idle, openApp, send } from './helpers/tui-app.js';

const HOOKS = path.join(FIXTURES, 'hooks');

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const events = (log: string) => {
  try {
    return readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  } catch {
    return [];
  }
};

describe.skipIf(!hasTmux)(
  `hooks in the interactive terminal${tmuxSkipReason}`,
  { timeout: 120_000 },
  () => {
    it('/hooks lists them; an approval fires Notification; /clear and quitting fire the session hooks', async () => {
      let log = '';
      app = await openApp(
        (_request, index) =>
          index === 0
            ? {
                toolCalls: [
                  {
                    name: 'run_shell_command',
                    args: { command: 'touch made-by-model', is_background: false },
                  },
                ],
              }
            : { text: 'All right, not touching it.' },
        {
          prepare: (dirs) => {
            log = path.join(dirs.base, 'events.log');
            const logHook = {
              type: 'command',
              command: quote(['sh', path.join(HOOKS, 'log-input.sh'), log]),
              timeout: 5,
            };
            mkdirSync(path.join(dirs.home, '.toolhost'), { recursive: true });
            writeFileSync(
              path.join(dirs.home, '.toolhost', 'settings.json'),
              JSON.stringify({
                hooks: {
                  PreToolUse: [{ matcher: 'Bash', hooks: [{ ...logHook, name: 'audit shell' }] }],
                  Notification: [{ hooks: [logHook] }],
                  SessionStart: [{ hooks: [logHook] }],
                  SessionEnd: [{ hooks: [logHook] }],
                },
              }),
            );
          },
        },
      );
      send(app.terminal, '/hooks');
      const listed = await app.terminal.waitFor('SessionEnd');
      expect(listed).toContain('SessionStart');
      expect(listed).toContain('PreToolUse');
      expect(listed).toContain('"audit shell" matcher Bash');
      expect(listed).toContain('log-input.sh');
      expect(listed).toContain('timeout 5 s');

      send(app.terminal, 'make a file');
      await app.terminal.waitFor(/Run this command/);
      expect(
        await waitUntil(() => events(log).some((e) => e.hook_event_name === 'Notification')),
      ).toBe(true);
      // The prompt's Enter came just before the question: its answers show after a pause.
      await app.terminal.waitFor('(n)');
      app.terminal.type('n');
      await app.terminal.waitFor('not touching it');
      await idle(app.terminal);
      send(app.terminal, '/clear');
      const starts = () => events(log).filter((e) => e.hook_event_name === 'SessionStart');
      expect(await waitUntil(() => starts().length === 2)).toBe(true);
      app.terminal.press('C-d');
      expect(await app.terminal.waitForExit()).toBe(0);
      const seen = events(log);
      expect(seen.map((e) => [e.hook_event_name, e.source ?? e.reason])).toEqual([
        ['SessionStart', 'startup'],
        ['PreToolUse', undefined],
        ['Notification', undefined],
        ['SessionEnd', 'clear'],
        ['SessionStart', 'clear'],
        ['SessionEnd', 'prompt_input_exit'],
      ]);
      expect(seen[2]).toMatchObject({ notification_type: 'permission_prompt' });
      expect(String(seen[2]!.message)).toContain('run_shell_command');
    });
  },
);
