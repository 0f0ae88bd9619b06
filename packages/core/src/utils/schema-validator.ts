/**
 * The one JSON Schema validator every tool uses. Messages name the parameter the way a
 * model sent it (`absolute_path must be string`) so it can correct the call.
 */
import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type addFormatsModule from 'ajv-formats';
import { quickSchemaCheck } from './quick-schema-check.js';

// ajv is some ninety CommonJS files: it is required on the first validation that
// quick-schema-check.ts cannot answer, from this module's own location, so `toolhost tools`
// and a start that validates only good values against plain schemas never load it.
const requireHere = createRequire(import.meta.url);

function makeAjv<T extends Ajv | Ajv2020>(instance: T): T {
  // ajv-formats is CommonJS: its function is the module itself (typed as `default.default`).
  const addFormats = requireHere('ajv-formats') as typeof addFormatsModule.default;
  // strict mode would reject the vendor keywords MCP servers and models put in schemas.
  addFormats(instance as Ajv);
  return instance;
}

// Built on first use (each adds its meta-schemas): listing tools validates nothing, and
// most sessions never see a 2020-12 schema.
let draft7: Ajv | undefined;
let draft2020: Ajv2020 | undefined;
function validatorFor(schema: Record<string, unknown>): Ajv | Ajv2020 {
  const options = { strict: false, allErrors: true, validateSchema: false };
  if (typeof schema.$schema === 'string' && schema.$schema.includes('2020-12')) {
    const { Ajv2020 } = requireHere('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    draft2020 ??= makeAjv(new Ajv2020(options));
    return draft2020;
  }
  const { Ajv } = requireHere('ajv') as typeof import('ajv');
  draft7 ??= makeAjv(new Ajv(options));
  return draft7;
}

type Compiled = ValidateFunction | { compileError: string };
const cache = new WeakMap<object, Compiled>();

function compile(schema: Record<string, unknown>): Compiled {
  const cached = cache.get(schema);
  if (cached) return cached;
  let compiled: Compiled;
  try {
    const ajv = validatorFor(schema);
    // A schema without $id is compiled afresh each time, so cache by object identity.
    const { $schema: _ignored, ...rest } = schema;
    compiled = ajv.compile(rest);
  } catch (error) {
    compiled = { compileError: error instanceof Error ? error.message : String(error) };
  }
  cache.set(schema, compiled);
  return compiled;
}

/** Why `schema` cannot be used to validate anything, or undefined when it can. */
export function schemaCompileError(schema: Record<string, unknown>): string | undefined {
  const compiled = compile(schema);
  return 'compileError' in compiled ? compiled.compileError : undefined;
}

/** One problem found in a value: where (`todos[1].status`, empty for the root) and what. */
export interface SchemaProblem {
  /** Path segments from the root to the offending value. */
  path: string[];
  /** The parameter or key as a reader writes it: `todos[1].status`. */
  name: string;
  message: string;
}

/**
 * Every problem `data` has against `schema`, or a single problem with an empty path when
 * the schema itself cannot be used.
 */
export function schemaProblems(schema: Record<string, unknown>, data: unknown): SchemaProblem[] {
  // Most values are valid against toolhost's own plain schemas: answered without ajv.
  if (quickSchemaCheck(schema, data) === true) return [];
  return ajvProblems(schema, data);
}

/** schemaProblems as ajv alone finds them (quick-schema-check.test.ts compares the two). */
export function ajvProblems(schema: Record<string, unknown>, data: unknown): SchemaProblem[] {
  const compiled = compile(schema);
  if ('compileError' in compiled) {
    return [
      {
        path: [],
        name: '',
        message: `This tool's parameter schema is invalid (${compiled.compileError}); the tool cannot be called until its provider fixes it.`,
      },
    ];
  }
  let valid: boolean;
  try {
    valid = compiled(data) as boolean;
  } catch (error) {
    // A $ref that leads back to itself without consuming input recurses until the stack ends.
    const reason = error instanceof RangeError ? 'its $ref references loop forever' : String(error);
    return [
      {
        path: [],
        name: '',
        message: `This tool's parameter schema cannot be checked (${reason}); the tool cannot be called until its provider fixes it.`,
      },
    ];
  }
  if (valid) return [];
  const seen = new Set<string>();
  const problems: SchemaProblem[] = [];
  for (const error of compiled.errors ?? []) {
    const problem = toProblem(error);
    const key = `${problem.name}\0${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}

/** Returns null when `data` satisfies `schema`, else one message naming every problem. */
export function validateAgainstSchema(
  schema: Record<string, unknown>,
  data: unknown,
): string | null {
  const problems = schemaProblems(schema, data ?? {});
  if (problems.length === 0) return null;
  return problems.map(formatProblem).join('; ');
}

function formatProblem(problem: SchemaProblem): string {
  if (problem.path.length === 0 && problem.name === '' && problem.message.startsWith('This tool')) {
    return problem.message;
  }
  return `${problem.name || 'params'} ${problem.message}`;
}

function toProblem(error: ErrorObject): SchemaProblem {
  const path = error.instancePath
    ? error.instancePath
        .split('/')
        .slice(1)
        .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    : [];
  switch (error.keyword) {
    case 'required': {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      return {
        path: [...path, missing],
        name: pathToName([...path, missing]),
        message: 'is required',
      };
    }
    case 'additionalProperties': {
      const extra = (error.params as { additionalProperty: string }).additionalProperty;
      return {
        path: [...path, extra],
        name: pathToName([...path, extra]),
        message: 'is not a known property',
      };
    }
    case 'enum': {
      const allowed = (error.params as { allowedValues: unknown[] }).allowedValues;
      return {
        path,
        name: pathToName(path),
        message: `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`,
      };
    }
    case 'type':
      if (path.length === 0) {
        return { path, name: '', message: 'must be an object of named parameters' };
      }
      return { path, name: pathToName(path), message: error.message ?? 'has the wrong type' };
    default:
      return { path, name: pathToName(path), message: error.message ?? 'is invalid' };
  }
}

/** `['todos', '0', 'status']` → `todos[0].status` */
export function pathToName(path: string[]): string {
  return path.reduce((name, segment) => {
    if (/^\d+$/.test(segment)) return `${name}[${segment}]`;
    return name ? `${name}.${segment}` : segment;
  }, '');
}
