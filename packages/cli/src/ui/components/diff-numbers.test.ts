import { describe, expect, it } from 'vitest';
import { numberDiffLines } from './diff-numbers.js';

describe('numberDiffLines', () => {
  it('numbers removed lines in the old file and the others in the new one', () => {
    const rows = numberDiffLines([
      '@@ -9,4 +9,5 @@',
      ' nine',
      '-ten',
      '+TEN',
      '+ten and a half',
      ' eleven',
      '\\ No newline at end of file',
      '@@ -40 +41 @@',
      '-forty',
      '+FORTY',
    ]);
    expect(rows.map((row) => row.number)).toEqual([
      '',
      '9',
      '10',
      '10',
      '11',
      '12',
      '',
      '',
      '40',
      '41',
    ]);
  });

  it('gives no numbers to rows outside a hunk', () => {
    expect(numberDiffLines(['Index: a', 'x'])).toEqual([
      { number: '', line: 'Index: a' },
      { number: '', line: 'x' },
    ]);
  });
});
