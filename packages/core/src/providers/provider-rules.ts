/**
 * What each model API accepts in a tool declaration: the name pattern, the description
 * limit, how many tools one request may carry, and its JSON Schema subset. The adapters
 * shape declarations to these rules and the checks in declaration-checks.ts verify them.
 */
import { CONSTRAINT_KEYWORDS, type ConstraintKeyword } from './schema-constraints.js';
import type { SchemaDialect } from './schema-transform.js';
import { STRICT_CONSTRAINTS, STRICT_FORMATS } from './strict-schema.js';

export type ProviderId =
  | 'openai-chat'
  | 'openai-chat-strict'
  | 'openai-responses'
  | 'gemini'
  | 'anthropic'
  | 'ai-sdk';

export interface ProviderRules {
  id: ProviderId;
  /** How messages name the API. */
  label: string;
  /** Characters a name may have; anything else becomes `_`. */
  nameCharacters: RegExp;
  /** The whole-name rule, for checks. */
  namePattern: RegExp;
  /** A name must start with a letter or `_` (Gemini). */
  letterFirst: boolean;
  maxNameLength: number;
  /** Longest function description (undefined: no documented limit). */
  maxDescription?: number;
  /** Most tools in one request (undefined: no documented limit). */
  maxTools?: number;
  dialect: SchemaDialect;
  /** Emits OpenAI strict schemas (with a non-strict fallback per tool). */
  strict?: boolean;
}

/** The constraint keywords the transform knows, but those an API does not take. */
function constraintsExcept(...dropped: ConstraintKeyword[]): ReadonlySet<string> {
  return new Set(CONSTRAINT_KEYWORDS.filter((keyword) => !dropped.includes(keyword)));
}

/** Permissive APIs keep every constraint (examples become words, for every API). */
const ALL_CONSTRAINTS = constraintsExcept('examples');

/** OpenAI-compatible endpoints (vLLM, Ollama, llama.cpp...): plain JSON Schema, no `$defs`. */
const COMPATIBLE: SchemaDialect = { constraints: ALL_CONSTRAINTS, recursion: 'flatten' };

/** OpenAI strict mode: the keywords and formats it is known to take (listed, so a new one stays out); recursion through `$defs`. */
const OPENAI_STRICT: SchemaDialect = {
  constraints: STRICT_CONSTRAINTS,
  formats: STRICT_FORMATS,
  recursion: 'defs',
};

/** Gemini's `parametersJsonSchema` subset. */
const GEMINI: SchemaDialect = {
  constraints: new Set(['format', 'minimum', 'maximum', 'minItems', 'maxItems']),
  recursion: 'defs',
  constAsEnum: true,
};

const ANTHROPIC: SchemaDialect = { constraints: ALL_CONSTRAINTS, recursion: 'defs' };

const OPENAI_NAME = {
  nameCharacters: /[A-Za-z0-9_-]/,
  namePattern: /^[A-Za-z0-9_-]{1,64}$/,
  letterFirst: false,
  maxNameLength: 64,
};

export const PROVIDERS: Readonly<Record<ProviderId, ProviderRules>> = {
  'openai-chat': {
    id: 'openai-chat',
    label: 'OpenAI Chat Completions',
    ...OPENAI_NAME,
    maxDescription: 1024,
    maxTools: 128,
    dialect: COMPATIBLE,
  },
  'openai-chat-strict': {
    id: 'openai-chat-strict',
    label: 'OpenAI Chat Completions (strict)',
    ...OPENAI_NAME,
    maxDescription: 1024,
    maxTools: 128,
    dialect: OPENAI_STRICT,
    strict: true,
  },
  'openai-responses': {
    id: 'openai-responses',
    label: 'OpenAI Responses',
    ...OPENAI_NAME,
    maxDescription: 1024,
    maxTools: 128,
    dialect: OPENAI_STRICT,
    strict: true,
  },
  gemini: {
    id: 'gemini',
    label: 'Gemini',
    nameCharacters: /[A-Za-z0-9_.:-]/,
    namePattern: /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/,
    letterFirst: true,
    maxNameLength: 64,
    dialect: GEMINI,
  },
  anthropic: {
    id: 'anthropic',
    label: 'Anthropic Messages',
    nameCharacters: /[A-Za-z0-9_-]/,
    namePattern: /^[A-Za-z0-9_-]{1,128}$/,
    letterFirst: false,
    maxNameLength: 128,
    dialect: ANTHROPIC,
  },
  'ai-sdk': {
    id: 'ai-sdk',
    label: 'Vercel AI SDK',
    // The AI SDK forwards to any provider: the strictest common name rule.
    nameCharacters: /[A-Za-z0-9_-]/,
    namePattern: /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/,
    letterFirst: true,
    maxNameLength: 64,
    maxDescription: 1024,
    dialect: COMPATIBLE,
  },
};
