/**
 * Turns what a terminal sends into keys the prompt editor understands. It reads the raw
 * sequences (one escape sequence, or a run of text, at a time) rather than Ink's parsed
 * keys, because those lose distinctions the editor needs: Backspace (DEL) from Delete,
 * Ctrl+J (a line feed) from Enter, and a bracketed paste from typing.
 */

export type KeyName =
  | 'text'
  | 'paste'
  | 'return'
  | 'linefeed'
  | 'tab'
  | 'backspace'
  | 'delete'
  | 'escape'
  | 'up'
  | 'down'
  | 'left'
  | 'right'
  | 'home'
  | 'end'
  | 'pageup'
  | 'pagedown'
  | 'insert'
  | 'unknown';

export interface EditorKey {
  name: KeyName;
  /** The text typed or pasted (`text`, `paste`), or the letter of a Ctrl/Alt chord. */
  text: string;
  ctrl: boolean;
  meta: boolean;
  shift: boolean;
}

export const PASTE_START = '\x1b[200~';
export const PASTE_END = '\x1b[201~';
/** Asks the terminal to mark pasted text with PASTE_START and PASTE_END. */
export const ENABLE_BRACKETED_PASTE = '\x1b[?2004h';
export const DISABLE_BRACKETED_PASTE = '\x1b[?2004l';

function key(name: KeyName, modifiers: Partial<EditorKey> = {}): EditorKey {
  return { name, text: '', ctrl: false, meta: false, shift: false, ...modifiers };
}

const CSI_LETTERS: Record<string, KeyName> = {
  A: 'up',
  B: 'down',
  C: 'right',
  D: 'left',
  H: 'home',
  F: 'end',
};

const CSI_TILDE: Record<string, KeyName> = {
  '1': 'home',
  '2': 'insert',
  '3': 'delete',
  '4': 'end',
  '5': 'pageup',
  '6': 'pagedown',
  '7': 'home',
  '8': 'end',
};

/** xterm's modifier parameter: 1 + (shift 1, alt 2, ctrl 4, meta 8). */
function modifiersOf(parameter: string | undefined): Partial<EditorKey> {
  const bits = Math.max(0, Number(parameter ?? '1') - 1);
  return {
    shift: (bits & 1) !== 0,
    meta: (bits & 2) !== 0 || (bits & 8) !== 0,
    ctrl: (bits & 4) !== 0,
  };
}

/** A key given by its Unicode code point (kitty's CSI u, xterm's modifyOtherKeys). */
function keyFromCodePoint(code: number, modifiers: Partial<EditorKey>): EditorKey {
  if (code === 13) return key('return', modifiers);
  if (code === 10) return key('linefeed', modifiers);
  if (code === 9) return key('tab', modifiers);
  if (code === 27) return key('escape', modifiers);
  if (code === 127 || code === 8) return key('backspace', modifiers);
  const text = String.fromCodePoint(code);
  return {
    ...key('text', modifiers),
    text: modifiers.ctrl || modifiers.meta ? text.toLowerCase() : text,
  };
}

function decodeEscapeSequence(sequence: string): EditorKey {
  if (sequence === '\x1b' || sequence === '\x1b\x1b') return key('escape');
  if (sequence === '\x1b\r') return key('return', { meta: true });
  if (sequence === '\x1b\n') return key('linefeed', { meta: true });
  if (sequence === '\x1b\x7f' || sequence === '\x1b\b') return key('backspace', { meta: true });
  if (sequence === '\x1b[Z') return key('tab', { shift: true });
  const csi = /^\x1b\[(?:(\d+)(?:;(\d+))?(?:;(\d+))?)?([A-Za-z~])$/.exec(sequence);
  if (csi) {
    const [, first, second, third, final] = csi;
    if (final === 'u' && first) return keyFromCodePoint(Number(first), modifiersOf(second));
    if (final === '~' && first === '27' && third) {
      return keyFromCodePoint(Number(third), modifiersOf(second));
    }
    if (final === '~') {
      const name = CSI_TILDE[first ?? ''];
      return name ? key(name, modifiersOf(second)) : key('unknown');
    }
    const name = CSI_LETTERS[final ?? ''];
    // `\x1b[1;5C`: the modifier is the second parameter; plain `\x1b[C` has none.
    if (name) return key(name, modifiersOf(second));
    return key('unknown');
  }
  const ss3 = /^\x1bO([A-DHF])$/.exec(sequence);
  if (ss3) return key(CSI_LETTERS[ss3[1] ?? ''] ?? 'unknown');
  // Alt (Meta) plus one character: ESC then the character.
  const rest = sequence.slice(1);
  if ([...rest].length === 1) {
    const decoded = decodeSingle(rest);
    return { ...decoded, meta: true };
  }
  return key('unknown');
}

function decodeSingle(char: string): EditorKey {
  if (char === '\r') return key('return');
  if (char === '\n') return key('linefeed');
  if (char === '\t') return key('tab');
  if (char === '\x7f' || char === '\b') return key('backspace');
  const code = char.charCodeAt(0);
  if (code >= 1 && code <= 26) {
    return { ...key('text', { ctrl: true }), text: String.fromCharCode(code + 96) };
  }
  if (code === 0) return { ...key('text', { ctrl: true }), text: ' ' };
  if (code < 32) return key('unknown');
  return { ...key('text'), text: char };
}

/**
 * The keys in one raw sequence. A run of text becomes one `text` key; a run with a line
 * break inside it came from a paste in a terminal without bracketed paste, and becomes a
 * `paste` (a single carriage return at its end is still the Enter that followed typing).
 */
export function decodeSequence(sequence: string): EditorKey[] {
  if (sequence === '') return [];
  if (sequence.startsWith('\x1b')) return [decodeEscapeSequence(sequence)];
  if ([...sequence].length === 1) return [decodeSingle(sequence)];
  const body = sequence.endsWith('\r') ? sequence.slice(0, -1) : sequence;
  if (/[\r\n]/.test(body)) return [{ ...key('paste'), text: sequence }];
  const keys: EditorKey[] = [];
  let run = '';
  for (const char of body) {
    const code = char.charCodeAt(0);
    if (code >= 32 && code !== 0x7f) {
      run += char;
      continue;
    }
    if (run) keys.push({ ...key('text'), text: run });
    run = '';
    keys.push(decodeSingle(char));
  }
  if (run) keys.push({ ...key('text'), text: run });
  if (body !== sequence) keys.push(key('return'));
  return keys;
}

/**
 * Collects a bracketed paste that may arrive over several sequences; everything else
 * passes through decoded.
 */
export class KeyDecoder {
  private pasted: string[] | undefined;

  push(sequence: string): EditorKey[] {
    if (this.pasted) {
      const end = sequence.indexOf(PASTE_END);
      if (end === -1) {
        this.pasted.push(sequence);
        return [];
      }
      this.pasted.push(sequence.slice(0, end));
      const text = this.pasted.join('');
      this.pasted = undefined;
      return [{ ...key('paste'), text }, ...this.push(sequence.slice(end + PASTE_END.length))];
    }
    const start = sequence.indexOf(PASTE_START);
    if (start !== -1) {
      const before = decodeSequence(sequence.slice(0, start));
      this.pasted = [];
      return [...before, ...this.push(sequence.slice(start + PASTE_START.length))];
    }
    return decodeSequence(sequence);
  }

  get inPaste(): boolean {
    return this.pasted !== undefined;
  }
}
