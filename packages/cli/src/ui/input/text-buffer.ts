/**
 * The prompt's text and cursor, and every editing step on them, as plain values: each
 * operation takes a buffer and returns a new one. The cursor is an offset into the text
 * (UTF-16 units, never inside a surrogate pair); lines are separated by "\n" only.
 */

export interface TextBuffer {
  readonly text: string;
  readonly cursor: number;
}

export const EMPTY_BUFFER: TextBuffer = { text: '', cursor: 0 };

export function bufferOf(text: string, cursor = text.length): TextBuffer {
  return { text, cursor: clamp(cursor, 0, text.length) };
}

/** Pasted or typed text with Windows and old Mac line ends made "\n", tabs kept. */
export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

export function insertText(buffer: TextBuffer, inserted: string): TextBuffer {
  const text = normalizeNewlines(inserted);
  return {
    text: buffer.text.slice(0, buffer.cursor) + text + buffer.text.slice(buffer.cursor),
    cursor: buffer.cursor + text.length,
  };
}

export function backspace(buffer: TextBuffer): TextBuffer {
  if (buffer.cursor === 0) return buffer;
  return removeRange(buffer, previousCharStart(buffer.text, buffer.cursor), buffer.cursor);
}

export function deleteForward(buffer: TextBuffer): TextBuffer {
  if (buffer.cursor >= buffer.text.length) return buffer;
  return removeRange(buffer, buffer.cursor, nextCharEnd(buffer.text, buffer.cursor));
}

export function moveLeft(buffer: TextBuffer): TextBuffer {
  return { ...buffer, cursor: previousCharStart(buffer.text, buffer.cursor) };
}

export function moveRight(buffer: TextBuffer): TextBuffer {
  return { ...buffer, cursor: nextCharEnd(buffer.text, buffer.cursor) };
}

export function moveToLineStart(buffer: TextBuffer): TextBuffer {
  return { ...buffer, cursor: lineStartOf(buffer.text, buffer.cursor) };
}

export function moveToLineEnd(buffer: TextBuffer): TextBuffer {
  return { ...buffer, cursor: lineEndOf(buffer.text, buffer.cursor) };
}

export function moveToStart(buffer: TextBuffer): TextBuffer {
  return { ...buffer, cursor: 0 };
}

export function moveToEnd(buffer: TextBuffer): TextBuffer {
  return { ...buffer, cursor: buffer.text.length };
}

/** One line up, keeping the column where the line is long enough; null on the first line. */
export function moveUp(buffer: TextBuffer): TextBuffer | null {
  const start = lineStartOf(buffer.text, buffer.cursor);
  if (start === 0) return null;
  const column = buffer.cursor - start;
  const previousStart = lineStartOf(buffer.text, start - 1);
  return { ...buffer, cursor: Math.min(previousStart + column, start - 1) };
}

/** One line down, keeping the column where the line is long enough; null on the last line. */
export function moveDown(buffer: TextBuffer): TextBuffer | null {
  const end = lineEndOf(buffer.text, buffer.cursor);
  if (end >= buffer.text.length) return null;
  const column = buffer.cursor - lineStartOf(buffer.text, buffer.cursor);
  const nextStart = end + 1;
  return { ...buffer, cursor: Math.min(nextStart + column, lineEndOf(buffer.text, nextStart)) };
}

export function moveWordLeft(buffer: TextBuffer): TextBuffer {
  return { ...buffer, cursor: wordStartBefore(buffer.text, buffer.cursor) };
}

export function moveWordRight(buffer: TextBuffer): TextBuffer {
  return { ...buffer, cursor: wordEndAfter(buffer.text, buffer.cursor) };
}

/** Ctrl+W, Alt+Backspace: the word before the cursor (and the spaces after it). */
export function deleteWordBefore(buffer: TextBuffer): TextBuffer {
  return removeRange(buffer, wordStartBefore(buffer.text, buffer.cursor), buffer.cursor);
}

/** Alt+D: from the cursor to the end of the next word. */
export function deleteWordAfter(buffer: TextBuffer): TextBuffer {
  return removeRange(buffer, buffer.cursor, wordEndAfter(buffer.text, buffer.cursor));
}

/** Ctrl+K: to the end of the line, or the line break itself at the end of a line. */
export function killToLineEnd(buffer: TextBuffer): TextBuffer {
  const end = lineEndOf(buffer.text, buffer.cursor);
  if (end === buffer.cursor && end < buffer.text.length) {
    return removeRange(buffer, end, end + 1);
  }
  return removeRange(buffer, buffer.cursor, end);
}

/** Ctrl+U: from the start of the line to the cursor. */
export function killToLineStart(buffer: TextBuffer): TextBuffer {
  return removeRange(buffer, lineStartOf(buffer.text, buffer.cursor), buffer.cursor);
}

/** The line and column (both from 0) of the cursor. */
export function cursorPosition(buffer: TextBuffer): { line: number; column: number } {
  const before = buffer.text.slice(0, buffer.cursor);
  const line = countNewlines(before);
  return { line, column: buffer.cursor - lineStartOf(buffer.text, buffer.cursor) };
}

export function isOnFirstLine(buffer: TextBuffer): boolean {
  return lineStartOf(buffer.text, buffer.cursor) === 0;
}

export function isOnLastLine(buffer: TextBuffer): boolean {
  return lineEndOf(buffer.text, buffer.cursor) === buffer.text.length;
}

/** Replaces `[start, end)` with `text`, the cursor after it. */
export function replaceRange(
  buffer: TextBuffer,
  start: number,
  end: number,
  text: string,
): TextBuffer {
  return {
    text: buffer.text.slice(0, start) + text + buffer.text.slice(end),
    cursor: start + text.length,
  };
}

function removeRange(buffer: TextBuffer, start: number, end: number): TextBuffer {
  if (start >= end) return buffer;
  const cursor =
    buffer.cursor <= start
      ? buffer.cursor
      : buffer.cursor >= end
        ? buffer.cursor - (end - start)
        : start;
  return { text: buffer.text.slice(0, start) + buffer.text.slice(end), cursor };
}

function lineStartOf(text: string, offset: number): number {
  return offset === 0 ? 0 : text.lastIndexOf('\n', offset - 1) + 1;
}

function lineEndOf(text: string, offset: number): number {
  const end = text.indexOf('\n', offset);
  return end === -1 ? text.length : end;
}

function countNewlines(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
    count += 1;
  }
  return count;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function previousCharStart(text: string, offset: number): number {
  if (offset <= 0) return 0;
  const step = offset >= 2 && isLowSurrogate(text.charCodeAt(offset - 1)) ? 2 : 1;
  return offset - step;
}

function nextCharEnd(text: string, offset: number): number {
  if (offset >= text.length) return text.length;
  const step = isLowSurrogate(text.charCodeAt(offset + 1)) ? 2 : 1;
  return Math.min(offset + step, text.length);
}

const WORD = /[\p{L}\p{N}_]/u;

function isWordChar(text: string, offset: number): boolean {
  return WORD.test(text[offset] ?? '');
}

function wordStartBefore(text: string, offset: number): number {
  let index = offset;
  while (index > 0 && !isWordChar(text, index - 1)) index -= 1;
  while (index > 0 && isWordChar(text, index - 1)) index -= 1;
  return index;
}

function wordEndAfter(text: string, offset: number): number {
  let index = offset;
  while (index < text.length && !isWordChar(text, index)) index += 1;
  while (index < text.length && isWordChar(text, index)) index += 1;
  return index;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}
