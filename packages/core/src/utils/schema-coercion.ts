/**
 * What models send in the wrong JSON type, put right before a call is refused: `"true"` for
 * a boolean, `"30"` for a number, `5` for a string, `'["a"]'` for an array. Qwen Code
 * accepts these (its models were trained against it), so a call it would run is not
 * refused here. Only values whose schema names one type are touched; anything unclear is
 * left for the validator to report.
 */

type Schema = Record<string, unknown>;

/** A copy of `value` with mistyped values converted where the schema says what they must be. */
export function coerceToSchema(schema: Schema, value: unknown): unknown {
  const type = singleType(schema);
  if (type === undefined) return value;
  if (typeof value === 'string') {
    const converted = fromString(type, value);
    if (converted !== undefined) return coerceToSchema(schema, converted);
    return value;
  }
  if (type === 'string' && (typeof value === 'number' || typeof value === 'boolean'))
    return String(value);
  if (type === 'array' && Array.isArray(value)) {
    const items = schema.items;
    if (!items || typeof items !== 'object' || Array.isArray(items)) return value;
    return value.map((item) => coerceToSchema(items as Schema, item));
  }
  if (type === 'object' && value && typeof value === 'object' && !Array.isArray(value)) {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const property = properties[key];
      out[key] = property && typeof property === 'object' ? coerceToSchema(property, item) : item;
    }
    return out;
  }
  return value;
}

function singleType(schema: Schema): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    const real = type.filter((entry) => entry !== 'null');
    return real.length === 1 && typeof real[0] === 'string' ? real[0] : undefined;
  }
  return undefined;
}

/** The value a string stands for in the expected type, if it clearly stands for one. */
function fromString(type: string, text: string): unknown {
  const trimmed = text.trim();
  if (type === 'boolean') {
    if (/^true$/i.test(trimmed)) return true;
    if (/^false$/i.test(trimmed)) return false;
    return undefined;
  }
  if (type === 'number' || type === 'integer') {
    if (trimmed === '' || !/^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(trimmed)) return undefined;
    return Number(trimmed);
  }
  if (type === 'array' || type === 'object') {
    if (!trimmed.startsWith(type === 'array' ? '[' : '{')) return undefined;
    try {
      const parsed: unknown = JSON.parse(trimmed);
      const fits = type === 'array' ? Array.isArray(parsed) : parsed && !Array.isArray(parsed);
      return fits ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
