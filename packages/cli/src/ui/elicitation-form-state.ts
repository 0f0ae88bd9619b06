/**
 * The state of an MCP server's question form (elicitation) in the terminal, apart from
 * React: one value per field of the server's flat schema (text typed, a yes/no, one or
 * several choices), the focus, and the check before the answers go back.
 */

import { completeAnswers, type ElicitationField, parseFieldAnswer } from '@toolhost/core/mcp';
import type { ConfirmationDecision } from '@toolhost/core/tools';
import { ToolConfirmationOutcome } from '@toolhost/core/tools';
import type { EditorKey } from './input/key-decoder.js';

export type FieldValue =
  | { kind: 'text'; text: string }
  | { kind: 'boolean'; value: boolean | undefined }
  | { kind: 'choice'; index: number }
  | { kind: 'choices'; picked: number[]; cursor: number };

export interface FormState {
  fields: ElicitationField[];
  values: FieldValue[];
  /** A field's index, or `fields.length` (Submit) or `fields.length + 1` (Decline). */
  focus: number;
  /** Problems by field index; `form` for what the schema says about the whole. */
  errors: { fields: Map<number, string>; form?: string };
}

export function initialForm(fields: ElicitationField[]): FormState {
  return {
    fields,
    values: fields.map(initialValue),
    focus: 0,
    errors: { fields: new Map() },
  };
}

function initialValue(field: ElicitationField): FieldValue {
  const { choices } = field;
  if (choices && field.multiple) {
    const defaults = Array.isArray(field.default) ? field.default.map(String) : [];
    const picked = choices.flatMap((choice, i) => (defaults.includes(choice.value) ? [i] : []));
    return { kind: 'choices', picked, cursor: 0 };
  }
  if (choices) {
    return {
      kind: 'choice',
      index: choices.findIndex((choice) => choice.value === String(field.default)),
    };
  }
  if (field.type === 'boolean')
    return {
      kind: 'boolean',
      value: typeof field.default === 'boolean' ? field.default : undefined,
    };
  return { kind: 'text', text: field.default === undefined ? '' : String(field.default) };
}

/** Stops: the fields, then Submit and Decline. */
export function moveFocus(state: FormState, by: 1 | -1): FormState {
  const stops = state.fields.length + 2;
  return { ...state, focus: (state.focus + by + stops) % stops };
}

export function isOnSubmit(state: FormState): boolean {
  return state.focus === state.fields.length;
}

export function isOnDecline(state: FormState): boolean {
  return state.focus === state.fields.length + 1;
}

function withValue(state: FormState, value: FieldValue): FormState {
  const values = [...state.values];
  values[state.focus] = value;
  const fields = new Map(state.errors.fields);
  fields.delete(state.focus);
  return { ...state, values, errors: { fields } };
}

/** Typed characters (or a paste) added to a text field; yes/no keys on a boolean. */
export function typeText(state: FormState, input: string): FormState {
  const value = state.values[state.focus];
  if (value?.kind === 'text')
    return withValue(state, { kind: 'text', text: value.text + input.replace(/[\r\n]+/g, ' ') });
  if (value?.kind === 'boolean' && /^[yn]$/i.test(input))
    return withValue(state, { kind: 'boolean', value: input.toLowerCase() === 'y' });
  return state;
}

export function deleteBack(state: FormState): FormState {
  const value = state.values[state.focus];
  if (value?.kind !== 'text') return state;
  return withValue(state, { kind: 'text', text: [...value.text].slice(0, -1).join('') });
}

/** ←/→: the previous or next choice, the cursor among several choices, or flips a yes/no. */
export function step(state: FormState, by: 1 | -1): FormState {
  const value = state.values[state.focus];
  const count = state.fields[state.focus]?.choices?.length ?? 0;
  if (value?.kind === 'choice' && count > 0) {
    const from = value.index < 0 ? (by === 1 ? -1 : 0) : value.index;
    return withValue(state, { kind: 'choice', index: (from + by + count) % count });
  }
  if (value?.kind === 'choices' && count > 0)
    return withValue(state, { ...value, cursor: (value.cursor + by + count) % count });
  if (value?.kind === 'boolean') return withValue(state, { kind: 'boolean', value: !value.value });
  return state;
}

/** Space: flips a yes/no, picks or unpicks the choice under the cursor. */
export function toggle(state: FormState): FormState {
  const value = state.values[state.focus];
  if (value?.kind === 'boolean') return withValue(state, { kind: 'boolean', value: !value.value });
  if (value?.kind === 'choices') {
    const picked = value.picked.includes(value.cursor)
      ? value.picked.filter((i) => i !== value.cursor)
      : [...value.picked, value.cursor].sort((a, b) => a - b);
    return withValue(state, { ...value, picked });
  }
  if (value?.kind === 'choice') return step(state, 1);
  if (value?.kind === 'text') return typeText(state, ' ');
  return state;
}

/**
 * The answers to send, or the form again with its problems shown (the focus on the first
 * field at fault). Defaults fill fields left empty; the server's schema has the last word.
 */
export function submit(
  state: FormState,
  schema: Record<string, unknown>,
): { answers: Record<string, unknown> } | { state: FormState } {
  const answers: Record<string, unknown> = {};
  const problems = new Map<number, string>();
  state.fields.forEach((field, index) => {
    const value = state.values[index];
    const answer = answerOf(field, value);
    if ('problem' in answer) problems.set(index, answer.problem);
    else if (answer.value !== undefined) answers[field.name] = answer.value;
    else if (field.required && field.default === undefined) problems.set(index, 'required');
  });
  if (problems.size > 0) {
    const first = Math.min(...problems.keys());
    return { state: { ...state, focus: first, errors: { fields: problems } } };
  }
  const checked = completeAnswers(schema, answers);
  if ('problem' in checked)
    return { state: { ...state, errors: { fields: new Map(), form: checked.problem } } };
  return { answers: checked.content };
}

function answerOf(
  field: ElicitationField,
  value: FieldValue | undefined,
): { value: unknown } | { problem: string } {
  switch (value?.kind) {
    case 'text': {
      const parsed = parseFieldAnswer(field, value.text);
      return parsed ?? { value: undefined };
    }
    case 'boolean':
      // A required yes/no left alone is a no, as an unticked box is.
      return { value: value.value ?? (field.required ? false : undefined) };
    case 'choice':
      return { value: value.index < 0 ? undefined : field.choices?.[value.index]?.value };
    case 'choices':
      return {
        value:
          value.picked.length > 0 ? value.picked.map((i) => field.choices?.[i]?.value) : undefined,
      };
    default:
      return { value: undefined };
  }
}

/** Where a form stands after a key: still open, or answered (sent, declined or dismissed). */
export interface FormKeyState {
  form: FormState;
  answer?: ConfirmationDecision;
}

/** The form after one key, applied to the state the key before left. */
export function formKey(
  state: FormKeyState,
  key: EditorKey,
  schema: Record<string, unknown>,
): FormKeyState {
  if (state.answer) return state;
  const { form } = state;
  const next = (changed: FormState): FormKeyState => (changed === form ? state : { form: changed });
  if (key.name === 'escape')
    return {
      form,
      answer: { outcome: ToolConfirmationOutcome.Cancel, payload: { dismissed: true } },
    };
  if (key.name === 'return') {
    if (isOnDecline(form)) return { form, answer: { outcome: ToolConfirmationOutcome.Cancel } };
    if (!isOnSubmit(form)) return next(moveFocus(form, 1));
    const outcome = submit(form, schema);
    if ('answers' in outcome)
      return {
        form,
        answer: {
          outcome: ToolConfirmationOutcome.ProceedOnce,
          payload: { answers: outcome.answers },
        },
      };
    return { form: outcome.state };
  }
  if (key.name === 'up' || (key.name === 'tab' && key.shift)) return next(moveFocus(form, -1));
  if (key.name === 'down' || key.name === 'tab') return next(moveFocus(form, 1));
  if (key.name === 'left') return next(step(form, -1));
  if (key.name === 'right') return next(step(form, 1));
  if (key.name === 'backspace' || key.name === 'delete') return next(deleteBack(form));
  if (key.name === 'text' && key.text === ' ' && !key.ctrl) return next(toggle(form));
  if ((key.name === 'text' || key.name === 'paste') && !key.ctrl && !key.meta)
    return next(typeText(form, key.text));
  return state;
}
