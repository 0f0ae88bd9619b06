import { describe, expect, it } from 'vitest';
import { validateAgainstSchema } from './schema-validator.js';

const readFileSchema = {
  type: 'object',
  properties: {
    absolute_path: { type: 'string' },
    offset: { type: 'number', minimum: 0 },
    mode: { type: 'string', enum: ['a', 'b'] },
    todos: {
      type: 'array',
      items: { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] },
    },
  },
  required: ['absolute_path'],
};

describe('validateAgainstSchema', () => {
  it('accepts valid parameters', () => {
    expect(validateAgainstSchema(readFileSchema, { absolute_path: '/x' })).toBeNull();
  });

  it('names the parameter with the wrong type', () => {
    expect(validateAgainstSchema(readFileSchema, { absolute_path: 3 })).toBe(
      'absolute_path must be string',
    );
  });

  it('names a missing required parameter', () => {
    expect(validateAgainstSchema(readFileSchema, {})).toBe('absolute_path is required');
  });

  it('treats missing params as an empty object', () => {
    expect(validateAgainstSchema(readFileSchema, undefined)).toBe('absolute_path is required');
  });

  it('lists allowed enum values', () => {
    expect(validateAgainstSchema(readFileSchema, { absolute_path: '/x', mode: 'c' })).toBe(
      'mode must be one of "a", "b"',
    );
  });

  it('names nested array items', () => {
    const message = validateAgainstSchema(readFileSchema, {
      absolute_path: '/x',
      todos: [{ status: 'ok' }, {}],
    });
    expect(message).toBe('todos[1].status is required');
  });

  it('reports every problem at once', () => {
    const message = validateAgainstSchema(readFileSchema, { absolute_path: 1, offset: -1 });
    expect(message).toContain('absolute_path must be string');
    expect(message).toContain('offset must be >= 0');
  });

  it('rejects a non-object', () => {
    expect(validateAgainstSchema(readFileSchema, 'hello')).toBe(
      'params must be an object of named parameters',
    );
  });

  it('validates recursive $ref schemas without hanging', () => {
    const tree = {
      type: 'object',
      $defs: {
        node: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/node' } },
          },
          required: ['name'],
        },
      },
      properties: { root: { $ref: '#/$defs/node' } },
      required: ['root'],
    };
    const deep = { root: { name: 'a', children: [{ name: 'b', children: [{ children: [] }] }] } };
    expect(validateAgainstSchema(tree, deep)).toBe('root.children[0].children[0].name is required');
    expect(validateAgainstSchema(tree, { root: { name: 'a', children: [] } })).toBeNull();
  });

  it('answers a schema whose $ref loops on itself instead of hanging or throwing', () => {
    const selfRef = { $ref: '#', type: 'object' };
    expect(validateAgainstSchema(selfRef, { a: 1 })).toMatch(/\$ref references loop forever/);
  });

  it('supports draft 2020-12 schemas', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] },
      },
    };
    expect(validateAgainstSchema(schema, { pair: ['a', 1] })).toBeNull();
    expect(validateAgainstSchema(schema, { pair: [1, 1] })).toBe('pair[0] must be string');
  });

  it('explains an invalid schema instead of throwing', () => {
    const broken = { type: 'object', properties: { a: { $ref: '#/nowhere' } } };
    expect(validateAgainstSchema(broken, { a: 1 })).toMatch(/schema is invalid/);
  });

  it('checks formats', () => {
    const schema = { type: 'object', properties: { url: { type: 'string', format: 'uri' } } };
    expect(validateAgainstSchema(schema, { url: 'not a uri' })).toBe('url must match format "uri"');
  });
});
