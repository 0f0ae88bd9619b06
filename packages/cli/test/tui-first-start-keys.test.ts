/**
 * The questions asked before the app opens, in a real terminal: keys typed before the
 * trust question was on screen do not answer it; its text wraps at spaces; an API key
 * typed into the setup guide is never shown. And in the app: a question in screen-reader
 * mode says which answer is selected, and an edit's diff shows line numbers.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { settledValue } from '../../core/test/helpers/processes.js';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { hasTmux, startToolhostInTmux, type Terminal, tmuxSkipReason } from './helpers/tmux.js';
import { type AppUnderTest, openApp, send } from './helpers/tui-app.js';

let dirs: TempDirs | undefined;
let terminal: Terminal | undefined;
let app: AppUnderTest | undefined;
afterEach(async () => {
  terminal?.close();
  terminal = undefined;
  dirs?.cleanup();
  dirs = undefined;
  await app?.close();
  app = undefined;
});

const QUESTION = 'Trust this folder, so that its settings apply in full? (y/n)';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A project whose settings ask for more than an untrusted folder may (a long folder name). */
function untrustedProject(): TempDirs {
  const made = makeTempDirs({ rootName: 'a-project-folder-with-a-rather-long-name-for-wrapping' });
  mkdirSync(path.join(made.root, '.toolhost'));
  writeFileSync(
    path.join(made.root, '.toolhost', 'settings.json'),
    JSON.stringify({ tools: { approvalMode: 'yolo' } }),
  );
  return made;
}

describe.skipIf(!hasTmux)(
  `questions before the app opens${tmuxSkipReason}`,
  {
    timeout: 150_000,
  },
  () => {
    it('keys typed before the trust question is shown do not answer it; it wraps at spaces', async () => {
      dirs = untrustedProject();
      terminal = startToolhostInTmux([], {
        cwd: dirs.root,
        home: dirs.home,
        env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_MODEL: 'm', OPENAI_API_KEY: 'k' },
        columns: 80,
        rows: 30,
      });
      // The person types "y" as the command starts, and a little after the first lines show.
      let typed = 0;
      while (!terminal.screen().includes('asks for more than') && typed < 300) {
        terminal.type('y');
        typed++;
        await pause(40);
      }
      for (let i = 0; i < 5; i++) {
        terminal.type('y');
        await pause(40);
      }
      const shown = await terminal.waitFor(QUESTION);
      expect(existsSync(path.join(dirs.home, '.toolhost', 'trustedFolders.json'))).toBe(false);
      // At spaces: every row of the explanation ends with a whole word of it.
      const words = new Set(
        'asks for more than a folder you have not trusted may: Until you trust its settings may only make toolhost stricter, and these are ignored. Trust this folder, so that apply in full? (y/n)'.split(
          ' ',
        ),
      );
      const rows = shown
        .split('\n')
        .filter((row) => /Until you trust|stricter|Trust this/.test(row));
      for (const row of rows) {
        const last = row.trim().split(' ').at(-1) ?? '';
        if (!last.includes('/')) expect(words, `row "${row}"`).toContain(last);
      }
      terminal.press('n');
      await terminal.waitFor('Not trusted');
      // The answer is saved a moment after the screen says so: wait for the file itself.
      const file = path.join(dirs.home, '.toolhost', 'trustedFolders.json');
      const saved = () => Object.values(JSON.parse(readFileSync(file, 'utf8')));
      expect(await settledValue(saved, ['DO_NOT_TRUST'])).toEqual(['DO_NOT_TRUST']);
    });

    it('an API key typed into the setup guide is masked, and saved', async () => {
      dirs = makeTempDirs();
      terminal = startToolhostInTmux([], { cwd: dirs.root, home: dirs.home, columns: 100 });
      await terminal.waitFor('Which API does the model speak?');
      terminal.type('1');
      terminal.press('Enter');
      await terminal.waitFor('Address of the API');
      terminal.type('http://127.0.0.1:9/v1');
      terminal.press('Enter');
      await terminal.waitFor('Model name');
      terminal.type('some-model');
      terminal.press('Enter');
      await terminal.waitFor(/Key \[\w+\]:/);
      terminal.type('sk-very-secret-value');
      await terminal.waitFor('********************');
      expect(terminal.scrollback()).not.toContain('very-secret');
      terminal.press('Enter');
      await terminal.waitFor('Saved to', { scrollback: true });
      expect(terminal.scrollback()).not.toContain('very-secret');
      const saved = readFileSync(path.join(dirs.home, '.toolhost', 'settings.json'), 'utf8');
      expect(saved).toContain('sk-very-secret-value');
    });
  },
);

describe.skipIf(!hasTmux)(`questions in the app${tmuxSkipReason}`, { timeout: 150_000 }, () => {
  it('--screen-reader says which answer is selected, in words', async () => {
    let file = '';
    app = await openApp(
      (_request, index) =>
        index === 0
          ? { toolCalls: [{ name: 'write_file', args: { file_path: file, content: 'x\n' } }] }
          : { text: 'Heard back.' },
      { args: ['--screen-reader'] },
    );
    file = path.join(app.dirs.root, 'a.txt');
    send(app.terminal, 'write a file');
    await app.terminal.waitFor(/1\. Yes, this once \(y\) \(selected\)/);
    app.terminal.press('Down');
    const moved = await app.terminal.waitFor(/2\. [^\n]*\(a\) \(selected\)/);
    expect(moved).not.toMatch(/1\. Yes, this once \(y\) \(selected\)/);
    app.terminal.press('n');
    await app.terminal.waitFor('Heard back.');
    expect(existsSync(file)).toBe(false);
  });

  it("an edit's diff shows the line numbers of the file", async () => {
    let file = '';
    app = await openApp((_request, index) =>
      index === 0
        ? {
            toolCalls: [
              {
                name: 'edit',
                args: { file_path: file, old_string: 'line 12\n', new_string: 'LINE TWELVE\n' },
              },
            ],
          }
        : { text: 'Heard back.' },
    );
    file = path.join(app.dirs.root, 'lines.txt');
    writeFileSync(file, Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`).join(''));
    send(app.terminal, 'change line 12');
    const question = await app.terminal.waitFor('(n)');
    expect(question).toMatch(/12 -line 12/);
    expect(question).toMatch(/12 \+LINE TWELVE/);
    expect(question).toMatch(/11 {2}line 11/);
    app.terminal.press('n');
    await app.terminal.waitFor('Heard back.');
  });
});
