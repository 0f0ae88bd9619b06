import { describe, expect, it } from 'vitest';
import { coerceToSchema } from './schema-coercion.js';

const schema = {
  type: 'object',
  properties: {
    flag: { type: 'boolean' },
    count: { type: 'integer' },
    name: { type: 'string' },
    paths: { type: 'array', items: { type: 'string' } },
    nested: { type: 'object', properties: { on: { type: ['boolean', 'null'] } } },
    either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
  },
};

describe('coerceToSchema', () => {
  it('converts the types models get wrong, where the schema names one', () => {
    expect(
      coerceToSchema(schema, {
        flag: 'False',
        count: ' 30 ',
        name: 5,
        paths: '["a", 7]',
        nested: { on: 'true' },
        either: '12',
        extra: 'true',
      }),
    ).toEqual({
      flag: false,
      count: 30,
      name: '5',
      paths: ['a', '7'],
      nested: { on: true },
      either: '12',
      extra: 'true',
    });
  });

  it('leaves what does not clearly stand for the type', () => {
    const sent = { flag: 'yes', count: '3 files', paths: '[not json', nested: '{"on": 1' };
    expect(coerceToSchema(schema, sent)).toEqual(sent);
  });
});
