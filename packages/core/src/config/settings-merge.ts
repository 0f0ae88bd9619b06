/** How settings layers combine: objects merge key by key, lists are replaced except the few that add up. */
import { isObject } from '../utils/json-schema.js';
import type { Settings } from './settings-types.js';

/** Keys whose lists add up across layers, so a project cannot undo a user's exclusion. */
const UNION_KEYS = new Set(['tools.exclude', 'mcp.excluded', 'context.includeDirectories']);

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
    } else if (isObject(existing) && isObject(value)) {
      result[key] = mergeObjects(existing, value, dotted);
    } else {
      result[key] = value;
    }
  }
  return result;
}
