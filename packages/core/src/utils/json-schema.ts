/** Small JSON Schema helpers shared by the schema transforms and the scheduler. */

export type Schema = Record<string, unknown>;

export function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The node a local reference (`#/$defs/x`, `#/properties/a`) points at. */
export function resolvePointer(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node)) return undefined;
    node = node[segment];
  }
  return isObject(node) ? node : undefined;
}

/** allOf semantics: both schemas apply, so properties and `required` are united. */
export function mergeSchemas(a: unknown, b: unknown): Schema {
  if (!isObject(a)) return isObject(b) ? { ...b } : {};
  if (!isObject(b)) return { ...a };
  const merged: Schema = { ...a, ...b };
  if (isObject(a.properties) && isObject(b.properties)) {
    const properties: Schema = { ...a.properties };
    for (const [name, property] of Object.entries(b.properties)) {
      properties[name] = name in properties ? mergeSchemas(properties[name], property) : property;
    }
    merged.properties = properties;
  }
  if (Array.isArray(a.required) || Array.isArray(b.required)) {
    merged.required = [
      ...new Set([
        ...(Array.isArray(a.required) ? a.required : []),
        ...(Array.isArray(b.required) ? b.required : []),
      ]),
    ];
  }
  if (a.type !== undefined && b.type !== undefined) {
    const left = Array.isArray(a.type) ? a.type : [a.type];
    const right = Array.isArray(b.type) ? b.type : [b.type];
    const both = left.filter((type) => right.includes(type));
    if (both.length > 0) merged.type = both.length === 1 ? both[0] : both;
  }
  if (
    typeof a.description === 'string' &&
    typeof b.description === 'string' &&
    a.description !== b.description
  ) {
    merged.description = `${b.description} ${a.description}`;
  }
  return merged;
}

/** The node with its `$ref` and `allOf` resolved one level (enough to read its shape). */
export function shallowResolve(root: Schema, node: unknown, depth = 0): Schema {
  if (!isObject(node) || depth > 16) return {};
  let current = node;
  if (typeof current.$ref === 'string') {
    const { $ref, ...siblings } = current;
    current = mergeSchemas(
      shallowResolve(root, resolvePointer(root, $ref as string), depth + 1),
      siblings,
    );
  }
  if (Array.isArray(current.allOf)) {
    const { allOf, ...rest } = current;
    current = allOf.reduce<Schema>(
      (merged, part) => mergeSchemas(merged, shallowResolve(root, part, depth + 1)),
      rest,
    );
  }
  return current;
}

/** True when the schema lets `null` through (an empty schema does). */
export function acceptsNull(root: Schema, node: unknown): boolean {
  if (node === true || node === undefined) return true;
  const schema = shallowResolve(root, node);
  if (Object.keys(schema).length === 0) return true;
  if (schema.nullable === true || schema.const === null) return true;
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null')))
    return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  const union = [
    ...(Array.isArray(schema.anyOf) ? schema.anyOf : []),
    ...(Array.isArray(schema.oneOf) ? schema.oneOf : []),
  ];
  if (union.some((branch) => acceptsNull(root, branch))) return true;
  return (
    schema.type === undefined &&
    union.length === 0 &&
    schema.enum === undefined &&
    schema.const === undefined
  );
}

/**
 * Strict function calling (OpenAI `strict: true`) makes every optional parameter required
 * and nullable, so a model sends `null` for "not given". This turns such nulls back into
 * absent parameters, at every level, wherever the tool's own schema does not take `null`
 * and the parameter is optional. Returns a new value; the input is unchanged.
 */
export function dropNullOptionals(value: unknown, schema: unknown, root?: Schema): unknown {
  const rootSchema = root ?? (isObject(schema) ? schema : {});
  const shape = shallowResolve(rootSchema, schema);
  if (Array.isArray(value)) {
    const items = shape.items;
    return isObject(items)
      ? value.map((item) => dropNullOptionals(item, items, rootSchema))
      : value;
  }
  if (!isObject(value)) return value;
  const properties = isObject(shape.properties) ? shape.properties : {};
  const required = Array.isArray(shape.required) ? shape.required : [];
  const out: Schema = {};
  for (const [key, item] of Object.entries(value)) {
    const property = properties[key];
    if (item === null && property !== undefined && !required.includes(key)) {
      if (!acceptsNull(rootSchema, property)) continue;
    }
    out[key] = property === undefined ? item : dropNullOptionals(item, property, rootSchema);
  }
  return out;
}
