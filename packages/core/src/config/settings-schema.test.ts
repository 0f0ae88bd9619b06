/**
 * The settings JSON Schema (what `toolhost settings schema` prints and editors check files
 * against) against the settings the code accepts. Both sides are derived, not listed here:
 * the code's side is the `Settings` type every read of a setting goes through (read with
 * the TypeScript compiler) and SETTING_DEFAULTS; the schema's side is the schema file. The
 * loader then must accept a value for every key the schema has, and refuse a wrong one.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from '../../test/helpers/temp-workspace.js';
import { FLAT_ALIASES, MCP_SERVER_DEFAULTS, SETTING_DEFAULTS } from '../contract/settings-types.js';
import { getSettingsSchema, loadSettings } from './settings.js';

type Node = Record<string, unknown>;
/** A type reduced to what both sides can say: the same shape means the same settings. */
type Shape =
  | 'string'
  | 'number'
  | 'boolean'
  | { enum: string[] }
  | { array: Shape }
  | { record: Shape }
  | { object: Record<string, Shape> }
  | { anyOf: Shape[] };

const SERVER = 'a-server';
/** A key of the schema with no setting behind it: editors read it to find the schema. */
const EDITOR_KEY = '$schema';

// ---- the code's side: the Settings type, read by the compiler -------------------------

function settingsTypeShape(): Shape {
  const file = path.join(
    path.dirname(fileURLToPath(import.meta.url)),
    '../contract/settings-types.ts',
  );
  const program = ts.createProgram([file], { strict: true, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const settings = checker
    .getExportsOfModule(checker.getSymbolAtLocation(source)!)
    .find((symbol) => symbol.name === 'Settings')!;
  return typeShape(checker, checker.getDeclaredTypeOfSymbol(settings));
}

function typeShape(checker: ts.TypeChecker, type: ts.Type): Shape {
  if (type.isUnion()) {
    const parts = type.types.filter((part) => !(part.flags & ts.TypeFlags.Undefined));
    if (parts.every((part) => part.flags & ts.TypeFlags.BooleanLiteral)) return 'boolean';
    if (parts.every((part) => part.isStringLiteral()))
      return { enum: parts.map((part) => (part as ts.StringLiteralType).value).sort() };
    if (parts.length === 1) return typeShape(checker, parts[0]!);
    return { anyOf: parts.map((part) => typeShape(checker, part)) };
  }
  if (type.flags & ts.TypeFlags.String) return 'string';
  if (type.flags & ts.TypeFlags.Number) return 'number';
  if (type.flags & ts.TypeFlags.Boolean) return 'boolean';
  if (type.isStringLiteral()) return { enum: [type.value] };
  if (checker.isArrayType(type)) {
    return { array: typeShape(checker, checker.getTypeArguments(type as ts.TypeReference)[0]!) };
  }
  const index = checker.getIndexTypeOfType(type, ts.IndexKind.String);
  if (index) return { record: typeShape(checker, index) };
  const object: Record<string, Shape> = {};
  for (const property of checker.getPropertiesOfType(type)) {
    object[property.name] = typeShape(checker, checker.getTypeOfSymbol(property));
  }
  return { object };
}

// ---- the schema's side --------------------------------------------------------------

const schema = getSettingsSchema();

/** Follows a `$ref` (a JSON pointer into this schema). */
function deref(node: Node): Node {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  let target: Node = schema;
  for (const segment of ref.replace(/^#\//, '').split('/')) target = target[segment] as Node;
  return deref(target);
}

function schemaShape(raw: Node): Shape {
  const node = deref(raw);
  if (Array.isArray(node.anyOf)) return { anyOf: (node.anyOf as Node[]).map(schemaShape) };
  if (Array.isArray(node.enum)) return { enum: (node.enum as string[]).slice().sort() };
  switch (node.type) {
    case 'string':
    case 'boolean':
      return node.type;
    case 'number':
    case 'integer':
      return 'number';
    case 'array':
      return { array: schemaShape(node.items as Node) };
    case 'object': {
      if (node.properties) {
        const object: Record<string, Shape> = {};
        for (const [key, child] of Object.entries(node.properties as Record<string, Node>))
          object[key] = schemaShape(child);
        return { object };
      }
      return { record: schemaShape(node.additionalProperties as Node) };
    }
  }
  throw new Error(`the test does not know this schema node: ${JSON.stringify(node)}`);
}

/** Differences between the two shapes, one line each, named by dotted key. */
function differences(code: Shape, file: Shape, at: string, out: string[]): string[] {
  const kind = (shape: Shape) => (typeof shape === 'string' ? shape : Object.keys(shape)[0]!);
  // A list of allowed names in the schema narrows a string the code takes (file encodings).
  if (code === 'string' && typeof file === 'object' && 'enum' in file) return out;
  if (kind(code) !== kind(file)) {
    out.push(`${at}: the code takes ${JSON.stringify(code)}, the schema ${JSON.stringify(file)}`);
    return out;
  }
  if (typeof code === 'string' || typeof file === 'string') return out;
  if ('enum' in code && 'enum' in file) {
    if (code.enum.join() !== file.enum.join())
      out.push(`${at}: the code takes ${code.enum}, the schema ${file.enum}`);
  } else if ('array' in code && 'array' in file) {
    differences(code.array, file.array, `${at}[]`, out);
  } else if ('record' in code && 'record' in file) {
    differences(code.record, file.record, `${at}.*`, out);
  } else if ('anyOf' in code && 'anyOf' in file) {
    if (code.anyOf.length !== file.anyOf.length) out.push(`${at}: different alternatives`);
    for (const [i, option] of code.anyOf.entries()) differences(option, file.anyOf[i]!, at, out);
  } else if ('object' in code && 'object' in file) {
    for (const key of new Set([...Object.keys(code.object), ...Object.keys(file.object)])) {
      const name = at ? `${at}.${key}` : key;
      const mine = code.object[key];
      const theirs = file.object[key];
      if (!mine) out.push(`${name}: in the schema, but not a setting the code reads`);
      else if (!theirs) out.push(`${name}: read by the code, but missing from the schema`);
      else differences(mine, theirs, name, out);
    }
  }
  return out;
}

// ---- walking the schema's keys ------------------------------------------------------

interface Leaf {
  /** Key path; entries of `mcpServers` and other maps use a sample name. */
  path: string[];
  node: Node;
}

/** Every key whose value is not itself a group of keys, and every map of free names. */
function leaves(raw: Node, at: string[] = []): Leaf[] {
  const node = deref(raw);
  if (node.type === 'object' && node.properties) {
    return Object.entries(node.properties as Record<string, Node>).flatMap(([key, child]) =>
      leaves(child, [...at, key]),
    );
  }
  const entry = node.additionalProperties;
  if (node.type === 'object' && typeof entry === 'object' && deref(entry as Node).properties)
    return leaves(entry as Node, [...at, SERVER]);
  return [{ path: at, node }];
}

function validSample(raw: Node): unknown {
  const node = deref(raw);
  if (node.default !== undefined) return node.default;
  if (Array.isArray(node.enum)) return node.enum[0];
  if (Array.isArray(node.anyOf)) return validSample(node.anyOf[0] as Node);
  switch (node.type) {
    case 'string':
      return 'text';
    case 'integer':
    case 'number':
      return (node.minimum as number | undefined) ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return [validSample(node.items as Node)];
    default:
      if (node.properties) {
        return Object.fromEntries(
          Object.entries(node.properties as Record<string, Node>).map(([key, child]) => [
            key,
            validSample(child),
          ]),
        );
      }
      return { NAME: validSample(node.additionalProperties as Node) };
  }
}

/** A value of the wrong type for the node (a string stands in for nothing but a string). */
function wrongSample(raw: Node): unknown {
  const node = deref(raw);
  const accepts = (type: string) =>
    node.type === type ||
    (Array.isArray(node.anyOf) && (node.anyOf as Node[]).some((o) => deref(o).type === type));
  return accepts('string') || Array.isArray(node.enum) ? 12345 : 'not-this-type';
}

function setAt(target: Record<string, unknown>, keys: string[], value: unknown): void {
  let node = target;
  for (const key of keys.slice(0, -1)) {
    node[key] ??= {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]!] = value;
}

function getAt(target: object, keys: string[]): unknown {
  let node: unknown = target;
  for (const key of keys) node = (node as Record<string, unknown> | undefined)?.[key];
  return node;
}

function schemaDefaults(raw: Node, at: string[] = [], out: Record<string, unknown> = {}) {
  const node = deref(raw);
  if (node.default !== undefined) out[at.join('.')] = node.default;
  for (const [key, child] of Object.entries((node.properties as Record<string, Node>) ?? {}))
    schemaDefaults(child, [...at, key], out);
  const entry = node.additionalProperties;
  if (typeof entry === 'object') schemaDefaults(entry as Node, [...at, SERVER], out);
  return out;
}

function flatten(value: unknown, at: string[] = [], out: Record<string, unknown> = {}) {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) flatten(child, [...at, key], out);
  } else {
    out[at.join('.')] = value;
  }
  return out;
}

// ---- the tests ----------------------------------------------------------------------

let dirs: TempDirs;
let fileCount = 0;
beforeAll(() => {
  dirs = makeTempDirs();
});
afterAll(() => dirs.cleanup());

/** Loads `settings` as the user's settings file, through the real loader. */
function loadAsUserFile(settings: object) {
  const home = path.join(dirs.base, `home-${++fileCount}`);
  mkdirSync(path.join(home, '.toolhost'), { recursive: true });
  writeFileSync(path.join(home, '.toolhost', 'settings.json'), JSON.stringify(settings));
  return loadSettings({
    workspaceRoot: dirs.root,
    homeDir: home,
    systemSettingsPath: path.join(dirs.base, 'no-system.json'),
    env: {},
  });
}

const flatAliases = Object.keys(FLAT_ALIASES);
const schemaProperties = schema.properties as Record<string, Node>;
const currentKeys = Object.keys(schemaProperties).filter(
  (key) => key !== EDITOR_KEY && !flatAliases.includes(key),
);
const currentSchema: Node = {
  ...schema,
  properties: Object.fromEntries(currentKeys.map((key) => [key, schemaProperties[key]!])),
};

describe('the settings schema and the settings the code reads', () => {
  it('has every key of the Settings type with the same type, and no other', () => {
    const code = settingsTypeShape();
    const file = schemaShape(currentSchema);
    expect(differences(code, file, '', [])).toEqual([]);
    // The walk really covered the nested settings (a broken walk would compare nothing).
    expect(JSON.stringify(code)).toContain('"defaultTimeout":"number"');
    expect(JSON.stringify(code)).toContain('"clientMetadataUrl":"string"');
  });

  it('has each older flat name, and only those, typed like the key it stands for', () => {
    const extra = Object.keys(schemaProperties).filter(
      (key) => key !== EDITOR_KEY && !currentKeys.includes(key),
    );
    expect(extra.sort()).toEqual(flatAliases.sort());
    for (const [flat, [section, key]] of Object.entries(FLAT_ALIASES)) {
      const target = (deref(schemaProperties[section]!).properties as Record<string, Node>)[key];
      expect(target, `${section}.${key}`).toBeTruthy();
      expect(schemaShape(schemaProperties[flat]!), flat).toEqual(schemaShape(target!));
    }
  });

  it('states the defaults the code uses, and no others', () => {
    const code = {
      ...flatten(SETTING_DEFAULTS),
      ...flatten(MCP_SERVER_DEFAULTS, ['mcpServers', SERVER]),
    };
    expect(schemaDefaults(currentSchema)).toEqual(code);
  });
});

describe('the settings loader and the schema', () => {
  const keys = leaves(currentSchema);

  it('accepts a value for every key of the schema, each kept as written', () => {
    const settings: Record<string, unknown> = {};
    for (const { path: keyPath, node } of keys) setAt(settings, keyPath, validSample(node));
    const loaded = loadAsUserFile(settings);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.merged).toEqual(settings);
    expect(keys.length).toBeGreaterThan(40);
  });

  it('accepts every older flat name, moved to the key it stands for', () => {
    const settings: Record<string, unknown> = {};
    const expected: Record<string, unknown> = {};
    for (const [flat, [section, key]] of Object.entries(FLAT_ALIASES)) {
      settings[flat] = validSample(schemaProperties[flat]!);
      setAt(expected, [section, key], settings[flat]);
    }
    const loaded = loadAsUserFile(settings);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.merged).toEqual(expected);
  });

  it.each(keys.map(({ path: keyPath, node }) => [keyPath.join('.'), keyPath, node] as const))(
    'refuses a wrongly typed %s, naming it, and keeps the rest',
    (name, keyPath, node) => {
      const kept = keyPath[0] === 'general' ? ['model', 'name'] : ['general', 'preferredEditor'];
      const settings: Record<string, unknown> = {};
      setAt(settings, kept, 'kept');
      setAt(settings, keyPath, wrongSample(node));
      const loaded = loadAsUserFile(settings);
      expect(loaded.warnings.map((warning) => warning.key)).toEqual([name]);
      expect(getAt(loaded.merged, kept)).toBe('kept');
      expect(getAt(loaded.merged, keyPath)).toBeUndefined();
      expect(JSON.stringify(loaded.merged)).not.toContain('not-this-type');
      expect(JSON.stringify(loaded.merged)).not.toContain('12345');
    },
  );
});
