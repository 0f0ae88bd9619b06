/**
 * Kubernetes objects checked against the API's own schemas: the JSON schema of each kind
 * as `kubernetes-models` ships it (generated from the Kubernetes OpenAPI document),
 * compiled here with ajv in strict form, where a field the kind does not have is an
 * error (as the API server's strict field validation rejects it), not silently dropped.
 *
 * The package registers its schemas through `@kubernetes-models/validate`; that module is
 * stood in for before the models load, so each schema is collected as written.
 */
import { createRequire } from 'node:module';
import { Ajv, type ErrorObject } from 'ajv';

const require = createRequire(import.meta.url);
type Schema = Record<string, unknown>;
const collected = new Map<string, Schema>();
const registry = require.resolve('@kubernetes-models/validate');
require.cache[registry] = {
  id: registry,
  filename: registry,
  loaded: true,
  exports: {
    register(id: string, schema: Schema) {
      if (!collected.has(id)) collected.set(id, schema);
    },
    validate() {},
  },
} as unknown as NodeJS.Module;

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });

/** The schema id of an object's kind, registering the schemas it needs. */
function schemaId(object: { apiVersion?: unknown; kind?: unknown }): string {
  const { apiVersion, kind } = object;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string')
    throw new Error('not a Kubernetes object: apiVersion and kind must be strings');
  const group = apiVersion.includes('/') ? apiVersion : 'v1';
  const models = require(`kubernetes-models/${group}`) as Record<string, unknown>;
  const Model = models[kind] as (new (data: unknown) => { validate(): void }) | undefined;
  if (!Model) throw new Error(`kubernetes-models has no ${kind} in ${apiVersion}`);
  new Model(object).validate();
  const symbol = Object.getOwnPropertySymbols(Model.prototype).find(
    (candidate) => candidate.description === 'SCHEMA_ID',
  );
  const id = symbol && (Model.prototype as Record<symbol, unknown>)[symbol];
  if (typeof id !== 'string') throw new Error(`no schema id for ${apiVersion} ${kind}`);
  for (const [name, schema] of collected)
    if (!ajv.getSchema(name)) ajv.addSchema(strictCopy(schema) as Schema, name);
  return id;
}

/** The schema with every object that lists its properties closed to others. */
function strictCopy(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strictCopy);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Schema = {};
  for (const [key, value] of Object.entries(schema))
    copy[key] = key === 'properties' ? mapValues(value as Schema, strictCopy) : strictCopy(value);
  if ('properties' in copy && !('additionalProperties' in copy)) copy.additionalProperties = false;
  return copy;
}

function mapValues(object: Schema, map: (value: unknown) => unknown): Schema {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, map(value)]));
}

/** What is wrong with a Kubernetes object, one line per problem; empty when it is valid. */
export function kubernetesProblems(object: { apiVersion?: unknown; kind?: unknown }): string[] {
  const validate = ajv.getSchema(schemaId(object));
  if (!validate) throw new Error('the schema did not compile');
  if (validate(object)) return [];
  // A nullable field's schema is "oneOf: [the type, null]": its failures repeat the real one.
  const noise = (error: ErrorObject) =>
    error.keyword === 'oneOf' ||
    (error.keyword === 'type' && (error.params as { type?: string }).type === 'null');
  return (validate.errors ?? []).filter((error) => !noise(error)).map(describe);
}

function describe(error: ErrorObject): string {
  const extra =
    error.keyword === 'additionalProperties'
      ? ` (${String((error.params as { additionalProperty?: string }).additionalProperty)})`
      : '';
  return `${error.instancePath || '/'} ${error.message ?? error.keyword}${extra}`;
}
