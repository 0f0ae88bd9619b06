/**
 * OpenAI's strict function calling (`strict: true`): every object closed with
 * `additionalProperties: false`, every property listed in `required`, optional ones made
 * nullable (the scheduler turns their nulls back into absent parameters, see
 * utils/json-schema.ts), within the documented limits. A schema that strict mode cannot
 * express without changing its meaning (a free-form map, a value of any type) is reported,
 * and the adapter sends that tool non-strict instead. What strict mode takes is listed, not
 * what it refuses: a keyword the schema transform learns later is worded into the
 * description (a constraint) or sends the tool non-strict (anything else) until it is
 * added here.
 */
import { isObject, type Schema } from '../utils/json-schema.js';
import {
  CONSTRAINT_KEYWORDS,
  type ConstraintKeyword,
  describeConstraint,
} from './schema-constraints.js';

/** OpenAI's documented limits for strict schemas. */
export const STRICT_LIMITS = { depth: 10, properties: 5000, enumValues: 1000 } as const;

/** String formats strict mode takes. */
export const STRICT_FORMATS: ReadonlySet<string> = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

/** The constraint keywords strict mode takes as they are (the transform words the others). */
export const STRICT_CONSTRAINTS: ReadonlySet<string> = new Set([
  'format',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);

/** Every keyword a strict schema may carry: the structure strict mode takes and those constraints. */
export const STRICT_KEYWORDS: ReadonlySet<string> = new Set([
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
  ...STRICT_CONSTRAINTS,
]);

const isConstraint = (key: string): key is ConstraintKeyword =>
  (CONSTRAINT_KEYWORDS as readonly string[]).includes(key);

export type StrictOutcome = { schema: Schema } | { problem: string };

interface Budget {
  properties: number;
  enumValues: number;
}

/** Makes a transformed schema (see schema-transform.ts) strict, or says why it cannot. */
export function toStrictSchema(schema: Schema): StrictOutcome {
  const budget: Budget = { properties: 0, enumValues: 0 };
  try {
    const out = strictNode(schema, 1, budget, true);
    if (isObject(schema.$defs)) {
      const defs: Schema = {};
      for (const [name, def] of Object.entries(schema.$defs)) {
        defs[name] = strictNode(def, 1, budget, false);
      }
      out.$defs = defs;
    }
    if (budget.properties > STRICT_LIMITS.properties)
      throw new NotStrict(`more than ${STRICT_LIMITS.properties} properties`);
    if (budget.enumValues > STRICT_LIMITS.enumValues)
      throw new NotStrict(`more than ${STRICT_LIMITS.enumValues} enum values`);
    return { schema: out };
  } catch (error) {
    if (error instanceof NotStrict) return { problem: error.message };
    throw error;
  }
}

class NotStrict extends Error {}

function strictNode(node: unknown, depth: number, budget: Budget, atRoot: boolean): Schema {
  if (!isObject(node)) throw new NotStrict('a schema that is not an object');
  if (depth > STRICT_LIMITS.depth)
    throw new NotStrict(`nesting deeper than ${STRICT_LIMITS.depth} levels`);
  const out: Schema = { ...node };
  delete out.$defs;
  if (typeof out.$ref === 'string') {
    // A reference carries no siblings in strict mode: a description moves around it.
    if (typeof out.description === 'string')
      return { description: out.description, anyOf: [{ $ref: out.$ref }] };
    return { $ref: out.$ref };
  }
  for (const key of Object.keys(out)) {
    const taken =
      STRICT_KEYWORDS.has(key) && (key !== 'format' || STRICT_FORMATS.has(out.format as string));
    if (taken) continue;
    if (!isConstraint(key)) throw new NotStrict(`the keyword ${key}`);
    const words = describeConstraint(key, out[key]);
    delete out[key];
    if (words) out.description = out.description ? `${out.description} ${words}` : words;
  }
  if (Array.isArray(out.anyOf)) {
    out.anyOf = out.anyOf.map((branch) => strictNode(branch, depth + 1, budget, false));
  }
  if (Array.isArray(out.enum)) budget.enumValues += out.enum.length;
  const types = Array.isArray(out.type) ? out.type : out.type === undefined ? [] : [out.type];
  if (
    types.length === 0 &&
    out.anyOf === undefined &&
    out.enum === undefined &&
    out.const === undefined
  ) {
    throw new NotStrict('a value of any type');
  }
  if (types.includes('object') || isObject(out.properties)) {
    const properties = isObject(out.properties) ? out.properties : {};
    if (out.additionalProperties !== undefined && out.additionalProperties !== false) {
      throw new NotStrict('an object with free-form keys (additionalProperties)');
    }
    if (Object.keys(properties).length === 0 && out.additionalProperties !== false && !atRoot) {
      throw new NotStrict('an object of any shape');
    }
    const required = new Set(Array.isArray(out.required) ? (out.required as string[]) : []);
    const strictProperties: Schema = {};
    for (const [name, property] of Object.entries(properties)) {
      budget.properties++;
      const strict = strictNode(property, depth + 1, budget, false);
      strictProperties[name] = required.has(name) ? strict : nullable(strict);
    }
    out.properties = strictProperties;
    out.required = Object.keys(strictProperties);
    out.additionalProperties = false;
  }
  if (types.includes('array')) {
    if (!isObject(out.items)) throw new NotStrict('an array without an item schema');
    out.items = strictNode(out.items, depth + 1, budget, false);
  }
  return out;
}

/** The schema, also accepting `null` (what a strict model sends for "not given"). */
function nullable(schema: Schema): Schema {
  if (typeof schema.type === 'string') {
    const out: Schema = {
      ...schema,
      type: schema.type === 'null' ? 'null' : [schema.type, 'null'],
    };
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  if (Array.isArray(schema.type)) {
    const out: Schema = {
      ...schema,
      type: schema.type.includes('null') ? schema.type : [...schema.type, 'null'],
    };
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  // (A schema with a type returned above.) An enum beside the union would still refuse null.
  if (Array.isArray(schema.anyOf) && schema.enum === undefined) {
    // strictNode made every branch an object.
    const hasNull = (schema.anyOf as Schema[]).some((branch) => branch.type === 'null');
    return hasNull ? schema : { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  }
  const { description, ...rest } = schema;
  return {
    ...(typeof description === 'string' ? { description } : {}),
    anyOf: [rest, { type: 'null' }],
  };
}
