import { describe, expect, it } from 'vitest';
import { decodeSequence, KeyDecoder, PASTE_END, PASTE_START } from './key-decoder.js';

function names(sequence: string): string[] {
  return decodeSequence(sequence).map((key) => {
    const mods = `${key.ctrl ? 'C-' : ''}${key.meta ? 'M-' : ''}${key.shift ? 'S-' : ''}`;
    return `${mods}${key.name}${key.text ? `:${key.text}` : ''}`;
  });
}

describe('key decoder', () => {
  it('tells Enter, Ctrl+J, Backspace and Delete apart', () => {
    expect(names('\r')).toEqual(['return']);
    expect(names('\n')).toEqual(['linefeed']);
    expect(names('\x7f')).toEqual(['backspace']);
    expect(names('\b')).toEqual(['backspace']);
    expect(names('\x1b[3~')).toEqual(['delete']);
    expect(names('\x1b\x7f')).toEqual(['M-backspace']);
  });

  it('reads modified Enter from the terminals that send it', () => {
    expect(names('\x1b\r')).toEqual(['M-return']);
    expect(names('\x1b[13;2u')).toEqual(['S-return']); // kitty keyboard protocol
    expect(names('\x1b[27;2;13~')).toEqual(['S-return']); // xterm modifyOtherKeys
  });

  it('reads arrows, words and line keys in their common encodings', () => {
    expect(names('\x1b[A')).toEqual(['up']);
    expect(names('\x1bOB')).toEqual(['down']);
    expect(names('\x1b[1;5D')).toEqual(['C-left']);
    expect(names('\x1b[1;3C')).toEqual(['M-right']);
    expect(names('\x1b[H')).toEqual(['home']);
    expect(names('\x1b[4~')).toEqual(['end']);
    expect(names('\x1b[Z')).toEqual(['S-tab']);
    expect(names('\x1bb')).toEqual(['M-text:b']);
  });

  it('reads control letters and typed text', () => {
    expect(names('\x12')).toEqual(['C-text:r']);
    expect(names('\x01')).toEqual(['C-text:a']);
    expect(names('héllo wörld')).toEqual(['text:héllo wörld']);
    expect(names('ab\x7f')).toEqual(['text:ab', 'backspace']);
  });

  it('keeps an unbracketed paste with line breaks whole, but Enter after typing stays Enter', () => {
    expect(names('line one\rline two')).toEqual(['paste:line one\rline two']);
    expect(names('hello\r')).toEqual(['text:hello', 'return']);
  });

  it('collects a bracketed paste over several reads, Enter inside included', () => {
    const decoder = new KeyDecoder();
    expect(decoder.push(PASTE_START)).toEqual([]);
    expect(decoder.push('first\r')).toEqual([]);
    expect(decoder.inPaste).toBe(true);
    expect(decoder.push('second\x1b[A')).toEqual([]);
    const keys = decoder.push(PASTE_END);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ name: 'paste', text: 'first\rsecond\x1b[A' });
    expect(decoder.push('\r')[0]?.name).toBe('return');
  });
});
