/**
 * The daily slash commands in a real terminal: /help lists them; /settings says where each
 * setting comes from; /context what fills the window; /copy puts the last answer on the
 * clipboard (OSC 52, which tmux keeps, and a clipboard program); /export writes the
 * conversation as Markdown; /diff shows what this session changed in the files.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { settledValue } from '../../core/test/helpers/processes.js';
import { hasTmux, tmuxSkipReason } from './helpers/tmux.js';
import { type AppUnderTest, idle, openApp, send, whenTakingKeys } from './helpers/tui-app.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** The screen's rows joined, so a wrapped line reads whole. */
const flat = (screen: string) => screen.replace(/\n(?=\S)/g, ' ').replace(/\s+/g, ' ');

const ANSWER = 'Use `npm test -- --watch` to rerun the tests on each change.';

describe.skipIf(!hasTmux)(`daily slash commands${tmuxSkipReason}`, { timeout: 150_000 }, () => {
  it('/help lists every daily command', async () => {
    app = await openApp([], { columns: 120, rows: 60 });
    await whenTakingKeys(app.terminal);
    send(app.terminal, '/help');
    const shown = await app.terminal.waitFor('**Keys**'.replace(/\*/g, ''), { scrollback: true });
    for (const name of ['settings', 'context', 'copy', 'export', 'diff', 'theme', 'vim', 'resume'])
      expect(shown, `/${name} is not listed`).toMatch(new RegExp(`/${name}\\b.*: `));
  });

  it('/settings shows each setting with the layer it comes from, secrets masked', async () => {
    app = await openApp([], {
      columns: 120,
      rows: 50,
      prepare: (dirs) => {
        mkdirSync(path.join(dirs.home, '.toolhost'), { recursive: true });
        writeFileSync(
          path.join(dirs.home, '.toolhost', 'settings.json'),
          JSON.stringify({ model: { maxRetries: 2 }, files: { defaultEncoding: 'utf-8' } }),
        );
        mkdirSync(path.join(dirs.root, '.toolhost'), { recursive: true });
        writeFileSync(
          path.join(dirs.root, '.toolhost', 'settings.json'),
          JSON.stringify({ files: { defaultEncoding: 'utf-8-bom' } }),
        );
      },
    });
    await whenTakingKeys(app.terminal);
    send(app.terminal, '/settings');
    const shown = flat(await app.terminal.waitFor('Everything not listed'));
    expect(shown).toMatch(/model\.maxRetries = 2 · user \(.*\.toolhost\/settings\.json\)/);
    expect(shown).toMatch(/files\.defaultEncoding = "utf-8-bom" · project \(.*ws\/\.toolhost/);
    expect(shown).toMatch(/model\.name = "scripted-model" · environment/);
    expect(shown).toMatch(/model\.apiKey = •+ · environment/);
    expect(shown).not.toContain('"test"');
  });

  it('/context shows the parts of the context window with their tokens', async () => {
    app = await openApp([{ text: 'Noted.', usage: { prompt_tokens: 900, completion_tokens: 5 } }], {
      columns: 100,
      rows: 40,
      prepare: (dirs) =>
        writeFileSync(path.join(dirs.root, 'AGENTS.md'), 'Always answer briefly.\n'),
    });
    await whenTakingKeys(app.terminal);
    send(app.terminal, 'remember this');
    await app.terminal.waitFor('Noted.');
    await idle(app.terminal);
    send(app.terminal, '/context');
    const shown = flat(await app.terminal.waitFor('Counts are estimates'));
    expect(shown).toMatch(/Context window [\d,]+ of [\d,]+ tokens used \([\d.]+%\), [\d,]+ free/);
    expect(shown).toMatch(/System prompt: [1-9][\d,]* tokens/);
    expect(shown).toMatch(/Memory: [1-9][\d,]* tokens .*AGENTS\.md/);
    expect(shown).toMatch(/Tools: [1-9][\d,]* tokens \([\d.]+%\) · \d+ declarations/);
    expect(shown).toMatch(/Messages: [1-9][\d,]* tokens \([\d.]+%\) · 2 messages/);
  });

  it('/copy puts the last answer on the clipboard: OSC 52 and a clipboard program', async () => {
    let copied = '';
    app = await openApp([{ text: ANSWER }], {
      columns: 100,
      rows: 30,
      env: { DISPLAY: ':99' },
      prepare: (dirs) => {
        // A clipboard program as xclip is called: it keeps what it reads.
        const bin = path.join(dirs.home, 'bin');
        mkdirSync(bin, { recursive: true });
        copied = path.join(dirs.home, 'copied.txt');
        writeFileSync(path.join(bin, 'xclip'), `#!/bin/sh\ncat > '${copied}'\n`);
        chmodSync(path.join(bin, 'xclip'), 0o755);
      },
    });
    app.restart([], {
      DISPLAY: ':99',
      PATH: `${path.join(app.dirs.home, 'bin')}:${process.env.PATH}`,
    });
    await idle(app.terminal);
    await whenTakingKeys(app.terminal);
    send(app.terminal, 'how do I watch tests?');
    await app.terminal.waitFor('on each change.');
    await idle(app.terminal);
    send(app.terminal, '/copy');
    const shown = flat(await app.terminal.waitFor(/Copied the last answer/));
    expect(shown).toMatch(/through the terminal \(OSC 52\) and xclip/);
    expect(app.terminal.clipboard()).toBe(ANSWER);
    // The clipboard program may still be writing when the screen says so.
    expect(await settledValue(() => readFileSync(copied, 'utf8'), ANSWER)).toBe(ANSWER);
  });

  it('/export writes the conversation as Markdown', async () => {
    app = await openApp([{ text: ANSWER }], { columns: 100, rows: 30 });
    await whenTakingKeys(app.terminal);
    send(app.terminal, 'how do I watch tests?');
    await app.terminal.waitFor('on each change.');
    await idle(app.terminal);
    send(app.terminal, '/export notes/chat.md');
    await app.terminal.waitFor(/Could not write|Exported/);
    mkdirSync(path.join(app.dirs.root, 'notes'));
    send(app.terminal, '/export notes/chat.md');
    const shown = flat(await app.terminal.waitFor(/Exported 2 messages/));
    expect(shown).toContain('notes/chat.md');
    const markdown = readFileSync(path.join(app.dirs.root, 'notes', 'chat.md'), 'utf8');
    expect(markdown).toMatch(/^# toolhost session [0-9a-f-]{36}/);
    expect(markdown).toContain('## You\n\nhow do I watch tests?');
    expect(markdown).toContain(`## Assistant\n\n${ANSWER}`);
  });

  it('/diff shows what this session changed in the files', async () => {
    let file = '';
    app = await openApp(
      (_request, index) =>
        index === 0
          ? {
              toolCalls: [
                {
                  name: 'edit',
                  args: { file_path: file, old_string: 'port = 3000', new_string: 'port = 8080' },
                },
              ],
            }
          : { text: 'Changed the port.' },
      { args: ['--approval-mode', 'yolo'], columns: 100, rows: 40 },
    );
    file = path.join(app.dirs.root, 'server.js');
    writeFileSync(file, 'const host = "localhost";\nconst port = 3000;\n');
    await whenTakingKeys(app.terminal);
    send(app.terminal, '/diff');
    await app.terminal.waitFor('This session has changed no files yet.');
    send(app.terminal, 'use port 8080');
    await app.terminal.waitFor('Changed the port.');
    await idle(app.terminal);
    send(app.terminal, '/diff');
    const shown = await app.terminal.waitFor(/This session changed 1 file/);
    expect(shown).toMatch(/server\.js changed \(\+1 -1\)/);
    expect(shown).toContain('-const port = 3000;');
    expect(shown).toContain('+const port = 8080;');
  });
});
