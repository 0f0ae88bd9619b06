import { describe, expect, it } from 'vitest';
import { validateAgainstSchema } from '../utils/schema-validator.js';
import { checkSentDeclarations } from './declaration-checks.js';
import { PROVIDERS, type ProviderId } from './provider-rules.js';
import { transformSchema } from './schema-transform.js';

const compatible = PROVIDERS['openai-chat'].dialect;
const strict = PROVIDERS['openai-chat-strict'].dialect;
const gemini = PROVIDERS.gemini.dialect;

describe('transformSchema', () => {
  it('resolves references, keeping the siblings beside them', () => {
    const schema = {
      type: 'object',
      $defs: { point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
      properties: { at: { $ref: '#/$defs/point', description: 'where' } },
      required: ['at', 'ghost'],
    };
    expect(transformSchema(schema, compatible)).toEqual({
      type: 'object',
      properties: {
        at: {
          type: 'object',
          description: 'where',
          properties: { x: { type: 'number' } },
          required: ['x'],
        },
      },
      required: ['at'],
    });
  });

  it('merges allOf with its $ref parts, keeping their properties and required', () => {
    const schema = {
      definitions: {
        base: {
          type: 'object',
          properties: { id: { type: 'string' } },
          required: ['id'],
        },
      },
      type: 'object',
      properties: {
        item: {
          allOf: [
            { $ref: '#/definitions/base' },
            { properties: { label: { type: 'string' } }, required: ['label'] },
          ],
        },
      },
    };
    const out = transformSchema(schema, compatible);
    expect(out.properties).toEqual({
      item: {
        type: 'object',
        properties: { id: { type: 'string' }, label: { type: 'string' } },
        required: ['id', 'label'],
      },
    });
  });

  it('keeps items on nullable arrays and turns OpenAPI nullable into a null type', () => {
    const out = transformSchema(
      {
        type: 'object',
        properties: {
          tags: { type: ['array', 'null'], items: { type: 'string' } },
          note: { type: 'string', nullable: true },
        },
      },
      compatible,
    );
    expect(out.properties).toEqual({
      tags: { type: ['array', 'null'], items: { type: 'string' } },
      note: { type: ['string', 'null'] },
    });
  });

  it('turns a root union into one object whose description names the forms', () => {
    const out = transformSchema(
      {
        type: 'object',
        properties: { common: { type: 'string' } },
        anyOf: [
          { properties: { path: { type: 'string' } }, required: ['path'] },
          { properties: { url: { type: 'string' } }, required: ['url'] },
        ],
      },
      compatible,
    );
    expect(out.anyOf).toBeUndefined();
    expect(out.type).toBe('object');
    expect(Object.keys(out.properties as object)).toEqual(['common', 'path', 'url']);
    expect(out.required).toBeUndefined();
    expect(out.description).toContain('1) path; 2) url');
  });

  it('keeps recursion through $defs where the API takes it', () => {
    const tree = {
      type: 'object',
      $defs: {
        node: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/node' } },
          },
        },
      },
      properties: { root: { $ref: '#/$defs/node' } },
    };
    const out = transformSchema(tree, strict);
    const root = (out.properties as Record<string, Record<string, unknown>>).root!;
    expect((root.properties as Record<string, unknown>).children).toEqual({
      type: 'array',
      items: { $ref: '#/$defs/node' },
    });
    expect(out.$defs).toEqual({
      node: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          children: { type: 'array', items: { $ref: '#/$defs/node' } },
        },
      },
    });
    // A value three levels deep is still described (not collapsed to a bare object).
    const deep = { root: { name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }] } };
    expect(validateAgainstSchema(out, deep)).toBeNull();
  });

  it('expands recursion to a bounded depth where $defs is not taken', () => {
    const list = {
      type: 'object',
      properties: { head: { $ref: '#' }, value: { type: 'number' } },
    };
    const out = transformSchema(list, compatible);
    let level = out;
    let depth = 0;
    while ((level.properties as Record<string, Record<string, unknown>> | undefined)?.head) {
      level = (level.properties as Record<string, Record<string, unknown>>).head!;
      depth++;
    }
    expect(depth).toBe(3);
    expect(level.description).toMatch(/same shape/);
    expect(JSON.stringify(out)).not.toContain('$ref');
  });

  it('writes constraints the API does not take into the description', () => {
    const out = transformSchema(
      {
        type: 'object',
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 10, description: 'A name.' },
          when: { type: 'string', format: 'date-time', default: 'now' },
          kind: { const: 'x' },
        },
      },
      gemini,
    );
    expect(out.properties).toEqual({
      name: {
        type: 'string',
        description: 'A name. At least 1 characters. At most 10 characters.',
      },
      when: { type: 'string', format: 'date-time', description: 'Default: "now".' },
      kind: { enum: ['x'], type: 'string' },
    });
  });

  it('turns oneOf into anyOf', () => {
    const out = transformSchema(
      { type: 'object', properties: { v: { oneOf: [{ type: 'string' }, { type: 'number' }] } } },
      compatible,
    );
    expect(out.properties).toEqual({
      v: {
        anyOf: [{ type: 'string' }, { type: 'number' }],
        description: 'Exactly one form applies.',
      },
    });
  });

  it('gives every provider a schema its checks accept, for an awkward schema', () => {
    const awkward = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $defs: {
        node: {
          type: 'object',
          properties: { kids: { type: 'array', items: { $ref: '#/$defs/node' } } },
        },
      },
      anyOf: [{ required: ['a'] }, { required: ['b'] }],
      type: 'object',
      properties: {
        a: { type: 'string', pattern: '^x', format: 'uri' },
        b: { allOf: [{ $ref: '#/$defs/node' }], title: 'B' },
        c: { type: ['array', 'null'], items: { type: 'integer', exclusiveMinimum: 0 } },
        d: { oneOf: [{ const: 1 }, { const: 'one' }] },
      },
      additionalProperties: false,
    };
    const providers: ProviderId[] = [
      'openai-chat',
      'openai-responses',
      'gemini',
      'anthropic',
      'ai-sdk',
    ];
    for (const provider of providers) {
      const parameters = transformSchema(awkward, PROVIDERS[provider].dialect);
      expect(
        checkSentDeclarations(provider, [{ name: 'awkward', parameters }]).filter(
          (problem) => !problem.includes('additionalProperties: false'),
        ),
      ).toEqual([]);
    }
  });
});
