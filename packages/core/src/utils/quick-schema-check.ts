/**
 * Whether a value satisfies a JSON Schema, answered without ajv for the plain schemas
 * toolhost writes itself (the built-in tools' parameters, the settings schema): a call
 * with good arguments, or a good settings file, then never loads ajv's ninety modules or
 * compiles a validator. Only "valid" is taken from here; anything else (a problem to
 * report, a keyword or form this file does not know) goes to ajv, which stays the one
 * validator that explains problems. The answer is ajv's, keyword by keyword, as
 * schema-validator.ts configures it (draft 7, strict off);
 * quick-schema-check.test.ts compares the two on generated values for every such schema.
 */

type Schema = Record<string, unknown>;

/** Thrown for anything this file does not decide exactly like ajv: ajv decides then. */
class Unsupported extends Error {}

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const COUNTS = ['minLength', 'maxLength', 'minItems', 'maxItems'];
const BOUNDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'];
/** Keywords ajv ignores when validating (metadata), and `definitions`, checked as schemas. */
const IGNORED = new Set([
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
  'definitions',
]);
const CHECKED = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'uniqueItems',
  'anyOf',
  '$ref',
  ...COUNTS,
  ...BOUNDS,
]);
/** Nesting (data and $ref) beyond which ajv is asked: a $ref loop overflows the stack there. */
const MAX_DEPTH = 64;

/** The root schemas known to be supported (every node, every $ref), or known not to be. */
const supported = new WeakMap<object, boolean>();

/**
 * True when `data` satisfies `schema` as ajv would decide; undefined when that takes ajv
 * (the value has a problem, or the schema uses what this file does not handle).
 */
export function quickSchemaCheck(schema: Schema, data: unknown): true | undefined {
  let known = supported.get(schema);
  if (known === undefined) {
    known = isSupported(schema);
    supported.set(schema, known);
  }
  if (!known) return undefined;
  try {
    return valid(schema, schema, data, 0) ? true : undefined;
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

function isSupported(root: Schema): boolean {
  if (typeof root.$schema === 'string' && root.$schema.includes('2020-12')) return false;
  const { $schema: _ignored, ...rest } = root;
  try {
    checkNode(root, rest, new Set());
    return true;
  } catch (error) {
    if (error instanceof Unsupported) return false;
    throw error;
  }
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isCount = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;

/** Every keyword known and well formed, in this node and all it leads to. */
function checkNode(root: Schema, node: unknown, seen: Set<unknown>): void {
  if (!isSchema(node)) throw new Unsupported();
  if (seen.has(node)) return;
  seen.add(node);
  const sub = (value: unknown) => checkNode(root, value, seen);
  for (const [key, value] of Object.entries(node)) {
    if (!IGNORED.has(key) && !CHECKED.has(key)) throw new Unsupported();
    if (key === 'type') {
      const types = Array.isArray(value) ? value : [value];
      if (types.length === 0 || new Set(types).size !== types.length) throw new Unsupported();
      if (!types.every((type) => TYPES.has(type as string))) throw new Unsupported();
    } else if (key === 'properties' || key === 'definitions') {
      if (!isSchema(value) || Object.hasOwn(value, '__proto__')) throw new Unsupported();
      for (const property of Object.values(value)) sub(property);
    } else if (key === 'required') {
      if (!Array.isArray(value) || !value.every((name) => typeof name === 'string'))
        throw new Unsupported();
    } else if (key === 'additionalProperties') {
      if (typeof value !== 'boolean') sub(value);
    } else if (key === 'items') {
      sub(value);
    } else if (key === 'anyOf') {
      if (!Array.isArray(value) || value.length === 0) throw new Unsupported();
      for (const branch of value) sub(branch);
    } else if (key === 'enum') {
      if (!Array.isArray(value) || value.length === 0 || !value.every(isPrimitive))
        throw new Unsupported();
    } else if (key === 'uniqueItems') {
      if (typeof value !== 'boolean') throw new Unsupported();
    } else if (key === '$ref') {
      sub(resolve(root, value));
    } else if (COUNTS.includes(key)) {
      if (!isCount(value)) throw new Unsupported();
    } else if (BOUNDS.includes(key)) {
      if (typeof value !== 'number' || !Number.isFinite(value)) throw new Unsupported();
    }
  }
}

function isPrimitive(value: unknown): boolean {
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    value === null ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/** A `#/a/b` reference into the root schema (no escapes, no other documents). */
function resolve(root: Schema, ref: unknown): unknown {
  if (typeof ref !== 'string' || !ref.startsWith('#/') || /[~%]/.test(ref)) {
    throw new Unsupported();
  }
  let node: unknown = root;
  for (const segment of ref.slice(2).split('/')) {
    if (!isSchema(node) || !Object.hasOwn(node, segment)) throw new Unsupported();
    node = node[segment];
  }
  return node;
}

function hasType(type: string, data: unknown): boolean {
  switch (type) {
    case 'null':
      return data === null;
    case 'array':
      return Array.isArray(data);
    case 'object':
      return isSchema(data);
    case 'number':
      return isNumber(data);
    case 'integer':
      return isNumber(data) && !(data % 1) && !Number.isNaN(data);
    default:
      return typeof data === type;
  }
}

/**
 * ajv's numbers: with strict off its strictNumbers is off too, so NaN and the infinities
 * are numbers (and an infinity an integer), as typeof says.
 */
function isNumber(data: unknown): data is number {
  return typeof data === 'number';
}

/** Characters as ajv counts them for minLength: a surrogate pair is one. */
function characters(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    count++;
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      if ((text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) index++;
    }
  }
  return count;
}

function valid(root: Schema, schema: Schema, data: unknown, depth: number): boolean {
  if (depth > MAX_DEPTH) throw new Unsupported();
  const below = (sub: unknown, value: unknown) => valid(root, sub as Schema, value, depth + 1);
  if (schema.$ref !== undefined && !below(resolve(root, schema.$ref), data)) return false;
  const { type } = schema;
  if (type !== undefined) {
    const types = (Array.isArray(type) ? type : [type]) as string[];
    if (!types.some((one) => hasType(one, data))) return false;
  }
  if (schema.enum !== undefined && !(schema.enum as unknown[]).includes(data)) return false;
  if (schema.anyOf !== undefined && !(schema.anyOf as unknown[]).some((sub) => below(sub, data)))
    return false;
  if (isNumber(data)) {
    const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema as Record<
      string,
      number | undefined
    >;
    // NaN meets no bound.
    const bounded = [maximum, minimum, exclusiveMaximum, exclusiveMinimum].some(
      (bound) => bound !== undefined,
    );
    if (bounded && Number.isNaN(data)) return false;
    if (maximum !== undefined && data > maximum) return false;
    if (minimum !== undefined && data < minimum) return false;
    if (exclusiveMaximum !== undefined && data >= exclusiveMaximum) return false;
    if (exclusiveMinimum !== undefined && data <= exclusiveMinimum) return false;
  } else if (typeof data === 'string') {
    const { minLength, maxLength } = schema as Record<string, number | undefined>;
    if (maxLength !== undefined && characters(data) > maxLength) return false;
    if (minLength !== undefined && characters(data) < minLength) return false;
  } else if (Array.isArray(data)) {
    const { minItems, maxItems, items } = schema as Record<string, number | undefined>;
    if (maxItems !== undefined && data.length > maxItems) return false;
    if (minItems !== undefined && data.length < minItems) return false;
    if (schema.uniqueItems === true && hasDuplicates(data)) return false;
    if (items !== undefined && !data.every((item) => below(items, item))) return false;
  } else if (isSchema(data)) {
    return validObject(schema, data, below);
  }
  return true;
}

function validObject(
  schema: Schema,
  data: Record<string, unknown>,
  below: (sub: unknown, value: unknown) => boolean,
): boolean {
  // As ajv reads them: a property counts when reading it gives something, own or not.
  const required = (schema.required ?? []) as string[];
  if (required.some((name) => data[name] === undefined)) return false;
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  for (const [name, sub] of Object.entries(properties))
    if (data[name] !== undefined && !below(sub, data[name])) return false;
  const extra = schema.additionalProperties;
  if (extra === undefined || extra === true) return true;
  // ajv walks the keys with for...in, which includes inherited enumerable keys.
  for (const key in data) {
    if (Object.hasOwn(properties, key)) continue;
    if (extra === false || !below(extra, data[key])) return false;
  }
  return true;
}

/** Whether two items are equal as ajv's deep equality sees JSON values. */
function hasDuplicates(items: unknown[]): boolean {
  for (let i = 0; i < items.length; i++)
    for (let j = i + 1; j < items.length; j++) if (deepEqual(items[i], items[j])) return true;
  return false;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    if (a.constructor !== b.constructor) return false;
    if (Array.isArray(a))
      return (
        a.length === (b as unknown[]).length && a.every((x, i) => deepEqual(x, (b as unknown[])[i]))
      );
    // Dates, maps and other objects are compared in ways of their own: ajv decides.
    if (a.constructor !== Object) throw new Unsupported();
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every(
      (key) =>
        Object.hasOwn(b, key) &&
        deepEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
    );
  }
  // NaN equals NaN there.
  return Number.isNaN(a) && Number.isNaN(b);
}
