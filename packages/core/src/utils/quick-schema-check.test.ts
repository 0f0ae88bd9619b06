import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from '../../test/helpers/temp-workspace.js';
import { Config } from '../config/config.js';
import { getSettingsSchema, schemaForKeys } from '../config/settings-layer.js';
import { createToolRegistry } from '../tools/builtin.js';
import { quickSchemaCheck } from './quick-schema-check.js';
import { ajvProblems, schemaProblems } from './schema-validator.js';

type Schema = Record<string, unknown>;

// The cases are listed while the file is collected, before any beforeAll runs.
const dirs: TempDirs = makeTempDirs();
afterAll(() => dirs.cleanup());

/** Every schema toolhost writes itself: each built-in's parameters, the settings schema whole and per key. */
function ownSchemas(): [string, Schema][] {
  const config = new Config({
    roots: [dirs.root],
    homeDir: dirs.home,
    settings: { webSearch: { provider: 'searxng', baseUrl: 'http://127.0.0.1:9' } },
  });
  const tools = createToolRegistry(config, { env: {} }).getAllTools();
  expect(tools.map((tool) => tool.name)).toContain('web_search');
  const { $id: _id, ...settings } = getSettingsSchema();
  const keys = Object.keys(settings.properties as Schema);
  return [
    ...tools.map((tool): [string, Schema] => [tool.name, tool.parameterSchema as Schema]),
    ['settings', settings],
    ...keys.map((key): [string, Schema] => [`settings ${key}`, schemaForKeys([key])]),
  ];
}

/** A seeded generator of values near what a schema accepts, and of values it refuses. */
function generator(seed: number, wildness: number) {
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const inherited = Object.create({ absolute_path: '/x', paths: ['a'], content: 'c' });
  const wild = () =>
    pick<unknown>([
      null,
      undefined,
      true,
      false,
      0,
      -0,
      -1,
      1.5,
      2 ** 53,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      '',
      'a',
      '😀',
      '\ud83d',
      'x'.repeat(40),
      [],
      [1, 1],
      ['a', 'a'],
      [{}, {}],
      {},
      { a: 1 },
      { a: undefined },
      inherited,
      new Date(0),
    ]);

  function value(root: Schema, schema: Schema, depth: number): unknown {
    if (random() < wildness || depth > 6) return wild();
    if (typeof schema.$ref === 'string') {
      const target = schema.$ref
        .slice(2)
        .split('/')
        .reduce<unknown>((node, key) => (node as Schema)[key], root);
      return value(root, target as Schema, depth + 1);
    }
    if (Array.isArray(schema.anyOf)) return value(root, pick(schema.anyOf) as Schema, depth + 1);
    if (Array.isArray(schema.enum))
      return random() < 0.85 ? pick(schema.enum) : pick(['', 'other']);
    const type = Array.isArray(schema.type) ? pick(schema.type) : schema.type;
    const near = (...bounds: unknown[]) =>
      bounds.filter((bound): bound is number => typeof bound === 'number');
    switch (type) {
      case 'string':
        return pick(['', 'a', 'ab', '😀😀', 'read_file', '/tmp/x', 'x'.repeat(5)]);
      case 'number':
      case 'integer': {
        const bounds = near(schema.minimum, schema.maximum, schema.exclusiveMinimum);
        return pick([
          0,
          1,
          -1,
          0.5,
          2,
          100,
          2.5,
          ...bounds,
          ...bounds.map((bound) => bound + pick([-1, 1, 0.5])),
        ]);
      }
      case 'boolean':
        return random() < 0.5;
      case 'null':
        return null;
      case 'array': {
        const items = (schema.items ?? {}) as Schema;
        const list = Array.from({ length: Math.floor(random() * 4) }, () =>
          value(root, items, depth + 1),
        );
        if (list.length > 0 && random() < 0.2) list.push(list[0]);
        return list;
      }
      default:
        return object(root, schema, depth);
    }
  }

  function object(root: Schema, schema: Schema, depth: number): Schema {
    const out: Schema = {};
    const required = new Set((schema.required ?? []) as string[]);
    for (const [key, sub] of Object.entries((schema.properties ?? {}) as Record<string, Schema>))
      if (random() < (required.has(key) ? 0.92 : 0.5)) out[key] = value(root, sub, depth + 1);
    // An unknown key in a closed object is wrong too: as likely as two wrong values, at most 0.2.
    if (random() < Math.min(0.2, wildness * 2)) {
      const extra = schema.additionalProperties;
      out[pick(['extra', 'other_key'])] =
        typeof extra === 'object' && extra !== null
          ? value(root, extra as Schema, depth + 1)
          : wild();
    }
    return out;
  }
  return (schema: Schema) => value(schema, schema, 0);
}

describe('the quick schema check', () => {
  const schemas = ownSchemas();

  it.each(schemas)('answers "valid" exactly when ajv finds no problem: %s', (name, schema) => {
    // The whole settings schema has many keys: each must be good for the whole to be.
    const generate = generator(7, name === 'settings' ? 0.002 : 0.12);
    let valid = 0;
    let invalid = 0;
    for (let round = 0; round < 1500; round++) {
      const data = generate(schema);
      const byAjv = ajvProblems(schema, data).length === 0;
      // Valid (true) is the only answer it gives; for the rest it hands over to ajv.
      expect({ data, quick: quickSchemaCheck(schema, data) === true }).toEqual({
        data,
        quick: byAjv,
      });
      if (byAjv) valid++;
      else invalid++;
    }
    // The generator reaches both sides of every schema.
    expect(valid).toBeGreaterThan(20);
    expect(invalid).toBeGreaterThan(20);
  });

  it('hands a schema with a keyword it does not know to ajv, whose answer stands', () => {
    const schema = { type: 'object', properties: { p: { type: 'string', pattern: '^a' } } };
    expect(quickSchemaCheck(schema, { p: 'b' })).toBeUndefined();
    expect(schemaProblems(schema, { p: 'b' }).map((problem) => problem.name)).toEqual(['p']);
    expect(schemaProblems(schema, { p: 'abc' })).toEqual([]);
  });

  it('hands a malformed schema to ajv, which reports it', () => {
    const schema = { type: 'object', properties: { p: { type: 'text' } } };
    expect(quickSchemaCheck(schema, { p: 'b' })).toBeUndefined();
    expect(schemaProblems(schema, { p: 'b' })[0]?.message).toContain('schema is invalid');
  });

  it('hands a $ref loop to ajv', () => {
    const schema = { definitions: { a: { $ref: '#/definitions/a' } }, $ref: '#/definitions/a' };
    expect(quickSchemaCheck(schema, 1)).toBeUndefined();
    expect(schemaProblems(schema, 1)[0]?.message).toMatch(/^This tool's parameter schema/);
  });
});
