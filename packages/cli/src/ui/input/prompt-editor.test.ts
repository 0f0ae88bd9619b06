import { describe, expect, it } from 'vitest';
import { KeyDecoder, PASTE_END, PASTE_START } from './key-decoder.js';
import { type EditorOutcome, PromptEditor } from './prompt-editor.js';
import { PromptHistory } from './prompt-history.js';

/** Feeds raw terminal sequences, as a person's keys arrive, and returns what was sent. */
function typer(history: string[] = []) {
  const editor = new PromptEditor(new PromptHistory(undefined, [...history]));
  const decoder = new KeyDecoder();
  const sent: string[] = [];
  const outcomes: EditorOutcome[] = [];
  const type = (...sequences: string[]) => {
    for (const sequence of sequences) {
      for (const key of decoder.push(sequence)) {
        const outcome = editor.handle(key);
        outcomes.push(outcome);
        if (outcome.type === 'submit') sent.push(outcome.text);
      }
    }
  };
  const shown = () =>
    `${editor.text.slice(0, editor.buffer.cursor)}|${editor.text.slice(editor.buffer.cursor)}`;
  return { editor, type, sent, outcomes, shown };
}

const UP = '\x1b[A';
const DOWN = '\x1b[B';
const LEFT = '\x1b[D';
const ENTER = '\r';
const CTRL_J = '\n';

describe('prompt editor', () => {
  it('sends on Enter and starts a new line on Ctrl+J, Alt+Enter or a trailing backslash', () => {
    const { type, sent } = typer();
    type('first', CTRL_J, 'second', '\x1b\r', 'third\\', ENTER, 'fourth', ENTER);
    expect(sent).toEqual(['first\nsecond\nthird\nfourth']);
  });

  it('keeps a pasted text whole: its line breaks do not send it', () => {
    const { type, sent, editor } = typer();
    type('look at ', PASTE_START, 'const a = 1;\r\nconst b = 2;\r', PASTE_END);
    expect(sent).toEqual([]);
    expect(editor.text).toBe('look at const a = 1;\nconst b = 2;\n');
    type(ENTER);
    expect(sent).toEqual(['look at const a = 1;\nconst b = 2;\n']);
  });

  it('edits in the middle of the text with the usual keys', () => {
    const { type, shown } = typer();
    type('git comit', LEFT, LEFT, 'm');
    expect(shown()).toBe('git comm|it');
    type('\x01'); // Ctrl+A
    expect(shown()).toBe('|git commit');
    type('\x05', '\x17'); // Ctrl+E, Ctrl+W
    expect(shown()).toBe('git |');
    type('push', '\x15'); // Ctrl+U
    expect(shown()).toBe('|');
  });

  it('moves through lines with ↑/↓ before browsing history, and keeps the draft', () => {
    const { type, editor, shown } = typer(['older prompt', 'newest prompt']);
    type('my draft', CTRL_J, 'second line');
    type(UP);
    expect(shown()).toBe('my draft|\nsecond line');
    type(UP);
    expect(editor.text).toBe('newest prompt');
    type(UP);
    expect(editor.text).toBe('older prompt');
    type(UP);
    expect(editor.text).toBe('older prompt');
    type(DOWN, DOWN);
    expect(editor.text).toBe('my draft\nsecond line');
  });

  it('remembers what is sent, for the next ↑', () => {
    const { type, editor } = typer();
    type('first prompt', ENTER, 'second prompt', ENTER);
    type(UP);
    expect(editor.text).toBe('second prompt');
    expect(editor.history.entries).toEqual(['first prompt', 'second prompt']);
  });

  it('searches history with Ctrl+R, older matches on Ctrl+R again, Esc restores the draft', () => {
    const { type, editor } = typer(['npm test', 'git status', 'npm run build']);
    type('draft', '\x12', 'npm');
    expect(editor.search).toEqual({ query: 'npm', match: 2 });
    expect(editor.text).toBe('npm run build');
    type('\x12');
    expect(editor.text).toBe('npm test');
    type('\x1b');
    expect(editor.search).toBeUndefined();
    expect(editor.text).toBe('draft');
    type('\x12', 'stat', ENTER);
    expect(editor.search).toBeUndefined();
    expect(editor.text).toBe('git status');
  });

  it('takes a completion with Tab and moves through the menu with ↑/↓', () => {
    const { type, editor, sent } = typer();
    type('read @src/ma');
    editor.setCompletion({
      items: [{ value: '@src/main.ts' }, { value: '@src/map.ts' }],
      selected: 0,
      start: 5,
      end: 12,
    });
    type(DOWN, '\t');
    expect(editor.text).toBe('read @src/map.ts');
    expect(editor.completion).toBeUndefined();
    expect(sent).toEqual([]);
  });

  it('sends a completed command on Enter when it needs nothing more', () => {
    const { type, editor, sent } = typer();
    type('/he');
    editor.setCompletion({
      items: [{ value: '/help', submitOnEnter: true }],
      selected: 0,
      start: 0,
      end: 3,
    });
    type(ENTER);
    expect(sent).toEqual(['/help']);
  });

  it('leaves the app its keys: Ctrl+C and Ctrl+D on an empty prompt, Shift+Tab, Esc', () => {
    const { type, outcomes, editor } = typer();
    type('\x03', '\x04', '\x1b[Z', '\x1b');
    expect(outcomes.map((outcome) => outcome.type)).toEqual([
      'ignored',
      'ignored',
      'ignored',
      'ignored',
    ]);
    type('text', '\x03');
    expect(editor.text).toBe('');
    expect(outcomes.at(-1)?.type).toBe('changed');
  });
});
