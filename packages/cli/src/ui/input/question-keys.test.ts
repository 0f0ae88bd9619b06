import { describe, expect, it } from 'vitest';
import type { EditorKey } from './key-decoder.js';
import { choiceKey, TYPEAHEAD_PAUSE_MS, TypeaheadGuard } from './question-keys.js';

const key = (
  name: EditorKey['name'],
  text = '',
  modifiers: Partial<EditorKey> = {},
): EditorKey => ({
  name,
  text,
  ctrl: false,
  meta: false,
  shift: false,
  ...modifiers,
});

describe('TypeaheadGuard', () => {
  const pause = TYPEAHEAD_PAUSE_MS;

  it('takes keys at once when nobody was typing as the question came', () => {
    expect(new TypeaheadGuard(10_000, undefined).accepts(10_001)).toBe(true);
    expect(new TypeaheadGuard(10_000, 10_000 - pause).accepts(10_001)).toBe(true);
  });

  it('does not take a run of typing that began before the question, until it pauses', () => {
    const guard = new TypeaheadGuard(10_000, 9_900);
    expect(guard.isArmed(10_000)).toBe(false);
    // Keys keep coming less than a pause apart: none is an answer, however long it goes on.
    let last = 10_100;
    for (let at = last; at < 13_000; at += pause - 1) {
      expect(guard.accepts(at)).toBe(false);
      last = at;
    }
    expect(guard.armsAt()).toBe(last + pause);
    expect(guard.isArmed(last + pause - 1)).toBe(false);
    expect(guard.isArmed(last + pause + 200)).toBe(true);
    expect(guard.accepts(last + pause + 300)).toBe(true);
    expect(guard.armsAt()).toBeUndefined();
  });
});

describe('choiceKey', () => {
  const options = { count: 3, letters: ['y', 'a', 'n'], numbers: true };

  it('moves with arrows, Tab and Shift+Tab, wrapping around, and Enter takes the marked one', () => {
    let state = { selected: 0 };
    state = choiceKey(state, key('up'), options);
    expect(state).toEqual({ selected: 2 });
    state = choiceKey(state, key('tab'), options);
    state = choiceKey(state, key('tab', '', { shift: true }), options);
    expect(state.selected).toBe(2);
    expect(choiceKey(state, key('return'), options).answer).toEqual({ index: 2 });
  });

  it('takes numbers in range and letters in either case; other keys change nothing', () => {
    expect(choiceKey({ selected: 0 }, key('text', '2'), options).answer).toEqual({ index: 1 });
    expect(choiceKey({ selected: 0 }, key('text', '7'), options)).toEqual({ selected: 0 });
    expect(choiceKey({ selected: 0 }, key('text', 'N'), options).answer).toEqual({ index: 2 });
    expect(choiceKey({ selected: 1 }, key('text', 'x'), options)).toEqual({ selected: 1 });
    expect(choiceKey({ selected: 1 }, key('text', 'n', { ctrl: true }), options).selected).toBe(2);
  });

  it('answers once: keys after an answer change nothing', () => {
    const answered = choiceKey({ selected: 0 }, key('escape'), options);
    expect(answered.answer).toBe('escape');
    expect(choiceKey(answered, key('text', 'y'), options)).toBe(answered);
  });
});
