/**
 * Rewrites a tool's JSON Schema into the subset one model API accepts, keeping its
 * meaning: local `$ref`s are resolved (siblings kept), `allOf` parts are merged with their
 * referenced parts and their `required`, `oneOf` becomes `anyOf` (combined form by form
 * with an `anyOf` beside it), OpenAPI `nullable` becomes a `null` type, nullable arrays
 * keep their `items`, a root union becomes one object whose description lists the forms,
 * and constraints the API does not take are written into the description instead of
 * vanishing (schema-constraints.ts words them). Recursion stays recursive through
 * `$defs` where the API supports it; elsewhere it is expanded to a bounded depth.
 * The original schema is never changed; the scheduler still validates calls against it.
 */

import { isObject, mergeSchemas, resolvePointer, type Schema } from '../utils/json-schema.js';
import { CONSTRAINT_KEYWORDS, describeConstraint } from './schema-constraints.js';

export type { Schema };

export interface SchemaDialect {
  /** Constraint keywords the API takes as they are; others are described in words. */
  constraints: ReadonlySet<string>;
  /** String formats the API takes (every format when absent). */
  formats?: ReadonlySet<string>;
  /** `defs`: recursive references stay `$ref`s into `$defs`; `flatten`: expanded. */
  recursion: 'defs' | 'flatten';
  /** `const` is not taken and is written as a one-value `enum`. */
  constAsEnum?: boolean;
}

/** How many times a recursive reference is expanded where `$defs` cannot carry it. */
export const RECURSION_DEPTH = 3;

/** Every keyword this module may emit; a checker can compare a dialect against it. */
export const STRUCTURAL_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'description',
  'properties',
  'required',
  'items',
  'anyOf',
  'additionalProperties',
  'enum',
  'const',
  '$ref',
  '$defs',
]);

interface Context {
  root: Schema;
  dialect: SchemaDialect;
  defs: Map<string, Schema | undefined>;
  defNames: Map<string, string>;
}

/** The parameters schema for one API: always an object schema at the root. */
export function transformSchema(schema: unknown, dialect: SchemaDialect): Schema {
  const root = isObject(schema) ? schema : {};
  const context: Context = { root, dialect, defs: new Map(), defNames: new Map() };
  // The root is on the path from the start, so `$ref: "#"` is recursion too.
  let out = convert(root, context, ['#'], true);
  out = objectAtRoot(out);
  if (context.defs.size > 0) {
    const defs: Schema = {};
    for (const [ref, def] of context.defs) defs[context.defNames.get(ref)!] = def ?? {};
    out.$defs = defs;
  }
  return out;
}

function convert(node: unknown, context: Context, stack: string[], atRoot = false): Schema {
  if (node === false) return { description: 'No value is allowed here.' };
  // `true`, a missing schema and anything that is no schema allow any value.
  if (!isObject(node)) return {};
  const flattened = flattenReferences(node, context, stack);
  if ('recursive' in flattened) return flattened.recursive;
  const source = flattened.node;
  const inner = flattened.stack;
  const { dialect } = context;
  const out: Schema = {};
  const notes: string[] = [];

  let type = source.type;
  if (source.nullable === true) type = withNull(type);
  if (typeof type === 'string' || Array.isArray(type)) out.type = type;
  if (typeof source.description === 'string' && source.description !== '') {
    out.description = source.description;
  } else if (typeof source.title === 'string' && source.title !== '') {
    out.description = source.title;
  }

  if (isObject(source.properties)) {
    const properties: Schema = {};
    for (const [name, property] of Object.entries(source.properties)) {
      properties[name] = convert(property, context, inner);
    }
    out.properties = properties;
  }
  if (Array.isArray(source.required)) {
    const names = isObject(out.properties) ? Object.keys(out.properties) : [];
    const required = [...new Set(source.required)].filter((name): name is string =>
      names.includes(name as string),
    );
    if (required.length > 0) out.required = required;
  }
  if (Array.isArray(source.items)) {
    // An old-style tuple: each position's schema becomes one allowed item shape.
    out.items = { anyOf: source.items.map((item) => convert(item, context, inner)) };
    notes.push(`Items in this order: ${source.items.length} positions.`);
  } else if (source.items !== undefined) {
    out.items = convert(source.items, context, inner);
  }
  if (includesType(out.type, 'array') && out.items === undefined) out.items = {};
  if (source.additionalProperties !== undefined && !atRoot) {
    out.additionalProperties =
      typeof source.additionalProperties === 'boolean'
        ? source.additionalProperties
        : convert(source.additionalProperties, context, inner);
  } else if (source.additionalProperties === false) {
    out.additionalProperties = false;
  }
  // With additionalProperties false the patterns name the only keys allowed, so their shape
  // is what other keys take; an explicit shape or `true` for other keys stays.
  if (
    isObject(source.patternProperties) &&
    (out.additionalProperties === undefined || out.additionalProperties === false)
  ) {
    const shapes = Object.values(source.patternProperties);
    out.additionalProperties = shapes.length === 1 ? convert(shapes[0], context, inner) : true;
    notes.push(`Keys must match ${Object.keys(source.patternProperties).join(' or ')}.`);
  }

  const anyOf = convertUnion(source.anyOf, source.properties, context, inner);
  const oneOf = convertUnion(source.oneOf, source.properties, context, inner);
  // Both constraints hold: each anyOf form is combined with each oneOf form.
  const branches =
    anyOf && oneOf ? anyOf.flatMap((a) => oneOf.map((b) => mergeSchemas(a, b))) : (anyOf ?? oneOf);
  if (branches) {
    // One branch is merged in (none changes nothing).
    if (branches.length > 1) out.anyOf = branches;
    else Object.assign(out, mergeSchemas(out, branches[0]));
    if (!anyOf && branches.length > 1) notes.push('Exactly one form applies.');
  }

  if (Array.isArray(source.enum)) out.enum = source.enum;
  if (source.const !== undefined) {
    if (dialect.constAsEnum) out.enum = [source.const];
    else out.const = source.const;
  }
  if (out.type === undefined && Array.isArray(out.enum)) {
    const inferred = enumType(out.enum);
    if (inferred) out.type = inferred;
  }

  for (const keyword of CONSTRAINT_KEYWORDS) {
    const value = source[keyword];
    if (value === undefined) continue;
    const kept =
      dialect.constraints.has(keyword) &&
      (keyword !== 'format' || !dialect.formats || dialect.formats.has(value as string));
    if (kept) out[keyword] = value;
    else notes.push(describeConstraint(keyword, value));
  }
  const joined = notes.filter(Boolean).join(' ');
  if (joined) out.description = out.description ? `${out.description} ${joined}` : joined;
  return out;
}

/** A union's branches, converted; undefined when `union` is no list. */
function convertUnion(
  union: unknown,
  properties: unknown,
  context: Context,
  path: string[],
): Schema[] | undefined {
  if (!Array.isArray(union)) return undefined;
  return union.map((branch) => convert(withRequiredProperties(branch, properties), context, path));
}

/**
 * A union branch that requires properties declared beside the union (`anyOf: [{ required:
 * ["a"] }, ...]`) declares them too, as any value (the outer schema still says what they
 * hold): the APIs take only required names that a schema declares.
 */
function withRequiredProperties(branch: unknown, outer: unknown): unknown {
  if (!isObject(branch) || !Array.isArray(branch.required) || !isObject(outer)) return branch;
  const own = isObject(branch.properties) ? branch.properties : {};
  const borrowed = branch.required.filter(
    (name): name is string => typeof name === 'string' && !(name in own) && name in outer,
  );
  if (borrowed.length === 0) return branch;
  const properties: Schema = { ...own };
  for (const name of borrowed) properties[name] = {};
  return { ...branch, properties };
}

/**
 * Resolves `$ref` and merges `allOf` (whose parts may themselves be references) until the
 * node has neither. A reference already being expanded on this path is recursion.
 */
function flattenReferences(
  node: Schema,
  context: Context,
  stack: string[],
): { node: Schema; stack: string[] } | { recursive: Schema } {
  let current = node;
  let path = stack;
  for (let guard = 0; guard < 64; guard++) {
    if (typeof current.$ref === 'string') {
      const { $ref: ref, ...siblings } = current;
      const target = resolvePointer(context.root, ref);
      if (!target) {
        const description = [siblings.description, `(${ref} could not be resolved: any value)`]
          .filter((text) => typeof text === 'string')
          .join(' ');
        current = { ...siblings, description };
        continue;
      }
      if (path.includes(ref)) {
        const recursive = recursiveReference(ref, target, siblings, context, path);
        if (recursive) return { recursive };
      }
      path = [...path, ref];
      current = mergeSchemas(target, siblings);
      continue;
    }
    if (Array.isArray(current.allOf)) {
      const { allOf, ...rest } = current;
      let merged: Schema = rest;
      for (const part of allOf) {
        if (!isObject(part)) continue;
        const flat = flattenReferences(part, context, path);
        if ('recursive' in flat) {
          // The part stays a reference (or the bounded expansion's last level).
          merged = mergeSchemas(merged, flat.recursive);
          continue;
        }
        path = [...new Set([...path, ...flat.stack])];
        merged = mergeSchemas(merged, flat.node);
      }
      current = merged;
      continue;
    }
    break;
  }
  return { node: current, stack: path };
}

/** A reference back into itself: a `$defs` entry, or one more level until the bound. */
function recursiveReference(
  ref: string,
  target: Schema,
  siblings: Schema,
  context: Context,
  path: string[],
): Schema | undefined {
  const note =
    typeof siblings.description === 'string' ? { description: siblings.description } : {};
  if (context.dialect.recursion === 'defs') {
    if (!context.defNames.has(ref)) {
      context.defNames.set(ref, defName(ref, context.defNames));
      context.defs.set(ref, undefined);
      context.defs.set(ref, convert(target, context, [ref]));
    }
    return { $ref: `#/$defs/${context.defNames.get(ref)}`, ...note };
  }
  const depth = path.filter((entry) => entry === ref).length;
  if (depth < RECURSION_DEPTH) return undefined;
  const type = typeof target.type === 'string' ? target.type : 'object';
  return {
    type,
    // An API that requires items on every array gets them here too.
    ...(type === 'array' ? { items: {} } : {}),
    description: `${note.description ? `${note.description} ` : ''}(Deeper levels of this nested structure have the same shape; they are not described further.)`,
  };
}

function defName(ref: string, taken: Map<string, string>): string {
  const base = (ref === '#' ? 'root' : ref.split('/').pop() || 'schema').replace(
    /[^A-Za-z0-9_-]/g,
    '_',
  );
  const used = new Set(taken.values());
  let name = base;
  for (let index = 2; used.has(name); index++) name = `${base}_${index}`;
  return name;
}

/** The root must be one object schema: a union of object forms becomes one object. */
function objectAtRoot(schema: Schema): Schema {
  let out = schema;
  if (Array.isArray(out.anyOf)) {
    const { anyOf, ...rest } = out;
    // convert() gives an object for every branch.
    const forms = anyOf as Schema[];
    const properties: Schema = isObject(rest.properties) ? { ...rest.properties } : {};
    let required: string[] | undefined;
    for (const form of forms) {
      if (isObject(form.properties)) {
        for (const [name, property] of Object.entries(form.properties)) {
          properties[name] =
            name in properties ? mergeSchemas(properties[name], property) : property;
        }
      }
      const formRequired = Array.isArray(form.required) ? (form.required as string[]) : [];
      required = required ? required.filter((name) => formRequired.includes(name)) : formRequired;
    }
    const described = forms.map((form, index) => {
      const names = Array.isArray(form.required) ? (form.required as string[]) : [];
      const label = typeof form.description === 'string' ? ` (${form.description})` : '';
      return `${index + 1}) ${names.length > 0 ? names.join(', ') : 'no required parameters'}${label}`;
    });
    const note = `Send the parameters of one of these forms, naming the required ones: ${described.join('; ')}.`;
    out = {
      ...rest,
      properties,
      description: typeof rest.description === 'string' ? `${rest.description} ${note}` : note,
    };
    const allRequired = [
      ...new Set([
        ...(Array.isArray(rest.required) ? (rest.required as string[]) : []),
        ...(required ?? []),
      ]),
    ];
    if (allRequired.length > 0) out.required = allRequired;
  }
  out = { ...out, type: 'object' };
  if (!isObject(out.properties)) out.properties = {};
  return out;
}

function withNull(type: unknown): unknown {
  if (typeof type === 'string') return type === 'null' ? type : [type, 'null'];
  if (Array.isArray(type)) return type.includes('null') ? type : [...type, 'null'];
  return type;
}

function includesType(type: unknown, wanted: string): boolean {
  return type === wanted || (Array.isArray(type) && type.includes(wanted));
}

function enumType(values: unknown[]): string | undefined {
  const types = new Set(
    values.map((value) =>
      value === null
        ? 'null'
        : Number.isInteger(value)
          ? 'integer'
          : typeof value === 'number'
            ? 'number'
            : typeof value,
    ),
  );
  // Whole and fractional numbers together are numbers.
  if (types.has('number')) types.delete('integer');
  if (types.size !== 1) return undefined;
  const [only] = types;
  return only === 'string' || only === 'integer' || only === 'number' || only === 'boolean'
    ? only
    : undefined;
}
