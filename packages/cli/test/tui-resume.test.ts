/**
 * `/resume <id>` in the interactive app continues that session in its own file: what is
 * said after it, and the checkpoints taken, belong to the resumed session, and the app's
 * fresh session leaves no file behind.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listCheckpoints } from '../../core/src/agent/checkpoints/restore-checkpoint.js';
import { hasTmux, tmuxSkipReason } from './helpers/tmux.js';
import { type AppUnderTest, idle, openApp, send } from './helpers/tui-app.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe.skipIf(!hasTmux)(
  `/resume in the interactive terminal${tmuxSkipReason}`,
  {
    timeout: 150_000,
  },
  () => {
    it('continues the chosen session in its own file, checkpoints included', async () => {
      let notes = '';
      app = await openApp(
        (request, index) => {
          const last = request.body.messages.at(-1);
          if (last?.role === 'user' && String(last.content).includes('write the notes')) {
            return {
              toolCalls: [{ name: 'write_file', args: { file_path: notes, content: 'new\n' } }],
            };
          }
          return { text: `Reply ${index + 1}.` };
        },
        { args: ['--approval-mode', 'yolo'] },
      );
      const { dirs } = app;
      notes = path.join(dirs.root, 'notes.txt');
      send(app.terminal, 'remember the word heron');
      await app.terminal.waitFor('Reply 1.');
      await idle(app.terminal);
      app.terminal.press('C-d');
      expect(await app.terminal.waitForExit()).toBe(0);
      const first = /toolhost -r ([0-9a-f-]{36})/.exec(app.terminal.scrollback())?.[1] ?? '';
      expect(first).not.toBe('');

      // A fresh app: /resume the first session and go on.
      const again = app.restart(['--approval-mode', 'yolo']);
      await again.waitFor('Ask anything');
      send(again, `/resume ${first}`);
      await again.waitFor(`Continuing session ${first}`);
      await idle(again);
      send(again, 'now write the notes');
      // Request 2 was the write; request 3 answers after it.
      await again.waitFor('Reply 3.');
      await idle(again);
      again.press('C-d');
      expect(await again.waitForExit()).toBe(0);
      expect(again.scrollback()).toContain(`toolhost -r ${first}`);

      // The model saw the whole conversation; the first session's file holds the new exchange.
      const sent = app.server.requests.at(-1)?.body.messages ?? [];
      expect(sent.map((m) => m.content)).toEqual(
        expect.arrayContaining(['remember the word heron', 'now write the notes']),
      );
      const home = path.join(dirs.home, '.toolhost');
      const sessionsRoot = path.join(home, 'sessions');
      const files = readdirSync(sessionsRoot).flatMap((dir) =>
        readdirSync(path.join(sessionsRoot, dir)).map((name) => path.join(sessionsRoot, dir, name)),
      );
      expect(files.map((file) => path.basename(file))).toEqual([`${first}.jsonl`]);
      const records = readFileSync(files[0] ?? '', 'utf8');
      expect(records).toContain('now write the notes');
      expect(readFileSync(notes, 'utf8')).toBe('new\n');
      const project = { userDir: home, projectRoot: dirs.root };
      expect(listCheckpoints(project).map((c) => c.sessionId)).toEqual([first]);
    });
  },
);
