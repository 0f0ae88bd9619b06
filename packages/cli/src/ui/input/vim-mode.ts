/**
 * Vim editing for the prompt (`/vim`): insert mode types as usual, Esc goes to normal mode,
 * where letters are commands: h j k l 0 ^ $ w b e to move, x X D C dd dw cw cc to delete or
 * change, i a I A o O back to insert. Enter sends in both modes; ↑/↓ and Ctrl keys keep
 * their usual meaning. The rest of the editor never sees a key this module takes.
 */
import type { EditorKey } from './key-decoder.js';
import {
  deleteForward,
  insertText,
  moveDown,
  moveLeft,
  moveRight,
  moveToLineEnd,
  moveToLineStart,
  moveUp,
  replaceRange,
  type TextBuffer,
} from './text-buffer.js';

export type VimModeName = 'insert' | 'normal';

/** What a key did: a new buffer (`edited` when its text changed), or nothing to see. */
export type VimOutcome = { buffer: TextBuffer; edited: boolean } | 'taken' | 'pass';

const isWordChar = (char: string | undefined) => char !== undefined && /[\p{L}\p{N}_]/u.test(char);
const isSpace = (char: string | undefined) => char !== undefined && /\s/.test(char);
const kindOf = (char: string | undefined) => (isSpace(char) ? 0 : isWordChar(char) ? 1 : 2);

/** `w`: the start of the next word. */
function nextWordStart(text: string, from: number): number {
  let at = from;
  const kind = kindOf(text[at]);
  if (kind !== 0) while (at < text.length && kindOf(text[at]) === kind) at++;
  while (at < text.length && isSpace(text[at])) at++;
  return at;
}

/** `b`: the start of this word, or of the one before. */
function previousWordStart(text: string, from: number): number {
  let at = from;
  while (at > 0 && isSpace(text[at - 1])) at--;
  const kind = kindOf(text[at - 1]);
  while (at > 0 && kindOf(text[at - 1]) === kind && kind !== 0) at--;
  return at;
}

/** `e`: the last character of this word, or of the next. */
function wordEnd(text: string, from: number): number {
  let at = from + 1;
  while (at < text.length && isSpace(text[at])) at++;
  const kind = kindOf(text[at]);
  while (at + 1 < text.length && kindOf(text[at + 1]) === kind) at++;
  return Math.min(at, Math.max(0, text.length - 1));
}

function lineBounds(buffer: TextBuffer): [number, number] {
  return [moveToLineStart(buffer).cursor, moveToLineEnd(buffer).cursor];
}

/** In normal mode the cursor sits on a character, never after the line's last one. */
function onCharacter(buffer: TextBuffer): TextBuffer {
  const [start, end] = lineBounds(buffer);
  return buffer.cursor >= end && end > start ? { ...buffer, cursor: end - 1 } : buffer;
}

export class VimMode {
  mode: VimModeName = 'insert';
  /** The operator waiting for its motion (`d`, `c`). */
  private operator: string | undefined;

  handle(key: EditorKey, buffer: TextBuffer): VimOutcome {
    if (this.mode === 'insert') {
      if (key.name !== 'escape' || key.ctrl || key.meta) return 'pass';
      this.mode = 'normal';
      return { buffer: onCharacter(moveLeft(buffer)), edited: false };
    }
    if (key.name === 'escape') {
      this.operator = undefined;
      return 'taken';
    }
    if (key.name !== 'text' || key.ctrl || key.meta) return 'pass';
    // Keys typed quickly arrive together: each letter is a command, until one of them goes
    // back to insert mode, where the rest is typed.
    let current = buffer;
    let edited = false;
    let moved = false;
    const letters = [...key.text];
    for (const [index, letter] of letters.entries()) {
      // A letter before this one may have gone back to insert mode.
      if ((this.mode as VimModeName) === 'insert') {
        current = insertText(current, letters.slice(index).join(''));
        edited = true;
        break;
      }
      const outcome = this.letter(letter, current);
      if (outcome === 'taken' || outcome === 'pass') continue;
      current = outcome.buffer;
      edited ||= outcome.edited;
      moved = true;
    }
    return moved || edited ? { buffer: current, edited } : 'taken';
  }

  private letter(letter: string, buffer: TextBuffer): VimOutcome {
    const operator = this.operator;
    this.operator = undefined;
    if (operator) return this.operate(operator, letter, buffer);
    return this.command(letter, buffer);
  }

  private insert(buffer: TextBuffer, edited = false): VimOutcome {
    this.mode = 'insert';
    return { buffer, edited };
  }

  private command(letter: string, buffer: TextBuffer): VimOutcome {
    const move = (cursor: number) => ({
      buffer: onCharacter({ ...buffer, cursor }),
      edited: false,
    });
    const [start, end] = lineBounds(buffer);
    const { text, cursor } = buffer;
    switch (letter) {
      case 'h':
        return cursor > start ? move(moveLeft(buffer).cursor) : 'taken';
      case 'l':
        return move(Math.min(moveRight(buffer).cursor, Math.max(start, end - 1)));
      case '0':
        return move(start);
      case '^':
        return move(start + (text.slice(start, end).search(/\S/) + 1 || 1) - 1);
      case '$':
        return move(end);
      case 'w':
        return move(nextWordStart(text, cursor));
      case 'b':
        return move(previousWordStart(text, cursor));
      case 'e':
        return move(wordEnd(text, cursor));
      case 'j':
      case 'k': {
        const moved = letter === 'j' ? moveDown(buffer) : moveUp(buffer);
        return moved ? { buffer: onCharacter(moved), edited: false } : 'taken';
      }
      case 'x':
        return { buffer: onCharacter(deleteForward(buffer)), edited: true };
      case 'X':
        return cursor > start
          ? { buffer: replaceRange(buffer, cursor - 1, cursor, ''), edited: true }
          : 'taken';
      case 'D':
        return { buffer: onCharacter(replaceRange(buffer, cursor, end, '')), edited: true };
      case 'C':
        return this.insert(replaceRange(buffer, cursor, end, ''), true);
      case 'i':
        return this.insert(buffer);
      case 'a':
        return this.insert({ ...buffer, cursor: Math.min(cursor + 1, end) });
      case 'I':
        return this.insert({ ...buffer, cursor: start });
      case 'A':
        return this.insert({ ...buffer, cursor: end });
      case 'o':
        return this.insert(insertText({ ...buffer, cursor: end }, '\n'), true);
      case 'O':
        return this.insert(
          { text: `${text.slice(0, start)}\n${text.slice(start)}`, cursor: start },
          true,
        );
      case 'd':
      case 'c':
        this.operator = letter;
        return 'taken';
      default:
        // Letters are commands here: one without a meaning types nothing.
        return 'taken';
    }
  }

  private operate(operator: string, motion: string, buffer: TextBuffer): VimOutcome {
    const [start, end] = lineBounds(buffer);
    const { text, cursor } = buffer;
    let from: number;
    let to: number;
    if (motion === operator) {
      // dd / cc: the whole line (dd takes its line break too).
      from = start;
      to = operator === 'd' && end < text.length ? end + 1 : end;
      if (operator === 'd' && end === text.length && start > 0) from = start - 1;
    } else if (motion === 'w') {
      from = cursor;
      to = operator === 'c' ? wordEnd(text, cursor - 1) + 1 : nextWordStart(text, cursor);
    } else if (motion === 'b') {
      from = previousWordStart(text, cursor);
      to = cursor;
    } else if (motion === '$') {
      from = cursor;
      to = end;
    } else if (motion === '0') {
      from = start;
      to = cursor;
    } else {
      return 'taken';
    }
    const next = replaceRange(buffer, from, to, '');
    if (operator === 'c') return this.insert(next, true);
    return { buffer: onCharacter(next), edited: true };
  }
}
