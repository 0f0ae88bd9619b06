/**
 * Text from a model, an MCP server, a repository or a command, made safe to show a person
 * in a terminal: every character that could move the cursor, recolour or erase what is on
 * screen, reorder the text or hide in it is shown as a visible escape instead of being
 * interpreted. C0 controls (ESC, CR, backspace...), DEL and C1 controls become `\r`,
 * `\e`, `\x7f`, `\u{9b}`; bidirectional overrides and isolates, zero-width and other
 * invisible format characters, line and paragraph separators and Unicode tag characters
 * become `\u{202e}` and the like. Newlines, tabs and CR LF line endings are kept where the
 * text is shown as lines (`multiline`), and escaped in one-line text (names, titles, rows). What the person
 * sees is then what will run: an approval cannot be redrawn to show another command.
 * The one helper every front end and core message shown to a person uses.
 */

const NAMED: Record<string, string> = {
  '\u001b': '\\e',
  '\r': '\\r',
  '\n': '\\n',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
  '\v': '\\v',
  '\u0000': '\\0',
};

// C0 and DEL and C1; soft hyphen; Arabic letter mark; Mongolian vowel separator; zero-width
// and directional marks; line/paragraph separators; bidi embeddings and overrides; word
// joiner and invisible operators; bidi isolates; deprecated format characters; BOM;
// interlinear annotations; Unicode tags.
const HIDDEN =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]|\u{e0000}|[\u{e0001}-\u{e007f}]/gu;

export interface VisibleTextOptions {
  /** Keep newlines and tabs (text shown as lines: a diff, a message, a script). */
  multiline?: boolean;
}

export function visibleText(text: string, options: VisibleTextOptions = {}): string {
  return text.replace(HIDDEN, (char, at: number) => {
    if (options.multiline && (char === '\n' || char === '\t')) return char;
    // A Windows line ending is a line break too: the return goes back only to start the next line.
    if (options.multiline && char === '\r' && text[at + 1] === '\n') return char;
    const named = NAMED[char];
    if (named) return named;
    const code = char.codePointAt(0) ?? 0;
    return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
  });
}
