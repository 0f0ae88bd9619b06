/**
 * Approvals in place, in a real terminal: the diff in the question and one key to answer;
 * a declined edit leaves the file alone; Shift+Tab into plan mode refuses edits, and the
 * plan from exit_plan_mode is approved in place.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hasTmux, tmuxSkipReason } from './helpers/tmux.js';
import { type AppUnderTest, idle, openApp, send, toolMessage } from './helpers/tui-app.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe.skipIf(!hasTmux)(
  `approvals in the interactive terminal${tmuxSkipReason}`,
  { timeout: 150_000 },
  () => {
    it('shows the diff and writes the file after one key (y)', async () => {
      let file = '';
      app = await openApp((_request, index) =>
        index === 0
          ? {
              toolCalls: [
                { name: 'write_file', args: { file_path: file, content: 'hello\nworld\n' } },
              ],
            }
          : { text: 'The greeting is written.' },
      );
      file = path.join(app.dirs.root, 'greeting.txt');
      send(app.terminal, 'write a greeting');
      const question = await app.terminal.waitFor('(y)');
      expect(question).toContain('+hello');
      expect(question).toContain('+world');
      expect(question).toMatch(/Yes, this once.*\(y\)/);
      expect(question).toMatch(/No.*\(n\)/);
      expect(existsSync(file)).toBe(false);
      app.terminal.press('y');
      await app.terminal.waitFor('The greeting is written.');
      expect(readFileSync(file, 'utf8')).toBe('hello\nworld\n');
      const shown = await idle(app.terminal);
      expect(shown).toMatch(/✓ Write greeting\.txt/);
      expect(shown).toContain('greeting.txt +2 -0');
    });

    it('saves "always allow" as a rule in the user settings (u), and the next call of it runs unasked', async () => {
      let first = '';
      let second = '';
      app = await openApp((_request, index) =>
        index === 0
          ? { toolCalls: [{ name: 'write_file', args: { file_path: first, content: 'one\n' } }] }
          : index === 1
            ? { toolCalls: [{ name: 'write_file', args: { file_path: second, content: 'two\n' } }] }
            : { text: 'Both are written.' },
      );
      first = path.join(app.dirs.root, 'one.txt');
      second = path.join(app.dirs.root, 'two.txt');
      send(app.terminal, 'write two files');
      const question = await app.terminal.waitFor('(u)');
      expect(question).toContain(
        `always allow Edit(/${app.dirs.root}/**) (saved in your settings)`,
      );
      app.terminal.press('u');
      await app.terminal.waitFor('Both are written.');
      expect(readFileSync(first, 'utf8')).toBe('one\n');
      expect(readFileSync(second, 'utf8')).toBe('two\n');
      const settings = JSON.parse(
        readFileSync(path.join(app.dirs.home, '.toolhost', 'settings.json'), 'utf8'),
      );
      expect(settings.permissions.allow).toEqual([`Edit(/${app.dirs.root}/**)`]);
    });

    it("opens the proposal in the person's editor (e), then writes their version (y)", async () => {
      let file = '';
      const editor = path.join(tmpdir(), `toolhost-fake-editor-${process.pid}.sh`);
      // An editor that changes the proposal as a person would: it rewrites the file it is given.
      writeFileSync(editor, '#!/bin/sh\nprintf "edited by the person\\n" > "$1"\n', {
        mode: 0o755,
      });
      app = await openApp(
        (_request, index) =>
          index === 0
            ? {
                toolCalls: [
                  { name: 'write_file', args: { file_path: file, content: 'model text\n' } },
                ],
              }
            : { text: 'Written with your change.' },
        { env: { EDITOR: editor } },
      );
      file = path.join(app.dirs.root, 'notes.txt');
      send(app.terminal, 'write notes');
      await app.terminal.waitFor('+model text');
      app.terminal.press('e');
      // Asked again, with the person's version in the diff.
      await app.terminal.waitFor('+edited by the person');
      app.terminal.press('y');
      await app.terminal.waitFor('Written with your change.');
      expect(readFileSync(file, 'utf8')).toBe('edited by the person\n');
      rmSync(editor, { force: true });
    });

    it('leaves the file alone when the person answers no (n), and the model is told', async () => {
      let file = '';
      app = await openApp((_request, index) =>
        index === 0
          ? { toolCalls: [{ name: 'write_file', args: { file_path: file, content: 'nope\n' } }] }
          : { text: 'Understood, nothing written.' },
      );
      file = path.join(app.dirs.root, 'nope.txt');
      send(app.terminal, 'write nope.txt');
      await app.terminal.waitFor('(n)');
      app.terminal.press('n');
      await app.terminal.waitFor('Understood, nothing written.');
      expect(existsSync(file)).toBe(false);
      expect(toolMessage(app!, 1)).toMatch(/declined/i);
      const shown = await idle(app.terminal);
      expect(shown).toMatch(/- Write nope\.txt/);
    });

    it('Shift+Tab cycles to plan mode, where an edit is refused without asking; the plan is approved in place', async () => {
      let file = '';
      app = await openApp((_request, index) => {
        if (index === 0)
          return { toolCalls: [{ name: 'write_file', args: { file_path: file, content: 'x\n' } }] };
        if (index === 1)
          return {
            toolCalls: [
              { name: 'exit_plan_mode', args: { plan: '1. Create **plan.txt**\n2. Fill it' } },
            ],
          };
        return { text: 'Leaving plan mode as agreed.' };
      });
      file = path.join(app.dirs.root, 'plan.txt');
      app.terminal.press('BTab');
      await app.terminal.waitFor('auto-accept edits');
      app.terminal.press('BTab');
      await app.terminal.waitFor('plan mode');
      send(app.terminal, 'make plan.txt');
      const question = await app.terminal.waitFor('Fill it');
      expect(question).toContain('plan.txt');
      // The edit before the plan was refused by plan mode, never asked about.
      expect(existsSync(file)).toBe(false);
      expect(toolMessage(app!, 1)).toMatch(/plan mode/i);
      app.terminal.press('y');
      await app.terminal.waitFor('Leaving plan mode as agreed.');
      const shown = await idle(app.terminal);
      expect(shown).toContain('ask before changes');
      // One more Shift+Tab from default goes to auto-edit: yolo is not in the cycle.
      app.terminal.press('BTab');
      await app.terminal.waitFor('auto-accept edits');
      app.terminal.press('BTab', 'BTab');
      const back = await app.terminal.waitFor('ask before changes');
      expect(back).not.toContain('yolo');
    });
  },
);
