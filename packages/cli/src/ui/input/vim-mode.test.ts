import { describe, expect, it } from 'vitest';
import type { EditorKey } from './key-decoder.js';
import { bufferOf, type TextBuffer } from './text-buffer.js';
import { VimMode } from './vim-mode.js';

const key = (text: string): EditorKey =>
  text === 'Esc'
    ? { name: 'escape', text: '', ctrl: false, meta: false, shift: false }
    : { name: 'text', text, ctrl: false, meta: false, shift: false };

/** Plays keys (insert-mode letters typed as text) and returns the buffer and mode. */
function play(start: TextBuffer, keys: string[]): { buffer: TextBuffer; mode: string } {
  const vim = new VimMode();
  let buffer = start;
  for (const name of keys) {
    const outcome = vim.handle(key(name), buffer);
    if (outcome === 'pass')
      buffer = {
        text: buffer.text.slice(0, buffer.cursor) + name + buffer.text.slice(buffer.cursor),
        cursor: buffer.cursor + name.length,
      };
    else if (outcome !== 'taken') buffer = outcome.buffer;
  }
  return { buffer, mode: vim.mode };
}

describe('VimMode', () => {
  it('Esc goes to normal mode, where letters move instead of typing', () => {
    const { buffer, mode } = play(bufferOf('fix the bug'), ['Esc', '0', 'w', 'x']);
    expect(mode).toBe('normal');
    expect(buffer.text).toBe('fix he bug');
  });

  it('dw, cw, dd, A and I edit as in vim', () => {
    expect(play(bufferOf('one two three'), ['Esc', '0', 'd', 'w']).buffer.text).toBe('two three');
    const changed = play(bufferOf('one two'), ['Esc', '0', 'c', 'w', 'ONE']);
    expect(changed.buffer.text).toBe('ONE two');
    expect(changed.mode).toBe('insert');
    expect(play(bufferOf('a\nb\nc'), ['Esc', 'k', 'd', 'd']).buffer.text).toBe('a\nc');
    expect(play(bufferOf('mid'), ['Esc', 'I', '<', 'Esc', 'A', '>']).buffer.text).toBe('<mid>');
  });

  it('$, b, e, D and C move and cut to the line end', () => {
    expect(play(bufferOf('alpha beta'), ['Esc', '0', 'e', 'D']).buffer.text).toBe('alph');
    expect(play(bufferOf('alpha beta'), ['Esc', 'b', 'C', 'gamma']).buffer.text).toBe(
      'alpha gamma',
    );
    expect(play(bufferOf('alpha beta'), ['Esc', '0', '$', 'x']).buffer.text).toBe('alpha bet');
  });
});
