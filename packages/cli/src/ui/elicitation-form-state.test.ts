import { elicitationFields } from '@toolhost/core/mcp';
import { describe, expect, it } from 'vitest';
import {
  deleteBack,
  type FormState,
  initialForm,
  moveFocus,
  step,
  submit,
  toggle,
  typeText,
} from './elicitation-form-state.js';

const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2 },
    age: { type: 'integer', title: 'Age', default: 30, maximum: 150 },
    colour: { type: 'string', enum: ['red', 'blue'], default: 'red' },
    subscribe: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, default: ['b'] },
  },
  required: ['name'],
};

const form = () => initialForm(elicitationFields(SCHEMA));
const at = (state: FormState, focus: number): FormState => ({ ...state, focus });

describe('the elicitation form', () => {
  it('starts with the defaults filled in', () => {
    expect(form().values).toEqual([
      { kind: 'text', text: '' },
      { kind: 'text', text: '30' },
      { kind: 'choice', index: 0 },
      { kind: 'boolean', value: undefined },
      { kind: 'choices', picked: [1], cursor: 0 },
    ]);
  });

  it('sends typed, chosen and ticked answers with the right types', () => {
    let state = typeText(form(), 'Adaa');
    state = deleteBack(state);
    state = at(state, 1);
    state = typeText(deleteBack(deleteBack(state)), '41');
    state = step(at(state, 2), 1);
    state = toggle(at(state, 3));
    state = toggle(at(state, 4)); // picks "a" under the cursor
    expect(submit(state, SCHEMA)).toEqual({
      answers: { name: 'Ada', age: 41, colour: 'blue', subscribe: true, tags: ['a', 'b'] },
    });
  });

  it('marks a required field left empty and a value of the wrong type, and focuses the first', () => {
    const state = typeText(at(deleteBack(deleteBack(at(form(), 1))), 1), 'old');
    const outcome = submit(state, SCHEMA);
    expect('state' in outcome && outcome.state.focus).toBe(0);
    if (!('state' in outcome)) throw new Error('expected problems');
    expect([...outcome.state.errors.fields]).toEqual([
      [0, 'required'],
      [1, 'type a whole number'],
    ]);
  });

  it("leaves the schema's own rules to the schema (minLength, maximum)", () => {
    const state = typeText(at(typeText(form(), 'A'), 1), '0');
    const outcome = submit(state, SCHEMA);
    if (!('state' in outcome)) throw new Error('expected a problem');
    expect(outcome.state.errors.form).toMatch(/name|age/);
  });

  it('moves over the fields, then Submit and Decline, and around', () => {
    let state = form();
    for (let i = 0; i < 6; i++) state = moveFocus(state, 1);
    expect(state.focus).toBe(6);
    expect(moveFocus(state, 1).focus).toBe(0);
    expect(moveFocus(form(), -1).focus).toBe(6);
  });
});
