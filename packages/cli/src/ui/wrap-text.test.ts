import { describe, expect, it } from 'vitest';
import { columnsOf, wrapText } from './wrap-text.js';

describe('wrapText', () => {
  it('breaks at spaces and drops the space at the break', () => {
    expect(wrapText(`${'a'.repeat(10)} bbb`, 10)).toEqual(['aaaaaaaaaa', 'bbb']);
    expect(wrapText('aaaa bbbbb ccc', 10)).toEqual(['aaaa bbbbb', 'ccc']);
  });

  it('keeps a line that fits, its indentation and its own breaks', () => {
    expect(wrapText('  code\n\nnext', 10)).toEqual(['  code', '', 'next']);
    expect(wrapText('x'.repeat(10), 10)).toEqual(['x'.repeat(10)]);
  });

  it('cuts a word longer than a row, and counts wide characters as two', () => {
    expect(wrapText(`ab ${'c'.repeat(12)}`, 5)).toEqual(['ab', 'ccccc', 'ccccc', 'cc']);
    expect(wrapText(`${'c'.repeat(10)} dd`, 5)).toEqual(['ccccc', 'ccccc', 'dd']);
    expect(columnsOf('漢字a')).toBe(5);
    expect(wrapText('漢字漢字', 5)).toEqual(['漢字', '漢字']);
  });

  it('never gives a row wider than the width', () => {
    const text =
      'The session was cut off during its last exchange; continuing from the one before.';
    for (const width of [7, 20, 33, 80])
      for (const row of wrapText(text, width)) expect(columnsOf(row)).toBeLessThanOrEqual(width);
  });
});
