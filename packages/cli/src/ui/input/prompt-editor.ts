/**
 * The prompt editor's behaviour without a screen: which key does what to the text, the
 * history (↑/↓, Ctrl+P/N, Ctrl+R search), the completion menu and submitting. The Ink
 * component shows its state and feeds it keys; keys it does not handle (Esc with nothing
 * open, Ctrl+C or Ctrl+D on an empty prompt, Shift+Tab, ...) are left to the app.
 */
import type { EditorKey } from './key-decoder.js';
import type { PromptHistory } from './prompt-history.js';
import {
  backspace,
  bufferOf,
  deleteForward,
  deleteWordAfter,
  deleteWordBefore,
  EMPTY_BUFFER,
  insertText,
  killToLineEnd,
  killToLineStart,
  moveDown,
  moveLeft,
  moveRight,
  moveToEnd,
  moveToLineEnd,
  moveToLineStart,
  moveToStart,
  moveUp,
  moveWordLeft,
  moveWordRight,
  replaceRange,
  type TextBuffer,
} from './text-buffer.js';
import { VimMode } from './vim-mode.js';

export interface Suggestion {
  /** What replaces the completed part of the prompt. */
  value: string;
  /** What the menu shows (the value when absent). */
  label?: string;
  description?: string;
  /** Enter on this suggestion sends the prompt at once (a command that needs nothing more). */
  submitOnEnter?: boolean;
}

export interface Completion {
  items: Suggestion[];
  selected: number;
  /** The part of the text the selected suggestion replaces. */
  start: number;
  end: number;
}

export interface ReverseSearch {
  query: string;
  /** The history entry found, or -1. */
  match: number;
}

export type EditorOutcome =
  | { type: 'ignored' }
  | { type: 'changed' }
  | { type: 'submit'; text: string };

const IGNORED: EditorOutcome = { type: 'ignored' };
const CHANGED: EditorOutcome = { type: 'changed' };

export class PromptEditor {
  buffer: TextBuffer = EMPTY_BUFFER;
  completion: Completion | undefined;
  search: ReverseSearch | undefined;
  /** Vim editing, when turned on (`/vim`, general.vimMode). */
  vim: VimMode | undefined;
  /** Index into the history while browsing it; entries.length means the person's own draft. */
  private historyIndex: number;
  private draft: TextBuffer = EMPTY_BUFFER;
  private beforeSearch: TextBuffer = EMPTY_BUFFER;
  private readonly listeners = new Set<() => void>();

  constructor(readonly history: PromptHistory) {
    this.historyIndex = history.entries.length;
  }

  get text(): string {
    return this.buffer.text;
  }

  /** Replaces the text from outside (a restore offers its prompt again); the view is told. */
  setText(text: string): void {
    this.buffer = bufferOf(text);
    this.completion = undefined;
    this.draft = this.buffer;
    this.historyIndex = this.history.entries.length;
    for (const listener of this.listeners) listener();
  }

  /** Turns vim editing on (starting in insert mode) or off; the view is told. */
  setVim(on: boolean): void {
    this.vim = on ? new VimMode() : undefined;
    for (const listener of this.listeners) listener();
  }

  /** Called when the text is set from outside; returns the unsubscribe function. */
  onExternalChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Offers completions for the text as it is now (the app computes them as the text changes). */
  setCompletion(completion: Completion | undefined): void {
    this.completion = completion && completion.items.length > 0 ? completion : undefined;
  }

  handle(key: EditorKey): EditorOutcome {
    if (this.search) return this.handleSearch(key);
    if (this.completion) {
      const outcome = this.handleCompletion(key);
      if (outcome) return outcome;
    }
    if (this.vim) {
      const outcome = this.vim.handle(key, this.buffer);
      if (outcome === 'taken') return CHANGED;
      if (outcome !== 'pass')
        return outcome.edited ? this.edit(outcome.buffer) : this.move(outcome.buffer);
    }
    return this.handleEditing(key);
  }

  private handleEditing(key: EditorKey): EditorOutcome {
    const { ctrl, meta } = key;
    switch (key.name) {
      case 'paste':
        return this.edit(insertText(this.buffer, key.text));
      case 'text':
        if (ctrl) return this.handleControl(key.text);
        if (meta) return this.handleMeta(key.text);
        return this.edit(insertText(this.buffer, key.text));
      case 'return':
        if (meta || key.shift || ctrl) return this.edit(insertText(this.buffer, '\n'));
        return this.enter();
      case 'linefeed':
        return this.edit(insertText(this.buffer, '\n'));
      case 'backspace':
        return this.edit(meta || ctrl ? deleteWordBefore(this.buffer) : backspace(this.buffer));
      case 'delete':
        return this.edit(meta || ctrl ? deleteWordAfter(this.buffer) : deleteForward(this.buffer));
      case 'left':
        return this.move(meta || ctrl ? moveWordLeft(this.buffer) : moveLeft(this.buffer));
      case 'right':
        return this.move(meta || ctrl ? moveWordRight(this.buffer) : moveRight(this.buffer));
      case 'home':
        return this.move(ctrl ? moveToStart(this.buffer) : moveToLineStart(this.buffer));
      case 'end':
        return this.move(ctrl ? moveToEnd(this.buffer) : moveToLineEnd(this.buffer));
      case 'up':
        return this.lineOrHistory(moveUp(this.buffer), -1);
      case 'down':
        return this.lineOrHistory(moveDown(this.buffer), 1);
      default:
        return IGNORED;
    }
  }

  private handleControl(letter: string): EditorOutcome {
    switch (letter) {
      case 'a':
        return this.move(moveToLineStart(this.buffer));
      case 'e':
        return this.move(moveToLineEnd(this.buffer));
      case 'b':
        return this.move(moveLeft(this.buffer));
      case 'f':
        return this.move(moveRight(this.buffer));
      case 'h':
        return this.edit(backspace(this.buffer));
      case 'd':
        // On an empty prompt Ctrl+D is the app's (quit).
        return this.buffer.text ? this.edit(deleteForward(this.buffer)) : IGNORED;
      case 'k':
        return this.edit(killToLineEnd(this.buffer));
      case 'u':
        return this.edit(killToLineStart(this.buffer));
      case 'w':
        return this.edit(deleteWordBefore(this.buffer));
      case 'p':
        return this.browseHistory(-1);
      case 'n':
        return this.browseHistory(1);
      case 'r':
        return this.startSearch();
      case 'c':
        // Ctrl+C clears a prompt being written; on an empty one it is the app's.
        if (!this.buffer.text) return IGNORED;
        this.clear();
        return CHANGED;
      default:
        return IGNORED;
    }
  }

  private handleMeta(letter: string): EditorOutcome {
    switch (letter) {
      case 'b':
        return this.move(moveWordLeft(this.buffer));
      case 'f':
        return this.move(moveWordRight(this.buffer));
      case 'd':
        return this.edit(deleteWordAfter(this.buffer));
      default:
        return IGNORED;
    }
  }

  /** Enter: a trailing backslash continues on a new line; otherwise the prompt is sent. */
  private enter(): EditorOutcome {
    const { text, cursor } = this.buffer;
    if (cursor > 0 && text[cursor - 1] === '\\') {
      return this.edit(replaceRange(this.buffer, cursor - 1, cursor, '\n'));
    }
    return this.submit();
  }

  private submit(): EditorOutcome {
    const text = this.buffer.text;
    if (!text.trim()) return CHANGED;
    this.history.add(text);
    this.reset();
    return { type: 'submit', text };
  }

  /** Empties the prompt (Ctrl+C on a prompt being written). */
  clear(): void {
    this.reset();
  }

  private reset(): void {
    this.buffer = EMPTY_BUFFER;
    this.completion = undefined;
    this.historyIndex = this.history.entries.length;
    this.draft = EMPTY_BUFFER;
  }

  private handleCompletion(key: EditorKey): EditorOutcome | undefined {
    const completion = this.completion;
    if (!completion) return undefined;
    const count = completion.items.length;
    switch (key.name) {
      case 'up':
        this.completion = { ...completion, selected: (completion.selected - 1 + count) % count };
        return CHANGED;
      case 'down':
        this.completion = { ...completion, selected: (completion.selected + 1) % count };
        return CHANGED;
      case 'tab':
        if (key.shift) return undefined;
        return this.acceptCompletion(false);
      case 'return': {
        if (key.meta || key.shift || key.ctrl) return undefined;
        const selected = completion.items[completion.selected];
        const current = this.buffer.text.slice(completion.start, completion.end);
        if (!selected) return undefined;
        // Enter on what is already typed sends it; otherwise it takes the suggestion.
        if (selected.value.trimEnd() === current && !selected.submitOnEnter) return undefined;
        return this.acceptCompletion(Boolean(selected.submitOnEnter));
      }
      case 'escape':
        this.completion = undefined;
        return CHANGED;
      default:
        return undefined;
    }
  }

  private acceptCompletion(submit: boolean): EditorOutcome {
    const completion = this.completion;
    const selected = completion?.items[completion.selected];
    if (!completion || !selected) return IGNORED;
    this.buffer = replaceRange(this.buffer, completion.start, completion.end, selected.value);
    this.completion = undefined;
    return submit ? this.submit() : CHANGED;
  }

  private edit(next: TextBuffer): EditorOutcome {
    if (next === this.buffer) return CHANGED;
    this.buffer = next;
    // Editing a recalled entry makes it the draft: ↓ no longer discards the change.
    this.historyIndex = this.history.entries.length;
    this.draft = next;
    return CHANGED;
  }

  private move(next: TextBuffer): EditorOutcome {
    this.buffer = next;
    return CHANGED;
  }

  private lineOrHistory(moved: TextBuffer | null, direction: -1 | 1): EditorOutcome {
    if (moved) return this.move(moved);
    return this.browseHistory(direction);
  }

  private browseHistory(direction: -1 | 1): EditorOutcome {
    const entries = this.history.entries;
    const target = this.historyIndex + direction;
    if (target < 0 || target > entries.length) return CHANGED;
    if (this.historyIndex === entries.length) this.draft = this.buffer;
    this.historyIndex = target;
    const text = target === entries.length ? undefined : entries[target];
    // Going up puts the cursor at the end of the first line, down at the end of the text,
    // so the next ↑/↓ keeps browsing (a multi-line entry is moved through first).
    this.buffer =
      text === undefined
        ? this.draft
        : bufferOf(text, direction < 0 ? firstLineEnd(text) : text.length);
    this.completion = undefined;
    return CHANGED;
  }

  private startSearch(): EditorOutcome {
    this.beforeSearch = this.buffer;
    this.search = { query: '', match: -1 };
    this.completion = undefined;
    return CHANGED;
  }

  private handleSearch(key: EditorKey): EditorOutcome {
    const search = this.search as ReverseSearch;
    if (key.name === 'text' && key.ctrl && key.text === 'r') {
      const older = search.match === -1 ? -1 : this.history.search(search.query, search.match);
      if (older !== -1) this.showMatch(search.query, older);
      return CHANGED;
    }
    if ((key.name === 'text' && key.ctrl && key.text === 'g') || key.name === 'escape') {
      this.search = undefined;
      this.buffer = this.beforeSearch;
      return CHANGED;
    }
    if ((key.name === 'text' && !key.ctrl && !key.meta) || key.name === 'paste') {
      const query = search.query + key.text.replace(/[\r\n]+/g, ' ');
      this.showMatch(query, this.history.search(query));
      return CHANGED;
    }
    if (key.name === 'backspace') {
      const query = search.query.slice(0, -1);
      this.showMatch(query, query ? this.history.search(query) : -1);
      return CHANGED;
    }
    // Any other key takes the match into the prompt; Enter stops there, to be read first.
    this.search = undefined;
    if (search.match !== -1) this.edit(bufferOf(this.history.entries[search.match] ?? ''));
    if (key.name === 'return' || key.name === 'tab') return CHANGED;
    return this.handle(key);
  }

  private showMatch(query: string, match: number): void {
    this.search = { query, match };
    if (match !== -1) {
      const entry = this.history.entries[match] ?? '';
      const at = entry.toLowerCase().indexOf(query.toLowerCase());
      this.buffer = bufferOf(entry, Math.max(0, at));
    }
  }
}

function firstLineEnd(text: string): number {
  const end = text.indexOf('\n');
  return end === -1 ? text.length : end;
}
