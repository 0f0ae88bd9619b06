import { describe, expect, it } from 'vitest';
import {
  backspace,
  bufferOf,
  cursorPosition,
  deleteForward,
  deleteWordBefore,
  insertText,
  killToLineEnd,
  killToLineStart,
  moveDown,
  moveLeft,
  moveRight,
  moveUp,
  moveWordLeft,
  moveWordRight,
  type TextBuffer,
} from './text-buffer.js';

/** Writes a buffer as its text with `|` at the cursor, for readable expectations. */
function show(buffer: TextBuffer | null): string {
  if (!buffer) return 'null';
  return `${buffer.text.slice(0, buffer.cursor)}|${buffer.text.slice(buffer.cursor)}`;
}

function at(marked: string): TextBuffer {
  const cursor = marked.indexOf('|');
  return bufferOf(marked.replace('|', ''), cursor);
}

describe('text buffer', () => {
  it('inserts at the cursor and turns pasted CR LF and CR into line breaks', () => {
    expect(show(insertText(at('ab|c'), 'XY'))).toBe('abXY|c');
    expect(show(insertText(at('|'), 'one\r\ntwo\rthree'))).toBe('one\ntwo\nthree|');
  });

  it('deletes backwards and forwards without splitting a surrogate pair', () => {
    expect(show(backspace(at('a😀|b')))).toBe('a|b');
    expect(show(deleteForward(at('a|😀b')))).toBe('a|b');
    expect(show(moveLeft(at('a😀|')))).toBe('a|😀');
    expect(show(moveRight(at('|😀')))).toBe('😀|');
    expect(show(backspace(at('|abc')))).toBe('|abc');
  });

  it('moves between lines keeping the column where it can', () => {
    expect(show(moveUp(at('first line\nsec|ond')))).toBe('fir|st line\nsecond');
    expect(show(moveUp(at('ab\nlonger li|ne')))).toBe('ab|\nlonger line');
    expect(show(moveDown(at('lo|ng\nx')))).toBe('long\nx|');
    expect(show(moveUp(at('on the fi|rst')))).toBe('null');
    expect(show(moveDown(at('a\nla|st')))).toBe('null');
    expect(cursorPosition(at('a\nbc\nd|e'))).toEqual({ line: 2, column: 1 });
  });

  it('moves and deletes by words', () => {
    expect(show(moveWordLeft(at('git commit -m|')))).toBe('git commit -|m');
    expect(show(moveWordLeft(at('git commit |')))).toBe('git |commit ');
    expect(show(moveWordRight(at('|  read me')))).toBe('  read| me');
    expect(show(deleteWordBefore(at('fix the bug|')))).toBe('fix the |');
    expect(show(deleteWordBefore(at('fix the  |bug')))).toBe('fix |bug');
  });

  it('kills to the ends of the line, joining lines at a line end', () => {
    expect(show(killToLineEnd(at('ab|cd\nef')))).toBe('ab|\nef');
    expect(show(killToLineEnd(at('abcd|\nef')))).toBe('abcd|ef');
    expect(show(killToLineStart(at('ab\ncd|ef')))).toBe('ab\n|ef');
  });
});
