/**
 * Qwen Code's settings as toolhost reads them: where its files are (read as layers below
 * toolhost's own), its names for keys toolhost has under other names (renamed before a
 * layer is checked), and its keys toolhost does not support (left out with one warning
 * per file naming them, instead of one "not a toolhost setting" each). What toolhost
 * does with a key once it has its own name is settings.ts' and the schema's business.
 */
import os from 'node:os';
import path from 'node:path';
import { isObject } from '../utils/json-schema.js';
import { QWEN_UNSUPPORTED_KEYS } from './qwen-unsupported-keys.js';
import type { SettingsWarning } from './settings-warning.js';

/** Qwen Code's name of a setting → toolhost's, both dotted. */
export const QWEN_KEY_NAMES: Readonly<Record<string, string>> = {
  'tools.shell.defaultTimeoutMs': 'tools.shell.defaultTimeout',
  'tools.truncateToolOutputThreshold': 'tools.truncateOutputThreshold',
  'tools.truncateToolOutputLines': 'tools.truncateOutputLines',
  'tools.toolSearch.enabled': 'tools.deferLoading',
  'general.defaultFileEncoding': 'files.defaultEncoding',
  'model.generationConfig.timeout': 'model.timeout',
  'model.generationConfig.maxRetries': 'model.maxRetries',
  'model.generationConfig.contextWindowSize': 'model.contextWindow',
  'security.auth.apiKey': 'model.apiKey',
  'security.auth.baseUrl': 'model.baseUrl',
};

/** Qwen Code's user and project settings files, each read just below toolhost's own. */
export function qwenSettingsPaths(
  homeDir: string = os.homedir(),
  workspaceRoot: string,
): {
  user: string;
  project: string;
} {
  return {
    user: path.join(homeDir, '.qwen', 'settings.json'),
    project: path.join(workspaceRoot, '.qwen', 'settings.json'),
  };
}

/**
 * Renames Qwen Code's keys in `layer` (a settings file's object, changed in place) to
 * toolhost's and removes the Qwen Code keys toolhost does not support, with one warning
 * naming them. `supported(path)` says whether toolhost's schema has a key: a key another
 * part of toolhost took up is never dropped here. Returns toolhost's name → the name as
 * written, so later warnings can name what the file says.
 */
export function adoptQwenKeys(
  layer: Record<string, unknown>,
  source: string,
  warnings: SettingsWarning[],
  supported: (keyPath: string[]) => boolean,
): Map<string, string> {
  const written = new Map<string, string>();
  for (const [qwenName, ownName] of Object.entries(QWEN_KEY_NAMES)) {
    const from = qwenName.split('.');
    if (!hasAt(layer, from)) continue;
    const value = takeAt(layer, from);
    const to = ownName.split('.');
    if (hasAt(layer, to)) {
      warnings.push({
        source,
        key: qwenName,
        message: `is Qwen Code's name of ${ownName}, which is also set; ${ownName} was used.`,
      });
      continue;
    }
    putAt(layer, to, value);
    written.set(ownName, qwenName);
  }
  adoptQwenTheme(layer, written);
  const dropped: string[] = [];
  dropUnsupported(layer, [], supported, dropped);
  if (dropped.length > 0) {
    warnings.push({
      source,
      key: dropped.join(', '),
      message: `${dropped.length === 1 ? 'is a Qwen Code setting' : 'are Qwen Code settings'} toolhost does not support, so ${dropped.length === 1 ? 'it has' : 'they have'} no effect here (the README's "Qwen Code compatibility" section lists what maps and what differs).`,
    });
  }
  return written;
}

/**
 * Qwen Code names its themes (`GitHub`, `Qwen Light`, `ANSI`...); toolhost has three. A
 * light one becomes `light`, any other `dark`: the background the person chose is kept.
 */
function adoptQwenTheme(layer: Record<string, unknown>, written: Map<string, string>): void {
  const ui = layer.ui;
  if (!isObject(ui) || typeof ui.theme !== 'string') return;
  if (['dark', 'light', 'mono'].includes(ui.theme)) return;
  ui.theme = /light/i.test(ui.theme) ? 'light' : 'dark';
  written.set('ui.theme', 'ui.theme');
}

/** Bookkeeping Qwen Code writes into its files: read silently. */
const QWEN_BOOKKEEPING = new Set(['$version']);

function dropUnsupported(
  node: Record<string, unknown>,
  at: string[],
  supported: (keyPath: string[]) => boolean,
  dropped: string[],
): void {
  for (const [name, value] of Object.entries(node)) {
    const keyPath = [...at, name];
    if (at.length === 0 && QWEN_BOOKKEEPING.has(name)) {
      delete node[name];
      continue;
    }
    const match = unsupportedMatch(keyPath);
    // A listed group toolhost also has (ui): its keys are judged one by one.
    const sharedGroup = match === 'listed' && isObject(value) && supported(keyPath);
    if ((match === 'inside' || sharedGroup) && isObject(value)) {
      const before = Object.keys(value).length;
      dropUnsupported(value, keyPath, supported, dropped);
      // A group left empty by what was dropped goes too (an empty one as written stays).
      if (before > 0 && Object.keys(value).length === 0) delete node[name];
      continue;
    }
    if (match === 'listed' && !supported(keyPath)) {
      delete node[name];
      dropped.push(keyPath.join('.'));
    }
  }
}

/**
 * Whether a key path is one of Qwen Code's unsupported keys (or below one), lies on the way
 * to some (a group holding some), or neither. `*` in a listed key stands for any one name
 * (an MCP server's alias).
 */
function unsupportedMatch(keyPath: string[]): 'listed' | 'inside' | undefined {
  let inside = false;
  for (const listed of QWEN_UNSUPPORTED_KEYS) {
    const parts = listed.split('.');
    const common = Math.min(parts.length, keyPath.length);
    let same = true;
    for (let index = 0; index < common && same; index++)
      same = parts[index] === '*' || parts[index] === keyPath[index];
    if (!same) continue;
    if (keyPath.length >= parts.length) return 'listed';
    inside = true;
  }
  return inside ? 'inside' : undefined;
}

function hasAt(node: Record<string, unknown>, keyPath: string[]): boolean {
  let current: unknown = node;
  for (const segment of keyPath) {
    if (!isObject(current) || !Object.hasOwn(current, segment)) return false;
    current = current[segment];
  }
  return true;
}

/** Removes the value at `keyPath` (and groups it leaves empty) and returns it. */
function takeAt(node: Record<string, unknown>, keyPath: string[]): unknown {
  const [head, ...rest] = keyPath;
  if (head === undefined) return undefined;
  if (rest.length === 0) {
    const value = node[head];
    delete node[head];
    return value;
  }
  const child = node[head] as Record<string, unknown>;
  const value = takeAt(child, rest);
  if (Object.keys(child).length === 0) delete node[head];
  return value;
}

function putAt(node: Record<string, unknown>, keyPath: string[], value: unknown): void {
  let current = node;
  for (const segment of keyPath.slice(0, -1)) {
    if (!isObject(current[segment])) current[segment] = {};
    current = current[segment] as Record<string, unknown>;
  }
  current[keyPath[keyPath.length - 1]!] = value;
}
