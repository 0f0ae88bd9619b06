/**
 * Which opening messages the stdio opening (stdio-opening.ts) may answer itself: only those
 * the MCP SDK's schemas accept for certain, checked field by field as those schemas read
 * them (types.js: InitializeRequestParamsSchema, ClientCapabilitiesSchema,
 * ImplementationSchema, ListToolsRequestSchema). Anything else, however likely the SDK is to
 * accept it, is left to the SDK, so that an answer of the opening is never one the SDK would
 * not have given. Unknown keys pass: the SDK's objects ignore them.
 */

type Fields = Record<string, unknown>;

export function isPlainObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What the SDK's "an object" check accepts (arrays and functions too). */
function isObjectLike(value: unknown): boolean {
  return value !== null && (typeof value === 'object' || typeof value === 'function');
}

export function isId(value: unknown): value is string | number {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
}

const optional =
  (check: (value: unknown) => boolean) =>
  (value: unknown): boolean =>
    value === undefined || check(value);

const isString = (value: unknown) => typeof value === 'string';
const isBoolean = (value: unknown) => typeof value === 'boolean';

/** A plain object whose named fields pass their checks. */
function shaped(fields: Record<string, (value: unknown) => boolean>) {
  return (value: unknown): boolean =>
    isPlainObject(value) && Object.entries(fields).every(([name, check]) => check(value[name]));
}

/** A plain object each of whose values is object-like (experimental, extensions). */
function objectRecord(value: unknown): boolean {
  return isPlainObject(value) && Object.values(value).every(isObjectLike);
}

const CLIENT_CAPABILITIES = shaped({
  experimental: optional(objectRecord),
  extensions: optional(objectRecord),
  sampling: optional(shaped({ context: optional(isObjectLike), tools: optional(isObjectLike) })),
  elicitation: optional(
    shaped({
      form: optional(shaped({ applyDefaults: optional(isBoolean) })),
      url: optional(isObjectLike),
    }),
  ),
  roots: optional(shaped({ listChanged: optional(isBoolean) })),
  // Tasks have a deep schema of their own: a client that offers them is left to the SDK.
  tasks: (value) => value === undefined,
});

/** Icons, a list of their own shape, are left to the SDK too. */
const CLIENT_INFO = shaped({
  name: isString,
  version: isString,
  title: optional(isString),
  websiteUrl: optional(isString),
  description: optional(isString),
  icons: (value) => value === undefined,
});

/** Request metadata as the opening meets it: an object carrying no progress token. */
const META = optional(shaped({ progressToken: (value) => value === undefined }));

export function isInitializeParams(params: unknown): params is { protocolVersion: string } {
  return (
    isPlainObject(params) &&
    isString(params.protocolVersion) &&
    CLIENT_CAPABILITIES(params.capabilities) &&
    CLIENT_INFO(params.clientInfo) &&
    META(params._meta)
  );
}

export function isListParams(params: unknown): boolean {
  return optional(shaped({ cursor: optional(isString), _meta: META }))(params);
}
