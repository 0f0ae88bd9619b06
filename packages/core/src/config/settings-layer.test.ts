/**
 * A settings layer is checked against the schema narrowed to the keys it sets (a start
 * compiles only those): every layer must meet exactly the problems, in the same order, that
 * the whole schema finds.
 */
import { describe, expect, it } from 'vitest';
import { schemaProblems } from '../utils/schema-validator.js';
import { getSettingsSchema, schemaForKeys } from './settings-layer.js';

const whole = getSettingsSchema();
const keys = Object.keys(whole.properties as object);

function sameProblems(layer: Record<string, unknown>) {
  const narrowed = schemaProblems(schemaForKeys(Object.keys(layer)), layer);
  expect(narrowed, JSON.stringify(layer)).toEqual(schemaProblems(whole, layer));
  return narrowed;
}

describe('the schema narrowed to a layer’s keys', () => {
  it('finds what the whole schema finds for each key set wrongly', () => {
    expect(keys.length).toBeGreaterThan(10);
    for (const key of keys) {
      expect(sameProblems({ [key]: 12345 }).length, key).toBeGreaterThan(0);
      sameProblems({ [key]: { notASetting: true, other: [1, 'x'] } });
      sameProblems({ [key]: ['x', 2, null] });
    }
  });

  it('finds the same problems, in the same order, for many keys at once and unknown ones', () => {
    const everything = Object.fromEntries(keys.map((key, index) => [key, index % 2 ? 7 : {}]));
    expect(sameProblems({ ...everything, notASetting: 1, another: {} }).length).toBeGreaterThan(
      keys.length / 2,
    );
    sameProblems({ notASetting: true });
    sameProblems({
      model: { name: 'm', baseUrl: 5 },
      tools: { shell: { sandbox: 'sometimes', allowEnv: 'HOME' } },
      mcpServers: { one: { command: 3, timeout: 'soon' }, two: { url: 'http://127.0.0.1:1' } },
    });
  });

  it('keeps the properties a kept key refers to, so its references resolve', () => {
    const narrowed = schemaForKeys(['checkpointing']);
    expect(Object.keys(narrowed.properties as object).sort()).toEqual(['checkpointing', 'general']);
    sameProblems({ checkpointing: { enabled: 'yes' } });
    sameProblems({ checkpointing: { enabled: true } });
    expect(narrowed.$id).toBeUndefined();
  });

  it('is the same object for the same keys, so each is compiled once', () => {
    expect(schemaForKeys(['model', 'tools'])).toBe(schemaForKeys(['tools', 'model', 'nope']));
    expect(schemaForKeys(['model'])).not.toBe(schemaForKeys(['tools']));
  });
});
