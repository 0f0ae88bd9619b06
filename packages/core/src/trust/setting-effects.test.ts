/**
 * Every key of the settings schema has an effect in SETTING_RULES: a key added to the
 * schema without one fails here (and is dropped from untrusted projects until it has one).
 */
import { describe, expect, it } from 'vitest';
import { getSettingsSchema } from '../config/settings-layer.js';
import { FLAT_ALIASES } from '../contract/settings-types.js';
import { isObject } from '../utils/json-schema.js';
import { hasRulesBelow, SETTING_RULES } from './setting-effects.js';

/** The schema's keys, dotted: leaves, and maps (`mcpServers`) as one key. */
function schemaKeys(node: Record<string, unknown>, prefix: string): string[] {
  const properties = node.properties;
  if (!isObject(properties)) return [prefix];
  return Object.entries(properties).flatMap(([name, child]) => {
    const key = prefix ? `${prefix}.${name}` : name;
    return isObject(child) ? schemaKeys(child, key) : [key];
  });
}

const keys = schemaKeys(getSettingsSchema(), '').filter((key) => !(key in FLAT_ALIASES));

/** The rule that covers `key`: its own, or a map's that holds it. */
function ruleFor(key: string): string | undefined {
  const parts = key.split('.');
  for (let length = parts.length; length > 0; length--) {
    const candidate = parts.slice(0, length).join('.');
    if (SETTING_RULES[candidate]) return candidate;
  }
  return undefined;
}

describe('SETTING_RULES', () => {
  it('classifies every key of the settings schema by its effect', () => {
    expect(keys.length).toBeGreaterThan(30);
    expect(keys.filter((key) => !ruleFor(key))).toEqual([]);
  });

  it('names whole only maps, never an object whose keys could differ in effect', () => {
    for (const key of Object.keys(SETTING_RULES)) {
      expect(keys.some((schemaKey) => schemaKey === key)).toBe(true);
      expect(hasRulesBelow(key)).toBe(false);
    }
  });

  it('resolves every older flat name to a classified key or a classified group', () => {
    for (const [flat, target] of Object.entries(FLAT_ALIASES)) {
      const key = target.join('.');
      expect(Boolean(SETTING_RULES[key]) || hasRulesBelow(key), flat).toBe(true);
    }
  });
});
