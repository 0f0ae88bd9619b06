import { describe, expect, it } from 'vitest';
import { checkSentDeclarations } from './declaration-checks.js';
import { PROVIDERS, type ProviderId } from './provider-rules.js';
import { type SchemaDialect, transformSchema } from './schema-transform.js';

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
    const folder = { $ref: '#/$defs/folder' };
    const folders = {
      type: 'object',
      properties: { top: folder },
      $defs: {
        folder: {
          type: 'object',
          required: ['label'],
          properties: { label: { type: 'string' }, inner: { type: 'array', items: folder } },
        },
      },
    };
    const out = transformSchema(folders, strict);
    const expanded = {
      type: 'object',
      properties: { label: { type: 'string' }, inner: { type: 'array', items: folder } },
      required: ['label'],
    };
    expect(out).toEqual({
      type: 'object',
      properties: { top: expanded },
      $defs: { folder: expanded },
    });
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
      required: ['c'],
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

/** An API that takes no constraint keyword: every one is written into the description. */
const wordsOnly: SchemaDialect = { constraints: new Set(), recursion: 'flatten' };
/** The converted properties of an object schema holding `properties`. */
const convertedProperties = (properties: Record<string, unknown>, dialect = compatible) =>
  transformSchema({ type: 'object', properties }, dialect).properties;

describe('transformSchema: constraints', () => {
  it('describes in words every constraint the API does not take, in a fixed order', () => {
    expect(
      convertedProperties(
        {
          s: {
            type: 'string',
            examples: ['ab', 'cd'],
            default: 'a',
            maxLength: 9,
            minLength: 1,
            pattern: '^a',
            format: 'uri',
          },
          n: {
            type: 'number',
            minimum: 0,
            maximum: 10,
            exclusiveMinimum: 0,
            exclusiveMaximum: 10,
            multipleOf: 2,
          },
          l: { type: 'array', items: {}, minItems: 1, maxItems: 3, uniqueItems: true },
          m: { type: 'object', minProperties: 1, maxProperties: 2, description: 'Map.' },
          // Draft 4's boolean exclusive bounds, uniqueItems false and no examples say nothing.
          quiet: {
            type: 'number',
            exclusiveMinimum: true,
            exclusiveMaximum: true,
            uniqueItems: false,
            examples: [],
          },
          odd: { type: 'string', examples: 'not a list' },
        },
        wordsOnly,
      ),
    ).toEqual({
      s: {
        type: 'string',
        description:
          'Format: uri. Must match the regular expression "^a". At least 1 characters. At most 9 characters. Default: "a". Example: "ab".',
      },
      n: {
        type: 'number',
        description: 'Minimum 0. Maximum 10. Greater than 0. Less than 10. A multiple of 2.',
      },
      l: {
        type: 'array',
        items: {},
        description: 'At least 1 items. At most 3 items. Items must be unique.',
      },
      m: { type: 'object', description: 'Map. At least 1 entries. At most 2 entries.' },
      quiet: { type: 'number' },
      odd: { type: 'string' },
    });
  });

  it('keeps the constraints the API takes as they are', () => {
    const kept = {
      type: 'string',
      format: 'uri',
      pattern: '^a',
      minLength: 1,
      maxLength: 9,
      default: 'a',
    };
    expect(
      convertedProperties({ kept, n: { type: 'integer', minimum: 1, multipleOf: 2 } }),
    ).toEqual({ kept, n: { type: 'integer', minimum: 1, multipleOf: 2 } });
    // Gemini takes minimum but not multipleOf: one kept, one in words.
    expect(
      convertedProperties({ n: { type: 'integer', minimum: 1, multipleOf: 2 } }, gemini),
    ).toEqual({ n: { type: 'integer', minimum: 1, description: 'A multiple of 2.' } });
  });

  it('keeps only the formats a dialect lists; without a list, every format', () => {
    const formats = {
      id: { type: 'string', format: 'uuid' },
      link: { type: 'string', format: 'uri' },
      odd: { type: 'string', format: 5 },
    };
    expect(convertedProperties(formats, strict)).toEqual({
      id: { type: 'string', format: 'uuid' },
      link: { type: 'string', description: 'Format: uri.' },
      odd: { type: 'string', description: 'Format: 5.' },
    });
    expect(convertedProperties(formats, gemini)).toEqual(formats);
  });
});

describe('transformSchema: types, descriptions and properties', () => {
  it('reads true, false and what is not a schema', () => {
    expect(
      convertedProperties({ yes: true, no: false, five: 5, text: 'x', nil: null, list: [] }),
    ).toEqual({
      yes: {},
      no: { description: 'No value is allowed here.' },
      five: {},
      text: {},
      nil: {},
      list: {},
    });
  });

  it('turns OpenAPI nullable into a null type, once', () => {
    expect(
      convertedProperties({
        a: { type: 'string', nullable: true },
        b: { type: 'null', nullable: true },
        c: { type: ['string', 'null'], nullable: true },
        d: { type: ['string', 'integer'], nullable: true },
        e: { nullable: true, description: 'Any.' },
        f: { type: 'string', nullable: 'yes' },
        g: { type: 5 },
      }),
    ).toEqual({
      a: { type: ['string', 'null'] },
      b: { type: 'null' },
      c: { type: ['string', 'null'] },
      d: { type: ['string', 'integer', 'null'] },
      e: { description: 'Any.' },
      f: { type: 'string' },
      g: {},
    });
  });

  it('takes the description, else the title', () => {
    expect(
      convertedProperties({
        both: { description: 'D', title: 'T' },
        title: { title: 'T' },
        emptyDescription: { description: '', title: 'T' },
        neither: { description: '', title: '' },
        notText: { description: 5, title: 6 },
      }),
    ).toEqual({
      both: { description: 'D' },
      title: { description: 'T' },
      emptyDescription: { description: 'T' },
      neither: {},
      notText: {},
    });
  });

  it('drops required names from an object that declares no properties', () => {
    // Any name at all, even one a stand-in value might use.
    for (const name of ['Stryker was here', 'a', ''])
      expect(convertedProperties({ box: { type: 'object', required: [name] } })).toEqual({
        box: { type: 'object' },
      });
  });

  it('keeps required names once, only those of properties that exist', () => {
    const out = transformSchema(
      {
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: 'string' } },
        required: ['a', 'a', 'ghost', 5, 'b'],
      },
      compatible,
    );
    expect(out.required).toEqual(['a', 'b']);
    const none = (schema: Record<string, unknown>) =>
      transformSchema({ type: 'object', ...schema }, compatible).required;
    expect(none({ properties: { a: {} }, required: ['ghost'] })).toBeUndefined();
    expect(none({ required: ['a'] })).toBeUndefined();
    expect(none({ properties: { a: {} }, required: 'a' })).toBeUndefined();
  });

  it('gives every array items, and a tuple one shape for its positions', () => {
    expect(
      convertedProperties({
        tuple: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] },
        bare: { type: 'array' },
        maybe: { type: ['array', 'null'] },
        text: { type: 'string' },
      }),
    ).toEqual({
      tuple: {
        type: 'array',
        items: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        description: 'Items in this order: 2 positions.',
      },
      bare: { type: 'array', items: {} },
      maybe: { type: ['array', 'null'], items: {} },
      text: { type: 'string' },
    });
  });

  it('keeps additionalProperties inside, and at the root only when it closes the object', () => {
    expect(
      convertedProperties(
        {
          closed: { type: 'object', additionalProperties: false },
          open: { type: 'object', additionalProperties: true },
          map: { type: 'object', additionalProperties: { type: 'string', minLength: 1 } },
        },
        gemini,
      ),
    ).toEqual({
      closed: { type: 'object', additionalProperties: false },
      open: { type: 'object', additionalProperties: true },
      map: {
        type: 'object',
        additionalProperties: { type: 'string', description: 'At least 1 characters.' },
      },
    });
    const root = (additionalProperties: unknown) =>
      transformSchema({ type: 'object', additionalProperties }, compatible).additionalProperties;
    expect(root(false)).toBe(false);
    expect(root(true)).toBeUndefined();
    expect(root({ type: 'string' })).toBeUndefined();
  });

  it('turns patternProperties into the shape of other keys, naming the patterns', () => {
    expect(
      convertedProperties({
        one: { type: 'object', patternProperties: { '^x-': { type: 'string' } } },
        two: { type: 'object', patternProperties: { '^a': { type: 'string' }, '^b': {} } },
        // With additionalProperties false, keys matching the pattern are the only ones allowed.
        only: {
          type: 'object',
          patternProperties: { '^x-': { type: 'integer' } },
          additionalProperties: false,
        },
        // An explicit shape for the other keys stays.
        other: {
          type: 'object',
          patternProperties: { '^x-': { type: 'integer' } },
          additionalProperties: { type: 'boolean' },
        },
      }),
    ).toEqual({
      one: {
        type: 'object',
        additionalProperties: { type: 'string' },
        description: 'Keys must match ^x-.',
      },
      two: { type: 'object', additionalProperties: true, description: 'Keys must match ^a or ^b.' },
      only: {
        type: 'object',
        additionalProperties: { type: 'integer' },
        description: 'Keys must match ^x-.',
      },
      other: { type: 'object', additionalProperties: { type: 'boolean' } },
    });
  });
});

describe('transformSchema: unions, enums and const', () => {
  it('merges a one-branch union, keeps longer ones, and says oneOf means exactly one', () => {
    const form = { properties: { a: { type: 'string' } }, required: ['a'] };
    expect(
      convertedProperties({
        single: { type: 'object', anyOf: [form] },
        singleOneOf: { type: 'object', oneOf: [form] },
        any: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        empty: { type: 'string', anyOf: [] },
      }),
    ).toEqual({
      single: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
      singleOneOf: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
      any: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      empty: { type: 'string' },
    });
  });

  it('keeps both anyOf and oneOf: each anyOf form combined with each oneOf form', () => {
    expect(
      convertedProperties({
        both: {
          anyOf: [{ type: 'string' }, { type: 'number' }],
          oneOf: [{ maxLength: 3 }, { minLength: 10 }],
        },
        oneEach: { anyOf: [{ type: 'string' }], oneOf: [{ maxLength: 3 }] },
        oneAny: { anyOf: [{ type: 'string' }], oneOf: [{ maxLength: 3 }, { minLength: 10 }] },
      }),
    ).toEqual({
      both: {
        anyOf: [
          { type: 'string', maxLength: 3 },
          { type: 'string', minLength: 10 },
          { type: 'number', maxLength: 3 },
          { type: 'number', minLength: 10 },
        ],
      },
      oneEach: { type: 'string', maxLength: 3 },
      oneAny: {
        anyOf: [
          { type: 'string', maxLength: 3 },
          { type: 'string', minLength: 10 },
        ],
      },
    });
  });

  it('keeps what each form of a union requires of the properties beside it', () => {
    const beside = { a: { type: 'string' }, b: { type: 'string' } };
    expect(
      convertedProperties({
        pick: {
          type: 'object',
          properties: beside,
          anyOf: [
            { required: ['a'] },
            { required: ['b', 'ghost', 5], properties: { b: { minLength: 1 } } },
            { required: ['a', 'b'], properties: { c: {} } },
            { required: [] },
          ],
        },
        alone: { anyOf: [{ required: ['a'] }, { required: ['b'] }] },
        // Only names (strings) count, and a branch that is no schema stays as it is.
        odd: { properties: { 5: {} }, anyOf: [null, { required: [5] }] },
      }),
    ).toEqual({
      pick: {
        type: 'object',
        properties: beside,
        anyOf: [
          { properties: { a: {} }, required: ['a'] },
          { properties: { b: { minLength: 1 } }, required: ['b'] },
          { properties: { c: {}, a: {}, b: {} }, required: ['a', 'b'] },
          {},
        ],
      },
      alone: { anyOf: [{}, {}] },
      odd: { properties: { 5: {} }, anyOf: [{}, {}] },
    });
  });

  it('gives an enum without a type the type its values share', () => {
    expect(
      convertedProperties({
        whole: { enum: [1, 2] },
        fraction: { enum: [1.5, 2.5] },
        wholeAndFraction: { enum: [1, 2.5] },
        text: { enum: ['a', 'b'] },
        flag: { enum: [true, false] },
        mixed: { enum: ['a', 1] },
        withNull: { enum: ['a', null] },
        nulls: { enum: [null] },
        objects: { enum: [{ a: 1 }] },
        typed: { type: 'string', enum: [1] },
      }),
    ).toEqual({
      whole: { enum: [1, 2], type: 'integer' },
      fraction: { enum: [1.5, 2.5], type: 'number' },
      wholeAndFraction: { enum: [1, 2.5], type: 'number' },
      text: { enum: ['a', 'b'], type: 'string' },
      flag: { enum: [true, false], type: 'boolean' },
      mixed: { enum: ['a', 1] },
      withNull: { enum: ['a', null] },
      nulls: { enum: [null] },
      objects: { enum: [{ a: 1 }] },
      typed: { type: 'string', enum: [1] },
    });
  });

  it('keeps const where the API takes it, else writes it as a one-value enum', () => {
    const consts = { zero: { const: 0 }, nil: { const: null }, no: { const: false } };
    expect(convertedProperties(consts)).toEqual(consts);
    expect(convertedProperties(consts, gemini)).toEqual({
      zero: { enum: [0], type: 'integer' },
      nil: { enum: [null] },
      no: { enum: [false], type: 'boolean' },
    });
  });
});

describe('transformSchema: references', () => {
  it('says in the description which reference could not be resolved', () => {
    expect(
      convertedProperties({
        local: { $ref: '#/nowhere', description: 'Where.' },
        remote: { $ref: 'https://example.com/schema.json' },
      }),
    ).toEqual({
      local: { description: 'Where. (#/nowhere could not be resolved: any value)' },
      remote: { description: '(https://example.com/schema.json could not be resolved: any value)' },
    });
  });

  it('skips allOf parts that are not schemas', () => {
    expect(convertedProperties({ a: { allOf: [true, 5, null, { type: 'string' }] } })).toEqual({
      a: { type: 'string' },
    });
  });

  it('carries the references an allOf part followed into the properties it brings', () => {
    const node = { type: 'object', properties: { child: { $ref: '#/$defs/node' } } };
    const out = transformSchema(
      {
        type: 'object',
        $defs: { node },
        properties: {
          tree: { allOf: [{ description: 'Tree.' }, { $ref: '#/$defs/node' }] },
        },
      },
      strict,
    );
    // The child points back at the node the allOf part resolved: recursion, so a $defs entry
    // at once rather than one more level written out.
    expect(out.properties).toEqual({
      tree: {
        type: 'object',
        description: 'Tree.',
        properties: { child: { $ref: '#/$defs/node' } },
      },
    });
    expect(out.$defs).toEqual({ node });
  });

  it('stops following a chain of more than 64 references: what is left is any value', () => {
    const chain = (length: number) => {
      const defs: Record<string, unknown> = { [`d${length}`]: { type: 'string' } };
      for (let i = 0; i < length; i++) defs[`d${i}`] = { $ref: `#/$defs/d${i + 1}` };
      return { type: 'object', $defs: defs, properties: { a: { $ref: '#/$defs/d0' } } };
    };
    // 64 references in all (the property's own and 63 more) are followed; 65 are not.
    expect(transformSchema(chain(63), compatible).properties).toEqual({ a: { type: 'string' } });
    expect(transformSchema(chain(64), compatible).properties).toEqual({ a: {} });
  });

  it('ends the bounded expansion with the shape of the type, keeping the description', () => {
    const nested = {
      type: 'object',
      $defs: { grid: { type: 'array', items: { $ref: '#/$defs/grid', description: 'Row.' } } },
      properties: { grid: { $ref: '#/$defs/grid' } },
    };
    let level = transformSchema(nested, compatible).properties as Record<string, unknown>;
    let node = level.grid as Record<string, unknown>;
    for (let depth = 0; depth < 3; depth++) {
      expect(node.type).toBe('array');
      node = node.items as Record<string, unknown>;
    }
    expect(node).toEqual({
      type: 'array',
      items: {},
      description:
        'Row. (Deeper levels of this nested structure have the same shape; they are not described further.)',
    });
    // Without a description of its own, the closing text stands alone.
    const plain = {
      ...nested,
      $defs: { grid: { type: 'array', items: { $ref: '#/$defs/grid' } } },
    };
    node = (transformSchema(plain, compatible).properties as Record<string, unknown>)
      .grid as Record<string, unknown>;
    for (let depth = 0; depth < 3; depth++) node = node.items as Record<string, unknown>;
    expect(node.description).toBe(
      '(Deeper levels of this nested structure have the same shape; they are not described further.)',
    );
    // A target without one type is described as an object.
    level = transformSchema({ properties: { self: { $ref: '#' } } }, compatible);
    for (let depth = 0; depth < 3; depth++)
      level = (level.properties as Record<string, Record<string, unknown>>).self!;
    expect(level.type).toBe('object');
    expect(level.items).toBeUndefined();
  });

  it('names $defs entries after the reference, uniquely, as names the APIs take', () => {
    const out = transformSchema(
      {
        type: 'object',
        $defs: { 'a b': { type: 'object', properties: { next: { $ref: '#/$defs/a%20b' } } } },
        definitions: {
          'a b': { type: 'object', properties: { again: { $ref: '#/definitions/a b' } } },
        },
        properties: {
          first: { $ref: '#/$defs/a%20b' },
          second: { $ref: '#/definitions/a b' },
          self: { $ref: '#', description: 'The same again.' },
          slash: { $ref: '#/' },
        },
      },
      strict,
    );
    expect(Object.keys(out.$defs as object)).toEqual(['a_20b', 'a_b', 'root', 'schema']);
    const properties = out.properties as Record<string, Record<string, unknown>>;
    expect(properties.self).toEqual({ $ref: '#/$defs/root', description: 'The same again.' });
    expect((properties.first!.properties as Record<string, unknown>).next).toEqual({
      $ref: '#/$defs/a_20b',
    });
    expect((properties.second!.properties as Record<string, unknown>).again).toEqual({
      $ref: '#/$defs/a_b',
    });
  });

  it('numbers $defs entries whose references end alike', () => {
    const out = transformSchema(
      {
        type: 'object',
        $defs: { x: { type: 'object', properties: { next: { $ref: '#/$defs/x' } } } },
        definitions: { x: { type: 'object', properties: { again: { $ref: '#/definitions/x' } } } },
        other: { x: { type: 'object', properties: { more: { $ref: '#/other/x' } } } },
        properties: {
          a: { $ref: '#/$defs/x' },
          b: { $ref: '#/definitions/x' },
          c: { $ref: '#/other/x' },
        },
      },
      strict,
    );
    expect(Object.keys(out.$defs as object)).toEqual(['x', 'x_2', 'x_3']);
    const properties = out.properties as Record<string, Record<string, Record<string, unknown>>>;
    expect(properties.b!.properties!.again).toEqual({ $ref: '#/$defs/x_2' });
    expect(properties.c!.properties!.more).toEqual({ $ref: '#/$defs/x_3' });
  });

  it('keeps a recursive reference inside allOf, with its description', () => {
    const schema = {
      type: 'object',
      $defs: {
        item: {
          type: 'object',
          properties: { parent: { allOf: [{ $ref: '#/$defs/item' }], description: 'Parent.' } },
        },
      },
      properties: { item: { $ref: '#/$defs/item' } },
    };
    const item = {
      type: 'object',
      properties: { parent: { $ref: '#/$defs/item', description: 'Parent.' } },
    };
    expect(transformSchema(schema, strict)).toEqual({
      type: 'object',
      properties: { item },
      $defs: { item },
    });
  });
});

describe('transformSchema: the root', () => {
  it('is always an object schema with properties', () => {
    for (const schema of [null, 5, 'x', [], {}, { type: 'string' }])
      expect(transformSchema(schema, compatible)).toEqual({ type: 'object', properties: {} });
  });

  it('merges the forms of a root union, requiring what every form requires', () => {
    const out = transformSchema(
      {
        type: 'object',
        description: 'Find a thing.',
        properties: { name: { type: 'string', description: 'Its name.' }, limit: {} },
        required: ['limit'],
        anyOf: [
          {
            description: 'by path',
            properties: { path: { type: 'string' }, name: { description: 'Exact.' } },
            required: ['path', 'name'],
          },
          { properties: { url: { type: 'string' } }, required: ['url', 'name'] },
          { properties: { name: { minLength: 1 } }, required: ['name'] },
        ],
      },
      compatible,
    );
    expect(out).toEqual({
      type: 'object',
      description:
        'Find a thing. Send the parameters of one of these forms, naming the required ones: 1) path, name (by path); 2) url, name; 3) name.',
      properties: {
        name: { type: 'string', description: 'Exact. Its name.', minLength: 1 },
        limit: {},
        path: { type: 'string' },
        url: { type: 'string' },
      },
      required: ['limit', 'name'],
    });
    const loose = transformSchema(
      {
        anyOf: [
          { properties: { a: {} } },
          { properties: { b: {} }, required: ['b'] },
          { description: 'nothing' },
        ],
      },
      compatible,
    );
    expect(loose.description).toBe(
      'Send the parameters of one of these forms, naming the required ones: 1) no required parameters; 2) b; 3) no required parameters (nothing).',
    );
    expect(loose.properties).toEqual({ a: {}, b: {} });
    expect(loose.required).toBeUndefined();
    // No form requires anything: neither does the merged object.
    const free = transformSchema(
      { anyOf: [{ properties: { a: {} } }, { properties: { b: {} } }] },
      compatible,
    );
    expect(free.properties).toEqual({ a: {}, b: {} });
    expect(free.required).toBeUndefined();
  });
});
