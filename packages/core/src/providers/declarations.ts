/**
 * The shared half of every adapter's "declarations out": names valid and unique for the
 * API, descriptions within its limit (the rest moved into the parameters' description),
 * the schema in its subset (strict where asked and possible), and a warning when a
 * request carries more tools than the API takes.
 */
import { createHash } from 'node:crypto';
import type { FunctionDeclaration } from '../contract/content.js';
import { isObject, type Schema } from '../utils/json-schema.js';
import { PROVIDERS, type ProviderId, type ProviderRules } from './provider-rules.js';
import { transformSchema } from './schema-transform.js';
import { toStrictSchema } from './strict-schema.js';

export interface DeclarationOptions {
  /**
   * Receives each warning (a request with more tools than the API takes). Defaults to
   * `process.emitWarning`, once per distinct warning, which prints it on standard error.
   */
  onWarning?: (message: string) => void;
}

/** One declaration shaped for one API. */
export interface PreparedDeclaration {
  /** The name the API sees (and the model calls). */
  name: string;
  /** The registry's name, for the scheduler. */
  toolName: string;
  description: string;
  parameters: Schema;
  /** True when the parameters are a strict schema. */
  strict: boolean;
  /** Why a tool asked to be strict was sent non-strict. */
  notStrictBecause?: string;
}

/** Names both ways between the registry and one API. */
export interface ToolNameMap {
  /** The API's name for a registry name. */
  toProvider(toolName: string): string;
  /** The registry's name for the name a model called (unknown names pass unchanged). */
  toTool(providerName: string): string;
}

const CONTINUED_MARKER = ' [The description continues in the parameters\u2019 description.]';
const CUT_MARKER = ' [Description shortened.]';
/** The most description text moved into the parameters. */
const MOVED_LIMIT = 8000;

export function prepareDeclarations(
  declarations: readonly FunctionDeclaration[],
  provider: ProviderId,
  options: DeclarationOptions & { strict?: boolean } = {},
): PreparedDeclaration[] {
  const rules = PROVIDERS[provider];
  const names = toolNameMap(declarations, provider);
  const warn = options.onWarning ?? defaultWarning;
  if (rules.maxTools !== undefined && declarations.length > rules.maxTools) {
    warn(
      `This request carries ${declarations.length} tools; ${rules.label} takes at most ${rules.maxTools} and will refuse it. Limit the tools (settings tools.core / tools.exclude, or an MCP server's includeTools / excludeTools).`,
    );
  }
  return declarations.map((declaration) => {
    const toolName = declaration.name ?? '';
    const original = declaration.parametersJsonSchema ?? declaration.parameters;
    let parameters = transformSchema(original, rules.dialect);
    let strict = false;
    let notStrictBecause: string | undefined;
    const wantsStrict = options.strict ?? rules.strict ?? false;
    if (wantsStrict) {
      const outcome = toStrictSchema(parameters);
      if ('schema' in outcome) {
        parameters = outcome.schema;
        strict = true;
      } else {
        // Strict mode cannot say this without changing its meaning: send it non-strict.
        notStrictBecause = outcome.problem;
        parameters = transformSchema(original, { ...rules.dialect, formats: undefined });
      }
    }
    const fitted = fitDescription(declaration.description ?? '', rules.maxDescription, parameters);
    return {
      name: names.toProvider(toolName),
      toolName,
      description: fitted.description,
      parameters: fitted.parameters,
      strict,
      ...(notStrictBecause ? { notStrictBecause } : {}),
    };
  });
}

/**
 * Deterministic names for one API: characters outside its set become `_`, a name that
 * must start with a letter gets a `_` in front, a name over the limit is shortened with a
 * hash of the original, and two names that end up equal both get their hash.
 */
export function toolNameMap(
  declarations: readonly FunctionDeclaration[],
  provider: ProviderId,
): ToolNameMap {
  const rules = PROVIDERS[provider];
  const originals = [...new Set(declarations.map((declaration) => declaration.name ?? ''))];
  const candidates = new Map(originals.map((name) => [name, cleanName(name, rules)]));
  const counts = new Map<string, number>();
  for (const candidate of candidates.values())
    counts.set(candidate, (counts.get(candidate) ?? 0) + 1);
  const forward = new Map<string, string>();
  const backward = new Map<string, string>();
  for (const name of originals) {
    let candidate = candidates.get(name)!;
    if ((counts.get(candidate) ?? 0) > 1 && candidate !== name) {
      candidate = withHash(candidate, name, rules.maxNameLength);
    }
    forward.set(name, candidate);
    backward.set(candidate, name);
  }
  return {
    toProvider: (toolName) => forward.get(toolName) ?? cleanName(toolName, rules),
    toTool: (providerName) => backward.get(providerName) ?? providerName,
  };
}

function cleanName(name: string, rules: ProviderRules): string {
  let cleaned = [...name].map((char) => (rules.nameCharacters.test(char) ? char : '_')).join('');
  if (cleaned === '') cleaned = '_';
  if (rules.letterFirst && !/^[A-Za-z_]/.test(cleaned)) cleaned = `_${cleaned}`;
  if (cleaned.length > rules.maxNameLength) cleaned = withHash(cleaned, name, rules.maxNameLength);
  return cleaned;
}

function withHash(candidate: string, original: string, limit: number): string {
  const hash = createHash('sha256').update(original).digest('hex').slice(0, 8);
  return `${candidate.slice(0, limit - hash.length - 1)}_${hash}`;
}

/**
 * A description within `limit`: cut at a paragraph or sentence end, with a marker, and the
 * rest placed at the front of the parameters' own description so the model still reads it.
 */
export function fitDescription(
  description: string,
  limit: number | undefined,
  parameters: Schema,
): { description: string; parameters: Schema } {
  if (limit === undefined || description.length <= limit) return { description, parameters };
  const budget = limit - CONTINUED_MARKER.length;
  const cut = cutPoint(description, budget);
  const head = description.slice(0, cut).trimEnd();
  let rest = description.slice(cut).trim();
  if (rest.length > MOVED_LIMIT) rest = `${rest.slice(0, MOVED_LIMIT).trimEnd()}${CUT_MARKER}`;
  const existing = isObject(parameters) && typeof parameters.description === 'string';
  const moved = `(Continued from the tool description.) ${rest}`;
  return {
    description: `${head}${CONTINUED_MARKER}`,
    parameters: {
      ...parameters,
      description: existing ? `${moved}\n\n${parameters.description as string}` : moved,
    },
  };
}

function cutPoint(text: string, budget: number): number {
  const window = text.slice(0, budget);
  const paragraph = window.lastIndexOf('\n\n');
  if (paragraph > budget * 0.6) return paragraph;
  const sentence = Math.max(
    window.lastIndexOf('. '),
    window.lastIndexOf('.\n'),
    window.lastIndexOf('! '),
    window.lastIndexOf('? '),
  );
  if (sentence > budget * 0.6) return sentence + 1;
  const space = window.lastIndexOf(' ');
  return space > budget * 0.6 ? space : budget;
}

const warned = new Set<string>();

/** Each distinct warning once per process: an agent prepares its tools on every turn. */
function defaultWarning(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  process.emitWarning(message, { code: 'TOOLHOST_PROVIDER_LIMIT' });
}
