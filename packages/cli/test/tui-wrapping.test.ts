/**
 * An answer's text at 80, 100 and 120 columns, in a real terminal: a paragraph's rows never
 * start with a blank, and a list item's further rows hang under its text, not under the
 * bullet or at the left edge.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { hasTmux, tmuxSkipReason } from './helpers/tmux.js';
import { type AppUnderTest, idle, openApp, send } from './helpers/tui-app.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const words = (count: number, word: string) => Array(count).fill(word).join(' ');
const ANSWER = [
  `Opening ${words(40, 'paragraph')} closing.`,
  '',
  `- alpha ${words(30, 'item')} end`,
  `- beta ${words(30, 'thing')} end`,
  `  - nested ${words(30, 'deep')} end`,
  `1. gamma ${words(30, 'step')} end`,
].join('\n');

/** The rows of the answer on the screen, from its first word to its last. */
function answerRows(screen: string): string[] {
  const rows = screen.split('\n');
  const first = rows.findIndex((row) => row.includes('Opening'));
  const last = rows.findIndex((row, index) => index > first && row.includes('gamma'));
  let end = last;
  while (rows[end + 1]?.trim() && !rows[end]?.includes(' end')) end++;
  return rows.slice(first, end + 1);
}

describe.skipIf(!hasTmux)(`wrapped answers${tmuxSkipReason}`, { timeout: 150_000 }, () => {
  for (const columns of [80, 100, 120]) {
    it(`at ${columns} columns: no row starts with a blank, list rows hang under their text`, async () => {
      app = await openApp([{ text: ANSWER }], { columns, rows: 60 });
      send(app.terminal, 'show me');
      await app.terminal.waitFor('gamma');
      const rows = answerRows(await idle(app.terminal));
      // Where the answer's text starts on the screen (a mark or margin may come before it).
      const margin = /^(.*?)Opening/.exec(rows[0] ?? '')?.[1]?.length ?? 0;
      let hang = 0;
      for (const full of rows) {
        const row = full.slice(margin);
        expect(full.length, full).toBeLessThanOrEqual(columns);
        if (row.trim() === '') continue;
        const item = /^(\s*)(?:[*•-]|\d+\.) /.exec(row);
        if (item) {
          hang = item[0].length;
          continue;
        }
        if (row.startsWith('Opening') || hang === 0) {
          expect(row, full).toMatch(/^\S/);
          continue;
        }
        expect(row, full).toMatch(new RegExp(`^ {${hang}}\\S`));
      }
      expect(rows.length).toBeGreaterThan(8);
    });
  }
});
