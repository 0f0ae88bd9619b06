/**
 * How every question on the terminal (a tool call's approval, a plan, a server's form or
 * page, a picker) reads keys, apart from React. Two rules live here. Each key is applied to
 * the state the key before it left, never to the last drawn frame, so a burst (`↓ ↓ ↓ ↓
 * Enter` sent at once) answers exactly as the same keys typed slowly. And typeahead never
 * answers: keys that belong to a run of typing that began before the question appeared are
 * not answers (the person was writing a prompt, not reading the question); the question
 * takes keys once the typing pauses. A paste is never an answer either.
 */
import type { EditorKey } from './key-decoder.js';

/**
 * A pause in typing this long ends a run of keys. Typing speeds put most gaps between keys
 * well under it; a person who reads a new question takes longer than it to answer.
 */
export const TYPEAHEAD_PAUSE_MS = 500;

/** When the person last pressed a key anywhere in the app (the app notes every key). */
let lastKeyAt: number | undefined;

export function noteKeyPressed(now = Date.now()): void {
  lastKeyAt = now;
}

export function lastKeyPressedAt(): number | undefined {
  return lastKeyAt;
}

/**
 * Where the keys a question does not take go: the prompt's editor, which registers itself
 * here, so text typed ahead of a question or pasted while it shows is kept for the prompt.
 */
let promptSink: ((key: EditorKey) => void) | undefined;

export function setPromptSink(sink: (key: EditorKey) => void): () => void {
  promptSink = sink;
  return () => {
    if (promptSink === sink) promptSink = undefined;
  };
}

/** Gives a key a question did not take to the prompt (text, pastes and Backspace only). */
export function toPrompt(key: EditorKey): void {
  if (key.ctrl || key.meta) return;
  if (key.name === 'text' || key.name === 'paste' || key.name === 'backspace') promptSink?.(key);
}

/**
 * Whether a question takes keys yet. It is shown at `shownAt`; if the person was typing
 * then (a key less than the pause before), it waits until they pause, and the keys of that
 * run are not answers.
 */
export class TypeaheadGuard {
  private previous: number | undefined;
  private armed: boolean;

  constructor(shownAt: number, lastKeyBefore: number | undefined) {
    this.previous = lastKeyBefore;
    this.armed = lastKeyBefore === undefined || shownAt - lastKeyBefore >= TYPEAHEAD_PAUSE_MS;
  }

  /** Whether a key pressed at `now` may answer (it notes the key either way). */
  accepts(now: number): boolean {
    this.refresh(now);
    this.previous = now;
    return this.armed;
  }

  /** Whether the question takes keys at `now` (the run of typing has paused). */
  isArmed(now: number): boolean {
    this.refresh(now);
    return this.armed;
  }

  /** When it will be armed if no other key comes (undefined: it already is). */
  armsAt(): number | undefined {
    return this.armed ? undefined : (this.previous ?? 0) + TYPEAHEAD_PAUSE_MS;
  }

  private refresh(now: number): void {
    if (!this.armed && (this.previous === undefined || now - this.previous >= TYPEAHEAD_PAUSE_MS))
      this.armed = true;
  }
}

/** A list of answers with a marked one (an approval, a plan, a page to visit, a picker). */
export interface ChoiceState {
  selected: number;
  /** Set once: the index taken, or `escape`. Keys after it change nothing. */
  answer?: { index: number } | 'escape';
}

export interface ChoiceOptions {
  count: number;
  /** The letter that takes each answer (`y`, `n`...), when answers have letters. */
  letters?: readonly string[];
  /** Whether 1-9 take the answer at that position. */
  numbers?: boolean;
}

/** The state after one key. Every dialog with a list of answers reads keys through this. */
export function choiceKey(state: ChoiceState, key: EditorKey, options: ChoiceOptions): ChoiceState {
  const { count } = options;
  if (state.answer !== undefined || count === 0) return state;
  const move = (by: number) => ({ selected: (state.selected + by + count) % count });
  const letter = key.name === 'text' && !key.meta ? key.text : '';
  if (key.name === 'escape') return { ...state, answer: 'escape' };
  if (key.name === 'return' && !key.meta) return { ...state, answer: { index: state.selected } };
  if (key.name === 'up' || (key.ctrl && letter === 'p') || (key.name === 'tab' && key.shift))
    return move(-1);
  if (key.name === 'down' || (key.ctrl && letter === 'n') || key.name === 'tab') return move(1);
  if (key.name === 'home') return { selected: 0 };
  if (key.name === 'end') return { selected: count - 1 };
  if (key.name !== 'text' || key.ctrl || [...letter].length !== 1) return state;
  if (options.numbers && /^[1-9]$/.test(letter)) {
    const index = Number(letter) - 1;
    return index < count ? { selected: index, answer: { index } } : state;
  }
  const index = options.letters?.indexOf(letter.toLowerCase()) ?? -1;
  return index === -1 ? state : { selected: index, answer: { index } };
}
