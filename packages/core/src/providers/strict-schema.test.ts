import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Config } from '../config/config.js';
import { CoreToolScheduler } from '../core/core-tool-scheduler.js';
import { createToolRegistry } from '../tools/builtin.js';
import { dropNullOptionals } from '../utils/json-schema.js';
import { validateAgainstSchema } from '../utils/schema-validator.js';
import { checkSentDeclarations } from './declaration-checks.js';
import { toOpenAITools } from './openai-chat.js';
import { PROVIDERS } from './provider-rules.js';
import { transformSchema } from './schema-transform.js';
import { toStrictSchema } from './strict-schema.js';

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

describe('the scheduler with a strict model', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'toolhost-strict-'));
    writeFileSync(path.join(root, 'a.txt'), 'one\ntwo\nthree\n');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('runs a call whose optional parameters arrive as null', async () => {
    const config = new Config({ roots: [root], settings: {}, homeDir: path.join(root, 'home') });
    const registry = createToolRegistry(config);
    const scheduler = new CoreToolScheduler({ config, toolRegistry: registry });
    const [call] = await scheduler.schedule(
      {
        id: 'c1',
        name: 'read_file',
        args: { absolute_path: path.join(root, 'a.txt'), offset: null, limit: null },
      },
      new AbortController().signal,
    );
    expect(call?.status).toBe('success');
    expect(call?.response.responseParts[0]?.functionResponse?.response?.output).toContain('two');
  });
});
