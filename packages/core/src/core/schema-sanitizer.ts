/**
 * A variant of a tool's JSON Schema for strict OpenAI-compatible endpoints: local `$ref`s
 * are inlined (a reference back into itself becomes a plain object), keywords many
 * endpoints reject are dropped, `oneOf` becomes `anyOf`, and `required` keeps only
 * properties that exist. The Gemini-style declaration keeps the schema as it was.
 */

type Schema = Record<string, unknown>;

const KEPT = new Set([
  'type',
  'description',
  'properties',
  'required',
  'items',
  'enum',
  'const',
  'anyOf',
  'additionalProperties',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'pattern',
  'nullable',
]);
const MAX_DEPTH = 32;

export function sanitizeSchemaForOpenAI(schema: unknown): Schema {
  const root = (typeof schema === 'object' && schema !== null ? schema : {}) as Schema;
  const result = clean(root, root, new Set(), 0);
  if (result.type === undefined) result.type = 'object';
  if (result.type === 'object' && result.properties === undefined) result.properties = {};
  return result;
}

function clean(node: Schema, root: Schema, resolving: Set<string>, depth: number): Schema {
  if (depth > MAX_DEPTH) return { type: 'object' };
  if (typeof node.$ref === 'string') {
    const ref = node.$ref;
    const target = resolveRef(root, ref);
    if (!target || resolving.has(ref)) {
      // A recursive or unknown reference: keep the shape open instead of looping.
      return {
        type: 'object',
        ...(typeof node.description === 'string' ? { description: node.description } : {}),
      };
    }
    const next = new Set(resolving).add(ref);
    const { $ref: _ref, ...siblings } = node;
    return clean({ ...target, ...siblings }, root, next, depth + 1);
  }
  let source = node;
  if (Array.isArray(node.allOf)) {
    // Merge allOf parts into one object schema.
    const { allOf, ...rest } = node;
    source = (allOf as Schema[]).reduce<Schema>((merged, part) => mergeSchemas(merged, part), rest);
  }
  const out: Schema = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'oneOf' && Array.isArray(value)) {
      out.anyOf = value.map((item) => clean(item as Schema, root, resolving, depth + 1));
    } else if (!KEPT.has(key)) {
    } else if (key === 'properties' && isObject(value)) {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, prop]) => [
          name,
          clean(isObject(prop) ? prop : {}, root, resolving, depth + 1),
        ]),
      );
    } else if (key === 'items' && isObject(value)) {
      out.items = clean(value, root, resolving, depth + 1);
    } else if (key === 'anyOf' && Array.isArray(value)) {
      out.anyOf = value.map((item) => clean(item as Schema, root, resolving, depth + 1));
    } else if (key === 'additionalProperties' && isObject(value)) {
      out.additionalProperties = clean(value, root, resolving, depth + 1);
    } else {
      out[key] = value;
    }
  }
  if (Array.isArray(out.required)) {
    const names = isObject(out.properties) ? Object.keys(out.properties) : [];
    out.required = (out.required as unknown[]).filter(
      (name): name is string => typeof name === 'string' && names.includes(name),
    );
  }
  if (out.type === 'array' && out.items === undefined) out.items = {};
  return out;
}

function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const segment = decodeURIComponent(raw.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (!isObject(node)) return undefined;
    node = node[segment];
  }
  return isObject(node) ? node : undefined;
}

function mergeSchemas(a: Schema, b: Schema): Schema {
  const merged: Schema = { ...a, ...b };
  if (isObject(a.properties) || isObject(b.properties)) {
    merged.properties = {
      ...(isObject(a.properties) ? a.properties : {}),
      ...(isObject(b.properties) ? b.properties : {}),
    };
  }
  if (Array.isArray(a.required) || Array.isArray(b.required)) {
    merged.required = [
      ...new Set([...((a.required as string[]) ?? []), ...((b.required as string[]) ?? [])]),
    ];
  }
  return merged;
}

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
