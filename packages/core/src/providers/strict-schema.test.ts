import { describe, expect, it } from 'vitest';
import { dropNullOptionals } from '../utils/json-schema.js';
import { validateAgainstSchema } from '../utils/schema-validator.js';
import { checkSentDeclarations } from './declaration-checks.js';
import { toOpenAITools } from './openai-chat.js';
import { PROVIDERS } from './provider-rules.js';
import { CONSTRAINT_KEYWORDS, type ConstraintKeyword } from './schema-constraints.js';
import { STRUCTURAL_KEYWORDS, transformSchema } from './schema-transform.js';
import { STRICT_CONSTRAINTS, STRICT_KEYWORDS, toStrictSchema } from './strict-schema.js';

const strictDialect = PROVIDERS['openai-chat-strict'].dialect;

describe('toStrictSchema', () => {
  it('closes objects, requires every property and makes optional ones nullable', () => {
    const schema = transformSchema(
      {
        type: 'object',
        properties: {
          path: { type: 'string' },
          limit: { type: 'integer', minimum: 1 },
          mode: { enum: ['a', 'b'] },
          nested: {
            type: 'object',
            properties: { deep: { type: 'boolean' } },
            required: [],
          },
        },
        required: ['path'],
      },
      strictDialect,
    );
    const outcome = toStrictSchema(schema);
    expect(outcome).toEqual({
      schema: {
        type: 'object',
        properties: {
          path: { type: 'string' },
          limit: { type: ['integer', 'null'], minimum: 1 },
          mode: { enum: ['a', 'b', null], type: ['string', 'null'] },
          nested: {
            type: ['object', 'null'],
            properties: { deep: { type: ['boolean', 'null'] } },
            required: ['deep'],
            additionalProperties: false,
          },
        },
        required: ['path', 'limit', 'mode', 'nested'],
        additionalProperties: false,
      },
    });
  });

  it('refuses what strict mode cannot say: maps and values of any type', () => {
    const map = transformSchema(
      {
        type: 'object',
        properties: { env: { type: 'object', additionalProperties: { type: 'string' } } },
      },
      strictDialect,
    );
    expect(toStrictSchema(map)).toEqual({
      problem: 'an object with free-form keys (additionalProperties)',
    });
    const anything = transformSchema({ type: 'object', properties: { value: {} } }, strictDialect);
    expect(toStrictSchema(anything)).toEqual({ problem: 'a value of any type' });
  });

  it('sends such a tool non-strict and the others strict, all passing the checks', () => {
    const tools = toOpenAITools(
      [
        {
          name: 'map_tool',
          parametersJsonSchema: {
            type: 'object',
            properties: { env: { type: 'object', additionalProperties: { type: 'string' } } },
          },
        },
        {
          name: 'plain_tool',
          parametersJsonSchema: { type: 'object', properties: { a: { type: 'string' } } },
        },
      ],
      { strict: true },
    );
    expect(tools.map((tool) => [tool.function.name, tool.function.strict])).toEqual([
      ['map_tool', false],
      ['plain_tool', true],
    ]);
    expect(
      checkSentDeclarations(
        'openai-chat-strict',
        tools.map((tool) => ({
          name: tool.function.name,
          description: tool.function.description,
          parameters: tool.function.parameters as Record<string, unknown>,
          strict: tool.function.strict ?? false,
        })),
      ),
    ).toEqual([]);
  });

  it('turns the nulls a strict model sends back into absent parameters', () => {
    const original = {
      type: 'object',
      properties: {
        path: { type: 'string' },
        limit: { type: 'integer' },
        maybe: { type: ['string', 'null'] },
        nested: {
          type: 'object',
          properties: { flag: { type: 'boolean' } },
        },
        list: { type: 'array', items: { type: 'object', properties: { x: { type: 'number' } } } },
      },
      required: ['path'],
      additionalProperties: false,
    };
    const strictCall = {
      path: '/a',
      limit: null,
      maybe: null,
      nested: { flag: null },
      list: [{ x: null }, { x: 2 }],
    };
    const cleaned = dropNullOptionals(strictCall, original);
    expect(cleaned).toEqual({ path: '/a', maybe: null, nested: {}, list: [{}, { x: 2 }] });
    expect(validateAgainstSchema(original, cleaned)).toBeNull();
    expect(validateAgainstSchema(original, strictCall)).not.toBeNull();
  });
});

describe('toStrictSchema: the shapes strict mode takes', () => {
  const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    type: 'object',
    properties,
    required: Object.keys(properties),
    ...extra,
  });
  const problem = (schema: Record<string, unknown>) => {
    const outcome = toStrictSchema(schema);
    return 'problem' in outcome ? outcome.problem : null;
  };

  it('holds to the nesting limit of 10 levels, counting the root', () => {
    const nested = (levels: number) => {
      let schema: Record<string, unknown> = { type: 'string' };
      for (let i = 1; i < levels; i++) schema = object({ x: schema });
      return schema;
    };
    expect(problem(nested(10))).toBeNull();
    expect(problem(nested(11))).toBe('nesting deeper than 10 levels');
  });

  it('holds to 5000 properties and 1000 enum values in all', () => {
    const properties = (count: number) =>
      Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, { type: 'string' }]));
    expect(problem(object(properties(5000)))).toBeNull();
    expect(problem(object(properties(5001)))).toBe('more than 5000 properties');
    const values = (count: number) => Array.from({ length: count }, (_, i) => `v${i}`);
    expect(problem(object({ a: { enum: values(600) }, b: { enum: values(400) } }))).toBeNull();
    expect(problem(object({ a: { enum: values(600) }, b: { enum: values(401) } }))).toBe(
      'more than 1000 enum values',
    );
  });

  it('counts properties and enum values inside $defs too', () => {
    const defs = { big: { enum: Array.from({ length: 1001 }, (_, i) => i) } };
    expect(problem(object({ a: { $ref: '#/$defs/big' } }, { $defs: defs }))).toBe(
      'more than 1000 enum values',
    );
  });

  it('makes $defs strict and keeps them only at the root', () => {
    const outcome = toStrictSchema(
      object(
        { node: { $ref: '#/$defs/node' } },
        { $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } } } },
      ),
    );
    expect(outcome).toEqual({
      schema: {
        type: 'object',
        properties: { node: { $ref: '#/$defs/node' } },
        required: ['node'],
        additionalProperties: false,
        $defs: {
          node: {
            type: 'object',
            properties: { next: { anyOf: [{ $ref: '#/$defs/node' }, { type: 'null' }] } },
            required: ['next'],
            additionalProperties: false,
          },
        },
      },
    });
  });

  it('moves a description around a reference and drops its other siblings', () => {
    const outcome = toStrictSchema(
      object(
        {
          a: { $ref: '#/$defs/x', description: 'The x.', title: 'X' },
          b: { $ref: '#/$defs/x', title: 'X' },
        },
        { $defs: { x: { type: 'string' } } },
      ),
    );
    expect('schema' in outcome && outcome.schema.properties).toEqual({
      a: { description: 'The x.', anyOf: [{ $ref: '#/$defs/x' }] },
      b: { $ref: '#/$defs/x' },
    });
  });

  it('makes each anyOf branch strict', () => {
    expect(problem(object({ a: { anyOf: [{ type: 'string' }, { type: 'object' }] } }))).toBe(
      'an object of any shape',
    );
    const outcome = toStrictSchema(
      object({ a: { anyOf: [{ type: 'string' }, object({ b: { type: 'number' } })] } }),
    );
    expect('schema' in outcome && outcome.schema.properties).toEqual({
      a: {
        anyOf: [
          { type: 'string' },
          {
            type: 'object',
            properties: { b: { type: 'number' } },
            required: ['b'],
            additionalProperties: false,
          },
        ],
      },
    });
  });

  it('takes a value given only by enum or const', () => {
    expect(problem(object({ a: { enum: ['x'] }, b: { const: 'y' } }))).toBeNull();
  });

  it('refuses what it cannot express, saying what', () => {
    expect(problem(object({ a: { type: 'object', additionalProperties: true } }))).toBe(
      'an object with free-form keys (additionalProperties)',
    );
    expect(problem(object({ a: { type: 'object' } }))).toBe('an object of any shape');
    expect(problem(object({ a: { type: 'string', properties: {} } }))).toBe(
      'an object of any shape',
    );
    expect(problem(object({ a: { type: 'array' } }))).toBe('an array without an item schema');
    expect(problem(object({ a: true }))).toBe('a schema that is not an object');
    expect(problem(object({ a: { type: 'array', items: {} } }))).toBe('a value of any type');
  });

  it('takes a closed empty object, and an empty object at the root', () => {
    expect(problem({ type: 'object', properties: {} })).toBeNull();
    expect(problem(object({ a: { type: 'object', additionalProperties: false } }))).toBeNull();
  });

  it('makes optional properties of every kind nullable, without doubling null', () => {
    const outcome = toStrictSchema({
      type: 'object',
      properties: {
        text: { type: 'string' },
        nothing: { type: 'null' },
        choice: { type: 'string', enum: ['a', null] },
        many: { type: ['string', 'number'], enum: ['a', 1] },
        maybe: { type: ['string', 'null'] },
        union: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        unionWithNull: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        fixed: { const: 'x', description: 'Always x.' },
        plain: { enum: ['a'] },
      },
      required: [],
    });
    expect('schema' in outcome && outcome.schema.properties).toEqual({
      text: { type: ['string', 'null'] },
      nothing: { type: 'null' },
      choice: { type: ['string', 'null'], enum: ['a', null] },
      many: { type: ['string', 'number', 'null'], enum: ['a', 1, null] },
      maybe: { type: ['string', 'null'] },
      union: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] },
      unionWithNull: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      fixed: { description: 'Always x.', anyOf: [{ const: 'x' }, { type: 'null' }] },
      plain: { anyOf: [{ enum: ['a'] }, { type: 'null' }] },
    });
  });

  it('counts nesting through unions and arrays too', () => {
    const arrays = (levels: number) => {
      let schema: Record<string, unknown> = { type: 'string' };
      for (let i = 1; i < levels; i++) schema = { type: 'array', items: schema };
      return object({ a: schema });
    };
    expect(problem(arrays(9))).toBeNull();
    expect(problem(arrays(10))).toBe('nesting deeper than 10 levels');
    const unions = (levels: number) => {
      let schema: Record<string, unknown> = { type: 'string' };
      for (let i = 1; i < levels; i++) schema = { anyOf: [schema, { type: 'null' }] };
      return object({ a: schema });
    };
    expect(problem(unions(9))).toBeNull();
    expect(problem(unions(10))).toBe('nesting deeper than 10 levels');
  });

  it('holds $defs entries to the same rules as properties', () => {
    expect(
      problem(
        object({ a: { $ref: '#/$defs/x' } }, { $defs: { x: { type: 'object', properties: {} } } }),
      ),
    ).toBe('an object of any shape');
  });

  it('makes every property optional in an object without a required list, whatever its name', () => {
    for (const name of ['Stryker was here', 'a']) {
      const outcome = toStrictSchema({
        type: 'object',
        properties: { [name]: { type: 'string' } },
      });
      expect('schema' in outcome && outcome.schema.properties).toEqual({
        [name]: { type: ['string', 'null'] },
      });
    }
  });

  it('holds array items to the rule of inner objects, not the root', () => {
    // An empty object is allowed at the root only; as an item it could be any shape.
    expect(
      problem(object({ list: { type: 'array', items: { type: 'object', properties: {} } } })),
    ).toBe('an object of any shape');
    expect(problem({ type: 'array', items: { type: 'object', properties: {} } })).toBe(
      'an object of any shape',
    );
  });

  it('counts only a list as required', () => {
    const outcome = toStrictSchema({
      type: 'object',
      properties: { a: { type: 'string' } },
      required: 'a',
    });
    expect('schema' in outcome && outcome.schema.properties).toEqual({
      a: { type: ['string', 'null'] },
    });
  });

  it('lets null through a union limited by an enum by wrapping it', () => {
    const outcome = toStrictSchema({
      type: 'object',
      properties: { a: { anyOf: [{ type: 'string' }, { type: 'number' }], enum: ['x', 1] } },
    });
    expect('schema' in outcome && outcome.schema.properties).toEqual({
      a: {
        anyOf: [
          { anyOf: [{ type: 'string' }, { type: 'number' }], enum: ['x', 1] },
          { type: 'null' },
        ],
      },
    });
  });

  it('passes on errors that are not about the schema', () => {
    const broken = {
      type: 'object',
      get properties(): Record<string, unknown> {
        throw new TypeError('a getter failed');
      },
    };
    expect(() => toStrictSchema(broken)).toThrow('a getter failed');
  });

  it('keeps the string formats strict mode takes and describes the others', () => {
    const taken = {
      when: { type: 'string', format: 'date-time' },
      at: { type: 'string', format: 'time' },
      day: { type: 'string', format: 'date' },
      length: { type: 'string', format: 'duration' },
      mail: { type: 'string', format: 'email' },
      host: { type: 'string', format: 'hostname' },
      v4: { type: 'string', format: 'ipv4' },
      v6: { type: 'string', format: 'ipv6' },
      id: { type: 'string', format: 'uuid' },
    };
    const out = transformSchema(
      {
        type: 'object',
        properties: { ...taken, link: { type: 'string', format: 'uri' } },
        required: Object.keys(taken),
      },
      strictDialect,
    );
    expect(out.properties).toEqual({
      ...taken,
      link: { type: 'string', description: 'Format: uri.' },
    });
  });
});

describe('toStrictSchema: only the keywords strict mode is known to take', () => {
  /** A value for every constraint the transform knows; a new one must be given one here. */
  const SAMPLES: Record<ConstraintKeyword, unknown> = {
    format: 'uuid',
    pattern: '^a',
    minLength: 1,
    maxLength: 9,
    minimum: 0,
    maximum: 5,
    exclusiveMinimum: -1,
    exclusiveMaximum: 6,
    multipleOf: 1,
    minItems: 1,
    maxItems: 3,
    uniqueItems: true,
    minProperties: 1,
    maxProperties: 4,
    default: 'a',
    examples: ['a'],
  };
  /** Every keyword the transform may emit, as far as the transform says. */
  const EMITTED = [...STRUCTURAL_KEYWORDS, ...CONSTRAINT_KEYWORDS];

  const keywordsIn = (node: unknown, found = new Set<string>()): Set<string> => {
    if (Array.isArray(node)) for (const item of node) keywordsIn(item, found);
    else if (node !== null && typeof node === 'object')
      for (const [key, value] of Object.entries(node)) {
        found.add(key);
        // Names of properties and $defs entries are no keywords; their schemas are.
        if (key === 'properties' || key === '$defs')
          for (const inner of Object.values(value as object)) keywordsIn(inner, found);
        else if (key !== 'enum' && key !== 'const' && key !== 'required') keywordsIn(value, found);
      }
    return found;
  };

  it('knows every keyword the transform emits: taken as it is, or worded by the transform', () => {
    const unknown = EMITTED.filter(
      (keyword) =>
        !STRICT_KEYWORDS.has(keyword) &&
        !(CONSTRAINT_KEYWORDS as readonly string[]).includes(keyword),
    );
    expect(unknown).toEqual([]);
    expect(strictDialect.constraints).toBe(STRICT_CONSTRAINTS);
    expect(PROVIDERS['openai-responses'].dialect).toBe(strictDialect);
  });

  it("sends no keyword outside its list, whatever the tool's schema uses", () => {
    const everything = {
      type: 'object',
      title: 'Everything',
      properties: {
        ...Object.fromEntries(
          CONSTRAINT_KEYWORDS.map((keyword) => [
            keyword,
            { type: 'string', [keyword]: SAMPLES[keyword] },
          ]),
        ),
        tree: { $ref: '#/$defs/node' },
        choice: { oneOf: [{ type: 'string' }, { type: 'number', nullable: true }] },
        pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] },
        merged: {
          allOf: [{ type: 'object', properties: { a: { const: 1 } } }, { required: ['a'] }],
        },
        picked: { enum: ['a', 'b'], not: { const: 'c' } },
      },
      $defs: {
        node: {
          type: 'object',
          properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } },
        },
      },
    };
    const transformed = transformSchema(everything, strictDialect);
    const strictened = toStrictSchema(transformed);
    if (!('schema' in strictened)) throw new Error(strictened.problem);
    const sent = keywordsIn(strictened.schema);
    expect([...sent].filter((keyword) => !STRICT_KEYWORDS.has(keyword))).toEqual([]);
    // The schema did reach every part: the recursion, the union, the tuple, the constraints.
    expect([...sent].sort()).toEqual([...STRICT_KEYWORDS].sort());
  });

  it('words a constraint it does not take, and refuses any other keyword, when given one directly', () => {
    const given = {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Who.', minLength: 2, format: 'uri', pattern: '^a' },
        tag: { type: 'string', examples: [], maxLength: 4 },
        size: { type: 'integer', default: 3 },
        note: { type: 'string', description: 'Note.', examples: [] },
        plain: { type: 'string', examples: [] },
      },
      required: ['name', 'tag', 'size', 'note', 'plain'],
    };
    expect(toStrictSchema(given)).toEqual({
      schema: {
        type: 'object',
        properties: {
          name: {
            type: 'string',
            description: 'Who. At least 2 characters. Format: uri.',
            pattern: '^a',
          },
          tag: { type: 'string', description: 'At most 4 characters.' },
          size: { type: 'integer', description: 'Default: 3.' },
          note: { type: 'string', description: 'Note.' },
          plain: { type: 'string' },
        },
        required: ['name', 'tag', 'size', 'note', 'plain'],
        additionalProperties: false,
      },
    });
    for (const keyword of ['not', 'title', 'oneOf', 'if'])
      expect(
        toStrictSchema({ type: 'object', properties: { a: { type: 'string', [keyword]: {} } } }),
      ).toEqual({ problem: `the keyword ${keyword}` });
  });
});
