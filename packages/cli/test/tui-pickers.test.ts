/**
 * Commands that change how the terminal works, in a real terminal: /theme picks a theme
 * from a list (arrows, Enter), recolours the screen and remembers it; /vim edits the
 * prompt in normal and insert modes; /resume lists the project's sessions with their dates
 * and first prompts and continues the one chosen.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { settledValue } from '../../core/test/helpers/processes.js';
import { hasTmux, tmuxSkipReason } from './helpers/tmux.js';
import {
  type AppUnderTest,
  idle,
  openApp,
  pastSessions,
  send,
  whenTakingKeys,
} from './helpers/tui-app.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** SGR colour codes of a coloured capture (30-37, 90-97), as numbers. */
const colours = (screen: string) =>
  new Set(
    [...screen.matchAll(/\u001b\[([\d;]*)m/g)].flatMap((m) => (m[1] ?? '').split(';').map(Number)),
  );

const userSettings = (home: string) =>
  JSON.parse(readFileSync(path.join(home, '.toolhost', 'settings.json'), 'utf8'));

describe.skipIf(!hasTmux)(`pickers and modes${tmuxSkipReason}`, { timeout: 150_000 }, () => {
  it('/theme picks light from a list, recolours the screen and remembers it', async () => {
    app = await openApp([], { columns: 100, rows: 30 });
    await whenTakingKeys(app.terminal);
    expect(colours(app.terminal.screenWithColors()).has(36)).toBe(true); // cyan: dark
    send(app.terminal, '/theme');
    const list = await app.terminal.waitFor('Enter takes');
    expect(list).toMatch(/› dark\s+Colours for a dark background/);
    expect(list).toMatch(/ {2}light\s+Colours for a light background/);
    app.terminal.press('Down');
    await app.terminal.waitFor(/› light/);
    app.terminal.press('Enter');
    await app.terminal.waitFor(/Theme light \(saved as ui\.theme/);
    await idle(app.terminal);
    const shown = colours(app.terminal.screenWithColors());
    expect(shown.has(34)).toBe(true); // blue
    expect(shown.has(36)).toBe(false);
    const light = { ui: { theme: 'light' } };
    const home = app.dirs.home;
    expect(await settledValue(() => userSettings(home), light)).toEqual(light);

    // Remembered: the next run starts in it.
    const again = app.restart([]);
    await idle(again);
    expect(colours(again.screenWithColors()).has(34)).toBe(true);
  });

  it('/vim edits the prompt in normal and insert modes; Enter sends; Esc leaves insert mode first', async () => {
    app = await openApp(
      [{ text: 'Sent.' }, { text: `slow words ${'and more '.repeat(60)}`, chunkDelayMs: 200 }],
      { columns: 100, rows: 30 },
    );
    await whenTakingKeys(app.terminal);
    send(app.terminal, '/vim');
    await app.terminal.waitFor('-- INSERT --');
    // The screen changes mode first; the setting is saved (then reported) a moment later.
    await app.terminal.waitFor('saved as general.vimMode');
    const vimOn = { general: { vimMode: true } };
    const home = app.dirs.home;
    expect(await settledValue(() => userSettings(home), vimOn)).toEqual(vimOn);
    app.terminal.type('fix teh bug now');
    await app.terminal.waitFor('fix teh bug now');
    app.terminal.press('Escape');
    await app.terminal.waitFor('-- NORMAL --');
    // 0 w: to "teh"; cw: change the word; then $ x deletes the last letter.
    app.terminal.type('0wcw');
    await app.terminal.waitFor(/> fix +bug now/);
    await app.terminal.waitFor('-- INSERT --');
    app.terminal.type('the');
    app.terminal.press('Escape');
    await app.terminal.waitFor('-- NORMAL --');
    app.terminal.type('$bD');
    await app.terminal.waitFor(/> fix the bug +│/);
    app.terminal.press('Enter');
    await app.terminal.waitFor('Sent.');
    expect(app.server.requests[0]?.body.messages.at(-1)?.content).toBe('fix the bug ');

    // While the model answers, Esc in insert mode goes to normal mode; only the next stops the turn.
    await idle(app.terminal);
    send(app.terminal, 'and slowly');
    await app.terminal.waitFor('slow words');
    app.terminal.type('q');
    await app.terminal.waitFor('-- INSERT --');
    app.terminal.press('Escape');
    await app.terminal.waitFor('-- NORMAL --');
    expect(app.terminal.screen()).not.toContain('Cancelled');
    app.terminal.press('Escape');
    await app.terminal.waitFor('Cancelled');
  });

  it('/resume lists the sessions with dates and first prompts, and continues the chosen one', async () => {
    app = await openApp((_request, index) => ({ text: `Reply ${index + 1}.` }), {
      columns: 100,
      rows: 30,
    });
    await pastSessions(app, ['plan the heron feature', 'fix the owl bug']);
    await whenTakingKeys(app.terminal);
    send(app.terminal, '/resume');
    const list = await app.terminal.waitFor('Enter takes');
    const today = new Date();
    const date = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}`;
    // Newest first, each with its date and first prompt.
    expect(list).toMatch(new RegExp(`› ${date}-\\d\\d \\d\\d:\\d\\d  fix the owl bug`));
    expect(list).toMatch(new RegExp(` {2}${date}-\\d\\d \\d\\d:\\d\\d  plan the heron feature`));
    app.terminal.press('Down');
    await app.terminal.waitFor(/› .*plan the heron feature/);
    app.terminal.press('Enter');
    const shown = await app.terminal.waitFor(/Continuing session/);
    expect(shown).toContain('> plan the heron feature');
    expect(shown).not.toContain('> fix the owl bug');
    await idle(app.terminal);
    send(app.terminal, 'and now?');
    await app.terminal.waitFor('Reply 3.');
    const sent = app.server.requests.at(-1)?.body.messages.map((m) => m.content) ?? [];
    expect(sent).toEqual(expect.arrayContaining(['plan the heron feature', 'and now?']));
    expect(sent).not.toContain('fix the owl bug');
  });
});
