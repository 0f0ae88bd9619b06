/**
 * The one way a question on the terminal reads keys (see question-keys.ts for the rules):
 * the raw sequences decoded one key at a time, each applied by `step` to the state the key
 * before left (held in a ref, not in the last render), `onDone` called once when a key
 * finishes the question, pastes never taken, and, with `guardTypeahead`, keys of a run of
 * typing that began before the question appeared not taken. Bracketed paste stays on while
 * a question is shown, so a paste is told apart from typing here too.
 */
import { useStdin, useStdout } from 'ink';
import { useEffect, useReducer, useRef } from 'react';
import {
  DISABLE_BRACKETED_PASTE,
  type EditorKey,
  ENABLE_BRACKETED_PASTE,
  KeyDecoder,
} from './key-decoder.js';
import {
  type ChoiceState,
  choiceKey,
  lastKeyPressedAt,
  TypeaheadGuard,
  toPrompt,
} from './question-keys.js';

export interface QuestionKeysOptions<S> {
  isActive: boolean;
  initial: S | (() => S);
  step(state: S, key: EditorKey): S;
  /** Whether this state ends the question (then `onDone` runs, once). */
  isDone(state: S): boolean;
  onDone(state: S): void;
  /** Questions that arrive on their own (a tool call's) do not take typeahead. */
  guardTypeahead?: boolean;
  /** A form's text field takes a paste as text; elsewhere a paste is dropped. */
  acceptPaste?: boolean;
}

export interface QuestionKeys<S> {
  state: S;
  /** False while the person is still typing what they typed before the question came. */
  armed: boolean;
}

export function useQuestionKeys<S>(options: QuestionKeysOptions<S>): QuestionKeys<S> {
  const stdin = useStdin() as ReturnType<typeof useStdin> & {
    internal_eventEmitter?: NodeJS.EventEmitter;
  };
  const { internal_eventEmitter: events, setRawMode } = stdin;
  const { stdout } = useStdout();
  const [, render] = useReducer((count: number) => count + 1, 0);
  const latest = useRef(options);
  latest.current = options;
  const state = useRef<{ value: S; done: boolean } | undefined>(undefined);
  if (!state.current) {
    const { initial } = options;
    state.current = {
      value: typeof initial === 'function' ? (initial as () => S)() : initial,
      done: false,
    };
  }
  const guard = useRef<TypeaheadGuard | undefined>(undefined);
  if (!guard.current)
    guard.current = new TypeaheadGuard(
      Date.now(),
      options.guardTypeahead ? lastKeyPressedAt() : undefined,
    );
  const { isActive } = options;

  // Ink reads the terminal only while some component holds raw mode.
  useEffect(() => {
    if (!isActive) return;
    setRawMode(true);
    return () => setRawMode(false);
  }, [isActive, setRawMode]);

  useEffect(() => {
    if (!isActive || !events) return;
    const decoder = new KeyDecoder();
    let timer: NodeJS.Timeout | undefined;
    // Redraws when the typing has paused, so the question shows that it takes keys.
    const watchArming = () => {
      clearTimeout(timer);
      const at = guard.current?.armsAt();
      if (at !== undefined) timer = setTimeout(render, Math.max(0, at - Date.now()) + 10);
    };
    const onInput = (sequence: string) => {
      const now = Date.now();
      for (const key of decodeOneByOne(decoder, sequence)) {
        const current = state.current;
        if (!current || current.done) return;
        // Typed ahead of the question, or pasted: text for the prompt, never an answer.
        if (!guard.current?.accepts(now) || (key.name === 'paste' && !latest.current.acceptPaste)) {
          toPrompt(key);
          continue;
        }
        const next = latest.current.step(current.value, key);
        if (next === current.value) continue;
        current.value = next;
        if (latest.current.isDone(next)) {
          current.done = true;
          latest.current.onDone(next);
          break;
        }
      }
      watchArming();
      render();
    };
    watchArming();
    events.on('input', onInput);
    return () => {
      clearTimeout(timer);
      events.off('input', onInput);
    };
  }, [isActive, events]);

  useEffect(() => {
    if (!isActive || !stdout.isTTY) return;
    stdout.write(ENABLE_BRACKETED_PASTE);
    return () => {
      stdout.write(DISABLE_BRACKETED_PASTE);
    };
  }, [stdout, isActive]);

  return {
    state: state.current.value,
    armed: guard.current.isArmed(Date.now()),
  };
}

/**
 * The keys in one raw sequence, a run of text taken character by character: in a question
 * `n` then Enter sent at once are two keys, not a paste (pastes come bracketed, as
 * bracketed paste is on while a question is shown).
 */
function decodeOneByOne(decoder: KeyDecoder, sequence: string): EditorKey[] {
  if (sequence.startsWith('\x1b') || decoder.inPaste) return decoder.push(sequence);
  return [...sequence].flatMap((char) => decoder.push(char));
}

/**
 * The keys of a question that arrives on its own with a list of lettered choices (arrows,
 * numbers, the letters, Enter; Esc): `onChoice` gets the index chosen, or undefined for Esc.
 */
export function useChoiceKeys(options: {
  isActive: boolean;
  letters: readonly string[];
  onChoice(index: number | undefined): void;
}): QuestionKeys<ChoiceState> {
  const { isActive, letters, onChoice } = options;
  return useQuestionKeys<ChoiceState>({
    isActive,
    initial: { selected: 0 },
    guardTypeahead: true,
    step: (at, key) =>
      choiceKey(at, key, { count: letters.length, letters: [...letters], numbers: true }),
    isDone: (at) => at.answer !== undefined,
    onDone: (at) => onChoice(at.answer === 'escape' ? undefined : at.answer?.index),
  });
}
