import { describe, expect, it } from 'vitest';
import { hangWrap } from './hang-wrap.js';
import { columnsOf } from './wrap-text.js';

const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');
const ITEM =
  '  * a bullet item whose text is long enough that it must wrap onto a second row at eighty columns wide';

describe('hangWrap', () => {
  for (const width of [40, 80, 100]) {
    it(`hangs a list item's rows under its text at ${width} columns`, () => {
      const rows = hangWrap(`${ITEM} ${'and more words '.repeat(6)}`, width).split('\n');
      expect(rows.length).toBeGreaterThan(1);
      expect(rows[0]).toMatch(/^ {2}\* a bullet/);
      for (const row of rows) expect(columnsOf(row)).toBeLessThanOrEqual(width);
      for (const row of rows.slice(1)) expect(row).toMatch(/^ {4}\S/);
    });
  }

  it('numbers hang too, and colour codes stay with their words and take no columns', () => {
    const line = `  12. \u001b[1mbold words\u001b[22m then ${'plain text '.repeat(8)}`;
    const rows = hangWrap(line, 40).split('\n');
    expect(plain(rows[0]!)).toMatch(/^ {2}12\. bold words then/);
    expect(rows[0]).toContain('\u001b[1mbold words\u001b[22m');
    for (const row of rows.slice(1)) expect(plain(row)).toMatch(/^ {6}\S/);
    for (const row of rows) expect(columnsOf(plain(row))).toBeLessThanOrEqual(40);
    expect(rows.map((row) => plain(row).trim()).join(' ')).toBe(
      plain(line).trim().replace(/ +/g, ' '),
    );
  });

  it('leaves rows that fit alone', () => {
    expect(hangWrap('short\n  * item', 80)).toBe('short\n  * item');
  });
});
