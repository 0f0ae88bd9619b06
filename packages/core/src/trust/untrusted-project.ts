/**
 * What project files may do in a folder the person has not trusted (`toolhost trust`). This
 * folder owns that decision: setting-effects.ts lists every settings key by effect, and
 * this file cuts an untrusted project's settings layer down to what only makes toolhost
 * stricter, naming what it dropped for one warning. It decides nothing about which folders
 * are trusted (config/trusted-folders.ts) and reads no files: the settings loader hands it
 * the project's layer and the person's own settings.
 */
import { FLAT_ALIASES, type Settings } from '../contract/settings-types.js';
import { isObject } from '../utils/json-schema.js';
import { referencesVariable } from '../utils/settings-values.js';
import {
  EFFECT_PHRASES,
  hasRulesBelow,
  SETTING_RULES,
  type SettingEffect,
} from './setting-effects.js';

export type LooseningEffect = Exclude<SettingEffect, 'harmless'> | 'unclassified';

export interface DroppedSetting {
  /** The key as the file spells it (an older flat name stays flat). */
  key: string;
  effect: LooseningEffect;
}

/**
 * Removes from `layer` (a project's settings, checked against the schema, older names not
 * yet resolved) every key that would loosen what `person` (the person's own settings)
 * allows, and returns them. A value naming an environment variable is dropped too: the
 * project would otherwise copy the person's secrets into settings that travel.
 */
export function cutUntrustedProject(
  layer: Record<string, unknown>,
  person: Settings,
): DroppedSetting[] {
  const dropped: DroppedSetting[] = [];
  cut(layer, '', '', person, dropped);
  return dropped;
}

function cut(
  node: Record<string, unknown>,
  written: string,
  canonical: string,
  person: Settings,
  dropped: DroppedSetting[],
): void {
  for (const [name, value] of Object.entries(node)) {
    const key = written ? `${written}.${name}` : name;
    const alias = written ? undefined : FLAT_ALIASES[name];
    const path = alias ? alias.join('.') : canonical ? `${canonical}.${name}` : name;
    const rule = SETTING_RULES[path];
    if (!rule && isObject(value) && hasRulesBelow(path)) {
      cut(value, key, path, person, dropped);
      if (Object.keys(value).length === 0) delete node[name];
      continue;
    }
    const effect = looseningEffect(path, value, person);
    if (effect) {
      delete node[name];
      dropped.push({ key, effect });
    }
  }
}

/** Why a project's value at `path` must go, or undefined when it may stay. */
function looseningEffect(
  path: string,
  value: unknown,
  person: Settings,
): LooseningEffect | undefined {
  if (referencesVariable(value)) return 'environment';
  const rule = SETTING_RULES[path];
  if (!rule) return 'unclassified';
  if (rule.effect === 'harmless') return undefined;
  const own = valueAt(person, path);
  if (JSON.stringify(value) === JSON.stringify(own)) return undefined;
  return rule.noLooser?.(value, own) ? undefined : rule.effect;
}

/** The value at a dotted key, or undefined. */
export function valueAt(settings: Settings, path: string): unknown {
  let node: unknown = settings;
  for (const segment of path.split('.')) {
    if (!isObject(node)) return undefined;
    node = node[segment];
  }
  return node;
}

/** The one warning for a cut: the file, the keys, what they would have done, and the way out. */
export function untrustedProjectMessage(root: string, dropped: readonly DroppedSetting[]): string {
  const byEffect = new Map<LooseningEffect, string[]>();
  for (const { key, effect } of dropped)
    byEffect.set(effect, [...(byEffect.get(effect) ?? []), key]);
  const effects = [...byEffect].map(([effect, keys]) => {
    const phrase =
      effect === 'unclassified' ? 'done what toolhost cannot vouch for' : EFFECT_PHRASES[effect];
    return `${phrase} (${keys.join(', ')})`;
  });
  return `ignored, because ${root} is not a trusted folder: until you trust it, a project's settings may only make toolhost stricter, and these would have ${effects.join('; ')}. If you trust this project, run "toolhost trust" in it.`;
}
