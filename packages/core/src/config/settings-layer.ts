/** One settings layer made safe to merge: checked against the schema (what is wrong is dropped with a warning), older names resolved, $VARIABLES expanded. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FLAT_ALIASES, type Settings } from '../contract/settings-types.js';
import { closestNames } from '../utils/closest-names.js';
import { isObject } from '../utils/json-schema.js';
import { pathToName, schemaProblems } from '../utils/schema-validator.js';
import { isContextFileName, VARIABLE_REFERENCE } from '../utils/settings-values.js';
import { adoptQwenKeys } from './qwen-settings.js';
import type { SettingsWarning } from './settings-warning.js';

// The config entry point has always offered it from here.
export { referencesVariable } from '../utils/settings-values.js';

const SCHEMA_PATH = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../schemas/settings.schema.json',
);
let settingsSchema: Record<string, unknown> | undefined;

/** Where the settings JSON Schema is installed (for editors' `"$schema"`). */
export function settingsSchemaPath(): string {
  return SCHEMA_PATH;
}

/** The settings JSON Schema. */
export function getSettingsSchema(): Record<string, unknown> {
  settingsSchema ??= JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as Record<string, unknown>;
  return settingsSchema;
}

/** Narrowed schemas by the top-level keys they keep, so each is compiled once. */
const narrowedSchemas = new Map<string, Record<string, unknown>>();

/**
 * The settings schema with only the top-level properties `keys` name (and those their
 * `#/properties/...` references lead to), in the schema's order. A key a layer does not
 * set checks nothing, so a layer has the same problems against this schema as against the
 * whole one, and compiling the whole schema took about 40 ms of every start with a
 * settings file or command-line settings. Unknown keys still meet additionalProperties.
 */
export function schemaForKeys(keys: readonly string[]): Record<string, unknown> {
  // The $id is left out: one validator may hold several narrowed schemas, never two with one id.
  const { $id: _id, ...schema } = getSettingsSchema();
  const properties = schema.properties as Record<string, unknown>;
  const wanted = new Set(keys.filter((key) => Object.hasOwn(properties, key)));
  // A Set's iteration also visits what is added during it: references are followed through.
  for (const key of wanted)
    for (const [, target] of JSON.stringify(properties[key]).matchAll(REFERENCED_PROPERTY))
      if (Object.hasOwn(properties, target!)) wanted.add(target!);
  const kept = Object.keys(properties).filter((key) => wanted.has(key));
  const id = kept.join('\0');
  let narrowed = narrowedSchemas.get(id);
  if (!narrowed) {
    narrowed = {
      ...schema,
      properties: Object.fromEntries(kept.map((key) => [key, properties[key]])),
    };
    narrowedSchemas.set(id, narrowed);
  }
  return narrowed;
}

/** A `$ref` into one of the schema's top-level properties: `"#/properties/general/...`. */
const REFERENCED_PROPERTY = /"#\/properties\/([^/"]+)/g;

/**
 * Validates one layer against the schema, drops what is wrong, resolves aliases and $VARs.
 * `cut` sees the checked layer as the file spells it, before aliases and variables (the
 * trust cut of an untrusted project).
 */
export function checkLayer(
  raw: object,
  source: string,
  env: NodeJS.ProcessEnv,
  warnings: SettingsWarning[],
  cut?: (layer: Record<string, unknown>, written: ReadonlyMap<string, string>) => void,
): Settings {
  const layer = structuredClone(raw) as Record<string, unknown>;
  // Qwen Code's names become toolhost's first; warnings still name the key as written.
  const written = adoptQwenKeys(layer, source, warnings, schemaHasKey);
  const keys = Object.keys(layer);
  const problems = keys.length === 0 ? [] : schemaProblems(schemaForKeys(keys), layer);
  // Remove deepest paths first so removing a parent does not hide a child's warning.
  const dropped = new Set<string>();
  for (const problem of problems.sort((a, b) => b.path.length - a.path.length)) {
    const ownKey = pathToName(problem.path);
    const key = written.get(ownKey) ?? ownKey;
    if (dropped.has(key)) continue;
    dropped.add(key);
    warnings.push({ source, key, message: explainProblem(problem.path, problem.message) });
    removeAt(layer, problem.path);
  }
  cut?.(layer, written);
  resolveAliases(layer, source, warnings);
  const settings = expandVariables(layer, env, source, warnings, []) as Settings;
  keepContextFileNames(settings, source, warnings);
  return settings;
}

/**
 * `context.fileName` entries are names looked up in the project's folders and ~/.toolhost;
 * one with a folder in it (`../outside/secret.txt`, `mcp-oauth/srv.json`) would read any
 * file into the prompt, so it is left out.
 */
function keepContextFileNames(
  settings: Settings,
  source: string,
  warnings: SettingsWarning[],
): void {
  const names = settings.context?.fileName;
  if (names === undefined) return;
  const list = typeof names === 'string' ? [names] : names;
  const paths = list.filter((name) => !isContextFileName(name));
  if (paths.length === 0) return;
  warnings.push({
    source,
    key: 'context.fileName',
    message: `${paths.map((name) => JSON.stringify(name)).join(', ')} ${paths.length === 1 ? 'is' : 'are'} not a file name and ${paths.length === 1 ? 'was' : 'were'} ignored: context files are names (such as "AGENTS.md") looked up in the project's folders and ~/.toolhost, never paths.`,
  });
  const kept = list.filter(isContextFileName);
  if (kept.length > 0) settings.context!.fileName = typeof names === 'string' ? kept[0]! : kept;
  else delete settings.context!.fileName;
}

function explainProblem(keyPath: string[], message: string): string {
  if (message === 'is not a known property') {
    const parentPath = keyPath.slice(0, -1);
    const known = knownKeysAt(parentPath);
    const suggestion = closestNames(keyPath[keyPath.length - 1] ?? '', known, 1)[0];
    const hint = suggestion ? ` Did you mean "${suggestion}"?` : '';
    return `is not a toolhost setting and was ignored.${hint}`;
  }
  return `${message}; this key was ignored. "toolhost settings schema" prints what each key takes (the schema file: ${SCHEMA_PATH}).`;
}

/** Whether the settings schema has a key at `keyPath` (an MCP server's alias stands for any). */
export function schemaHasKey(keyPath: string[]): boolean {
  const schema = getSettingsSchema();
  let node: Record<string, unknown> | undefined = schema;
  for (const segment of keyPath) {
    node = derefSchema(schema, node);
    const props = node?.properties as Record<string, Record<string, unknown>> | undefined;
    const additional = node?.additionalProperties;
    node = props?.[segment] ?? (isObject(additional) ? additional : undefined);
    if (!node) return false;
  }
  return true;
}

function derefSchema(
  schema: Record<string, unknown>,
  node: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  const ref = node?.$ref;
  if (typeof ref !== 'string') return node;
  let target: unknown = schema;
  for (const segment of ref.replace(/^#\//, '').split('/'))
    target = isObject(target) ? target[segment] : undefined;
  return derefSchema(schema, isObject(target) ? target : undefined);
}

function knownKeysAt(keyPath: string[]): string[] {
  const schema = getSettingsSchema();
  const definitions = schema.definitions as Record<string, Record<string, unknown>>;
  const deref = (node: Record<string, unknown> | undefined) => {
    const ref = node?.$ref;
    return typeof ref === 'string' ? definitions[ref.replace('#/definitions/', '')] : node;
  };
  let node: Record<string, unknown> | undefined = schema;
  for (const segment of keyPath) {
    const props = node?.properties as Record<string, Record<string, unknown>> | undefined;
    const additional = node?.additionalProperties;
    node = deref(props?.[segment] ?? (isObject(additional) ? additional : undefined));
  }
  return Object.keys((node?.properties as object | undefined) ?? {});
}

function removeAt(target: Record<string, unknown>, keyPath: string[]): void {
  if (keyPath.length === 0) return;
  let node: unknown = target;
  for (const segment of keyPath.slice(0, -1)) {
    if (typeof node !== 'object' || node === null) return;
    node = (node as Record<string, unknown>)[segment];
  }
  if (typeof node === 'object' && node !== null) {
    const last = keyPath[keyPath.length - 1]!;
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete (node as Record<string, unknown>)[last];
  }
}

function resolveAliases(
  layer: Record<string, unknown>,
  source: string,
  warnings: SettingsWarning[],
): void {
  for (const [flat, [section, key]] of Object.entries(FLAT_ALIASES)) {
    if (!(flat in layer)) continue;
    const value = layer[flat];
    delete layer[flat];
    layer[section] ??= {};
    const group = layer[section] as Record<string, unknown>;
    if (key in group) {
      warnings.push({
        source,
        key: flat,
        message: `is the older name of ${section}.${key}, which is also set; ${section}.${key} was used.`,
      });
      continue;
    }
    group[key] = value;
  }
}

function expandVariables(
  value: unknown,
  env: NodeJS.ProcessEnv,
  source: string,
  warnings: SettingsWarning[],
  keyPath: string[],
): unknown {
  // A hook's command is shell text: its shell expands $VARs (and $CLAUDE_PROJECT_DIR) when it runs.
  if (keyPath[0] === 'hooks') return value;
  if (typeof value === 'string') {
    return value.replace(VARIABLE_REFERENCE, (match, braced?: string, bare?: string) => {
      const name = (braced ?? bare)!;
      const resolved = env[name];
      if (resolved === undefined) {
        warnings.push({
          source,
          key: pathToName(keyPath),
          message: `refers to $${name}, which is not set in the environment; it was left as written.`,
        });
        return match;
      }
      return resolved;
    });
  }
  if (Array.isArray(value)) {
    return value.map((item, index) =>
      expandVariables(item, env, source, warnings, [...keyPath, String(index)]),
    );
  }
  if (typeof value === 'object' && value !== null) {
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      result[key] = expandVariables(item, env, source, warnings, [...keyPath, key]);
    }
    return result;
  }
  return value;
}
