/**
 * Settings values as every layer reads them, below config/ so that trust/ and extensions/
 * can use them too: how layers combine (objects merge key by key, lists are replaced except
 * the few that add up), how a value names an environment variable (`$NAME`, `${NAME}`:
 * loading expands them, the trust cut drops a project's value that names one, so what is
 * cut is exactly what would expand), and what may name a context file.
 */

import type { Settings } from '../contract/settings-types.js';
import { isObject } from './json-schema.js';

/** Keys whose lists add up across layers, so a project cannot undo a user's exclusion or rule. */
const UNION_KEYS = new Set([
  'tools.exclude',
  'mcp.excluded',
  'permissions.allow',
  'permissions.ask',
  'permissions.deny',
  'context.includeDirectories',
]);

/** Deep-merges `upper` over `lower`: objects merge, lists are replaced (except UNION_KEYS). */
export function mergeSettings(lower: Settings, upper: Settings): Settings {
  return mergeObjects(
    lower as Record<string, unknown>,
    upper as Record<string, unknown>,
    '',
  ) as Settings;
}

function mergeObjects(
  lower: Record<string, unknown>,
  upper: Record<string, unknown>,
  prefix: string,
): Record<string, unknown> {
  const result: Record<string, unknown> = { ...lower };
  for (const [key, value] of Object.entries(upper)) {
    if (value === undefined) continue;
    const dotted = prefix ? `${prefix}.${key}` : key;
    const existing = result[key];
    if (UNION_KEYS.has(dotted) && Array.isArray(existing) && Array.isArray(value)) {
      result[key] = [...new Set([...existing, ...value])];
    } else if (prefix === 'hooks' && Array.isArray(existing) && Array.isArray(value)) {
      // Every layer's hooks run, as in Claude Code; a group two layers repeat runs once.
      const seen = new Set(existing.map((group) => JSON.stringify(group)));
      result[key] = [...existing, ...value.filter((group) => !seen.has(JSON.stringify(group)))];
    } else if (isObject(existing) && isObject(value)) {
      result[key] = mergeObjects(existing, value, dotted);
    } else {
      result[key] = value;
    }
  }
  return result;
}

/** A variable reference; group 1 is a braced name, group 2 a bare one. */
export const VARIABLE_REFERENCE = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g;

/** Whether `value` (or a string inside it) names an environment variable: `$NAME` or `${NAME}`. */
export function referencesVariable(value: unknown): boolean {
  if (typeof value === 'string') return new RegExp(VARIABLE_REFERENCE.source).test(value);
  if (Array.isArray(value)) return value.some(referencesVariable);
  if (typeof value === 'object' && value !== null)
    return Object.values(value).some(referencesVariable);
  return false;
}

/**
 * Whether `name` may name a context file: a plain file name looked up in the project's
 * folders and ~/.toolhost, never a path (no folder separator, not `.` or `..`). Settings
 * loading warns about the rest; Config checks again for settings a library hands in.
 */
export function isContextFileName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !/[/\\\0]/.test(name);
}
