/**
 * The screen's layout is exact at any width (tried at 80x24 and 120x40): the header box as
 * wide as the prompt's, a row that exactly fills the width followed by the rest of its text
 * (no blank row, no row starting with the space it broke at), one blank row before a
 * command's output, and the prompt's "> " kept when its text fills the box.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { hasTmux, tmuxSkipReason } from './helpers/tmux.js';
import { type AppUnderTest, idle, openApp, send, whenTakingKeys } from './helpers/tui-app.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** The rows from the one containing `start` to the blank row after it. */
function itemRows(screen: string, start: string): string[] {
  const rows = screen.split('\n');
  const first = rows.findIndex((row) => row.includes(start));
  expect(first, `no row shows ${start}:\n${screen}`).toBeGreaterThanOrEqual(0);
  const end = rows.findIndex(
    (row, index) => index > first && (row.trim() === '' || row.startsWith('╭')),
  );
  return rows.slice(first, end < 0 ? undefined : end);
}

describe.skipIf(!hasTmux)(`layout at any width${tmuxSkipReason}`, { timeout: 150_000 }, () => {
  for (const [columns, rows] of [
    [80, 24],
    [120, 40],
  ] as const) {
    it(`draws the header box as wide as the prompt box at ${columns}x${rows}`, async () => {
      app = await openApp([{ text: 'Done.' }], { columns, rows });
      await whenTakingKeys(app.terminal);
      // The prompt box fills the width: the header box above must too.
      const start = (await idle(app.terminal)).split('\n');
      const borders = start.filter((row) => /^╭─+╮$/.test(row));
      expect(borders.length).toBe(2);
      for (const border of borders) expect(border.length).toBe(columns);
    });

    it(`keeps "> " before typed text that fills the prompt box, and wraps it at ${columns}x${rows}`, async () => {
      app = await openApp([], { columns, rows });
      await whenTakingKeys(app.terminal);
      const inner = columns - 6;
      app.terminal.type('p'.repeat(inner));
      const typed = await app.terminal.waitFor('p'.repeat(inner));
      expect(typed).toContain(`│ > ${'p'.repeat(inner)}`);
      // Wrapped at the space after the full row: the next row starts with the word.
      app.terminal.type(' tail');
      const wrapped = (await app.terminal.waitFor('tail')).split('\n');
      const full = wrapped.findIndex((row) => row.includes(`│ > ${'p'.repeat(inner)} │`));
      expect(full).toBeGreaterThanOrEqual(0);
      expect(wrapped[full + 1]).toMatch(/^│ {3}tail/);
    });

    it(`wraps a row that exactly fills ${columns} columns without a blank or space-led row`, async () => {
      app = await openApp([{ text: 'Done.' }], { columns, rows });
      await whenTakingKeys(app.terminal);
      // A sent prompt whose first row exactly fills the width, then more words.
      const words = `${'word '.repeat(Math.floor((columns - 2) / 5))}`.slice(0, columns - 3);
      const fill = `${words}${'x'.repeat(columns - 2 - words.length)}`;
      send(app.terminal, `${fill} and the rest`);
      await app.terminal.waitFor('Done.');
      let shown = await idle(app.terminal);
      expect(itemRows(shown, fill)).toEqual([`> ${fill}`, '  and the rest']);

      // A message whose first row exactly fills the width.
      const id = 'q'.repeat(columns - 50);
      send(app.terminal, `/resume ${id}`);
      await app.terminal.waitFor(`${id}".`);
      shown = await idle(app.terminal);
      expect(itemRows(shown, `starts with "${id}"`)).toEqual([
        `✗ No saved session of this project starts with "${id}".`,
        'Type /resume to list them.',
      ]);

      // A command's output: one blank row after the command's line, not two.
      send(app.terminal, '/stats');
      await app.terminal.waitFor(/Tool calls: \d/);
      const screenRows = (await idle(app.terminal)).split('\n');
      const at = screenRows.lastIndexOf('> /stats');
      expect(screenRows.slice(at + 1, at + 3).map((row) => row.trim() === '')).toEqual([
        true,
        false,
      ]);
    });
  }
});
