/** How settings layers combine: objects merge key by key, lists are replaced except the few that add up (exclusions, hooks). */

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
