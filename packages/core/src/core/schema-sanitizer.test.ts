import { describe, expect, it } from 'vitest';
import { toOpenAITools } from './openai-adapter.js';
import { sanitizeSchemaForOpenAI } from './schema-sanitizer.js';

describe('sanitizeSchemaForOpenAI', () => {
  it('inlines $ref from $defs and drops unsupported keywords, keeping required', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      $defs: {
        point: {
          type: 'object',
          properties: { x: { type: 'number', examples: [1] } },
          required: ['x'],
        },
      },
      properties: {
        at: { $ref: '#/$defs/point', description: 'where' },
        when: { type: 'string', format: 'date-time', default: 'now' },
      },
      required: ['at', 'ghost'],
      additionalProperties: false,
    };
    expect(sanitizeSchemaForOpenAI(schema)).toEqual({
      type: 'object',
      properties: {
        at: {
          type: 'object',
          properties: { x: { type: 'number' } },
          required: ['x'],
          description: 'where',
        },
        when: { type: 'string' },
      },
      required: ['at'],
      additionalProperties: false,
    });
  });

  it('cuts recursive references instead of looping', () => {
    const tree = {
      type: 'object',
      definitions: {
        node: {
          type: 'object',
          properties: { children: { type: 'array', items: { $ref: '#/definitions/node' } } },
        },
      },
      properties: { root: { $ref: '#/definitions/node' } },
    };
    expect(sanitizeSchemaForOpenAI(tree)).toEqual({
      type: 'object',
      properties: {
        root: {
          type: 'object',
          properties: { children: { type: 'array', items: { type: 'object' } } },
        },
      },
    });
  });

  it('turns oneOf into anyOf and merges allOf', () => {
    expect(
      sanitizeSchemaForOpenAI({
        type: 'object',
        properties: { v: { oneOf: [{ type: 'string' }, { type: 'number' }] } },
        allOf: [
          { properties: { a: { type: 'string' } }, required: ['a'] },
          { properties: { b: { type: 'string' } } },
        ],
      }),
    ).toEqual({
      type: 'object',
      properties: {
        v: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        a: { type: 'string' },
        b: { type: 'string' },
      },
      required: ['a'],
    });
  });

  it('is applied by toOpenAITools unless asked not to', () => {
    const declaration = {
      name: 't',
      parametersJsonSchema: { type: 'object', $schema: 'x', properties: {} },
    };
    expect(toOpenAITools([declaration])[0]?.function.parameters).toEqual({
      type: 'object',
      properties: {},
    });
    expect(toOpenAITools([declaration], { sanitize: false })[0]?.function.parameters).toEqual(
      declaration.parametersJsonSchema,
    );
  });
});
