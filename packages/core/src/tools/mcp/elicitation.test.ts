import { describe, expect, it } from 'vitest';
import { completeAnswers, elicitationFields, parseFieldAnswer } from './elicitation.js';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name' },
    age: { type: 'integer', default: 30 },
    agree: { type: 'boolean' },
    size: {
      type: 'string',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'l', title: 'Large' },
      ],
    },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
  },
  required: ['name'],
};

describe('elicitation forms', () => {
  it('lists the fields with their types, choices and defaults', () => {
    const fields = elicitationFields(schema);
    expect(fields.map((f) => [f.name, f.type, f.required])).toEqual([
      ['name', 'string', true],
      ['age', 'integer', false],
      ['agree', 'boolean', false],
      ['size', 'string', false],
      ['tags', 'string', false],
    ]);
    expect(fields[3]?.choices).toEqual([
      { value: 's', label: 'Small' },
      { value: 'l', label: 'Large' },
    ]);
    expect(fields[4]?.multiple).toBe(true);
  });

  it('reads typed answers and says what is wrong with bad ones', () => {
    const [name, age, agree, size, tags] = elicitationFields(schema);
    expect(parseFieldAnswer(name!, '  Ada ')).toEqual({ value: 'Ada' });
    expect(parseFieldAnswer(age!, '')).toBeUndefined();
    expect(parseFieldAnswer(age!, '4.5')).toEqual({ problem: 'type a whole number' });
    expect(parseFieldAnswer(agree!, 'yes')).toEqual({ value: true });
    expect(parseFieldAnswer(size!, '2')).toEqual({ value: 'l' });
    expect(parseFieldAnswer(size!, 'huge')).toMatchObject({
      problem: expect.stringContaining('1 (Small)'),
    });
    expect(parseFieldAnswer(tags!, 'a, 2')).toEqual({ value: ['a', 'b'] });
  });

  it('applies defaults, then checks the schema', () => {
    expect(completeAnswers(schema, { name: 'Ada' })).toEqual({ content: { name: 'Ada', age: 30 } });
    expect(completeAnswers(schema, { age: 3 })).toEqual({ problem: 'name is required' });
  });
});
