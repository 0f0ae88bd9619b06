/**
 * What an endpoint's error answer means: which failures are transient (worth the same
 * request again) and which name the request itself (sending it again fails the same way),
 * and what the person can change. The cause comes from the API's structured error first
 * (error-causes.ts, per family); for the servers that give no structured cause the body's
 * words are the fallback: llama-server answers 500 when it cannot render the conversation
 * with its chat template, and reports a prompt above its context as 400 (or inside a stream
 * after HTTP 200).
 */
import { askedDelayMs, causeOf, shouldRetryHeader, statedPromptTokens } from './error-causes.js';
import { isRetryable, ModelError, type ModelErrorKind } from './model-errors.js';
import type { ModelProvider } from './provider.js';

/** A body that says the prompt does not fit the model's context (llama.cpp, vLLM, OpenAI, LM Studio). */
const CONTEXT_EXCEEDED =
  /exceed_context_size|exceeds the maximum number of tokens|context_length_exceeded|maximum context length|exceeds? the (available )?context|context (size|length|window) (of|exceeded)|prompt is too long|too many tokens/i;

/** A 5xx body that names the request (its arguments, template, parsing) rather than the server's state. */
const NAMES_THE_REQUEST = /argument|template|pars(e|ing)|json|jinja|validation|schema/i;

/**
 * Chat Completions servers that run a model without tool calling say so only in words
 * (Ollama: "does not support tools"; vLLM: "auto" tool choice requires
 * --enable-auto-tool-choice).
 */
const NO_TOOL_CALLING =
  /does not support tools|tool.?choice requires|enable-auto-tool-choice|tool.?call(ing)? (is )?not (supported|enabled)|function calling is not/i;

/** The context size an error states, if any. */
export function statedContextSize(detail: string, body: unknown): number | undefined {
  const field = (body as { n_ctx?: unknown } | undefined)?.n_ctx;
  if (typeof field === 'number' && field > 0) return field;
  const match =
    /maximum context length is (\d+)/i.exec(detail) ??
    /context (?:length|size) of (?:only )?(\d+)/i.exec(detail) ??
    /n_ctx[^\d]{0,5}(\d+)/i.exec(detail) ??
    // Anthropic: "prompt is too long: 210000 tokens > 200000 maximum"; Gemini: "... allowed (1048576)".
    /> (\d+) maximum/i.exec(detail) ??
    /tokens allowed \((\d+)\)/i.exec(detail);
  return match ? Number(match[1]) : undefined;
}

/** What the error answer carried besides its status. */
export interface ErrorAnswer {
  status: number;
  /** The endpoint's own message. */
  detail: string;
  body: unknown;
  headers?: { get(name: string): string | null } | undefined;
  family?: ModelProvider | undefined;
}

/** The ModelError for an HTTP status and the message the endpoint gave with it. */
export function httpModelError(
  answer: ErrorAnswer,
  where: string,
  attempts: number,
  /** Where the key comes from, for a refused one. */
  keyHint = 'OPENAI_API_KEY or model.apiKey',
): ModelError {
  const { status, detail, body, headers } = answer;
  const family = answer.family ?? 'openai';
  const retryAfterMs = askedDelayMs(headers, body);
  const retryable = shouldRetryHeader(headers);
  const asked = {
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    ...(retryable !== undefined ? { retryable } : {}),
  };
  const make = (
    message: string,
    kind: ModelErrorKind,
    contextSize?: number,
    promptTokens?: number,
  ) =>
    new ModelError(message, kind, where, status, attempts, contextSize, {
      ...asked,
      ...(promptTokens ? { promptTokens } : {}),
      // Refused before any answer: the request (the prompt) is what was blocked.
      ...(kind === 'safety'
        ? {
            stop: {
              kind: 'safety' as const,
              reason: seenCode(body) ?? 'content_filter',
              detail,
              promptBlocked: true,
            },
          }
        : {}),
    });
  const seen = `HTTP ${status}: ${detail}`;
  const cause = causeOf(family, status, detail, body);
  if (cause?.kind === 'auth' || status === 401 || status === 403) {
    return make(`${where} refused the credentials (${seen}). Check ${keyHint}.`, 'auth');
  }
  const type = (body as { type?: unknown; code?: unknown } | undefined) ?? {};
  if (
    status !== 429 &&
    CONTEXT_EXCEEDED.test(`${detail} ${String(type.type)} ${String(type.code)}`)
  ) {
    const size = statedContextSize(detail, body);
    const prompt = statedPromptTokens(detail, body);
    const sizes =
      prompt && size
        ? ` (the request has ${prompt} tokens, the context ${size})`
        : size
          ? ` of ${size} tokens`
          : '';
    return make(
      `${where} says the conversation does not fit the model's context${sizes} (${seen}). Set model.contextWindow to the server's real size if it is wrong, or start a new session; a server with a larger context (llama-server -c, vLLM --max-model-len, Ollama num_ctx) takes more.`,
      'context_exceeded',
      size,
      prompt,
    );
  }
  if (cause) return make(causeMessage(cause.kind, cause.named, where, seen), cause.kind);
  if (
    family === 'openai' &&
    (status === 400 || status === 422 || status === 404) &&
    NO_TOOL_CALLING.test(detail)
  ) {
    return make(
      `${where} does not accept tool declarations (${seen}). Use a model and server with tool calling (function calling) turned on.`,
      'tools_rejected',
    );
  }
  if (status === 400 || status === 422) {
    return make(
      `${where} refused the request as invalid (${seen}). It was not sent again: the same request fails the same way. Check model.name and the options the server runs with; if the message names part of the conversation, start a new session.`,
      'invalid_request',
    );
  }
  if (status >= 500 && retryable !== true && NAMES_THE_REQUEST.test(detail)) {
    return make(
      `${where} could not process this conversation (${seen}). It was not sent again: the message names the request (its arguments, the chat template or parsing), so the same request fails the same way. For llama-server, start it with --jinja and a chat template that supports tool calls; if it persists, start a new session.`,
      'invalid_request',
    );
  }
  return make(`${where} answered ${seen}`, 'http');
}

function seenCode(body: unknown): string | undefined {
  const code = (body as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code ? code : undefined;
}

/** The message for a cause the API named: what happened, and what the person can do. */
function causeMessage(
  kind: ModelErrorKind,
  named: string | undefined,
  where: string,
  seen: string,
): string {
  const at = named ? ` (${named})` : '';
  switch (kind) {
    case 'invalid_tool_name':
      return `${where} refused a tool's name${at} (${seen}). It was not sent again. toolhost makes names valid for each API; report this with the tool's name, and leave the tool out (tools.exclude) meanwhile.`;
    case 'history_rejected':
      return `${where} refused the conversation's order${at}: a tool call and its result do not pair as this API requires (${seen}). It was not sent again. Start a new session (or /clear); if it happens again, report it.`;
    case 'unparsable_output':
      return `${where} could not parse what the model wrote with ${named ?? 'its chat template'} (${seen}). It was not sent again: the model wrote a tool call in a format the server's chat template does not expect. Use the template made for this model (llama-server --jinja, --chat-template-file), a lower temperature, or another model.`;
    case 'quota':
      return `${where} says the account's quota is spent${at} (${seen}). It was not sent again: waiting a few seconds does not help. Check the plan and billing of the key, or use another model.`;
    case 'safety':
      return `${where} refused the request on safety grounds${at} (${seen}). It was not sent again unchanged; rephrase the prompt.`;
    default:
      return `${where} refused the request as invalid${at} (${seen}). It was not sent again: the same request fails the same way.`;
  }
}

/** The error once the retries of a transient failure are spent: it says so, and what to do. */
export function afterRetries(error: ModelError): ModelError {
  if (error.attempts <= 1 || !isRetryable(error.kind, error.status, error.details)) return error;
  const what =
    error.kind === 'http'
      ? error.status === 429
        ? 'the server keeps limiting the rate; try again later'
        : 'the server is overloaded or failing; try again later'
      : 'check that the server is running and reachable';
  return new ModelError(
    `${error.message.replace(/\.?$/, '.')} Gave up after ${error.attempts} attempts: ${what}, or raise model.maxRetries.`,
    error.kind,
    error.endpoint,
    error.status,
    error.attempts,
    error.contextSize,
    error.details,
  );
}

/** A wait asked for that is longer than the client waits: the request is not tried again. */
export function waitTooLong(error: ModelError, askedMs: number, capMs: number): ModelError {
  return new ModelError(
    `${error.message.replace(/\.?$/, '.')} The server asks to wait ${Math.ceil(askedMs / 1000)} s before trying again, longer than toolhost waits (${Math.round(capMs / 1000)} s); try again later.`,
    error.status === 429 ? 'quota' : error.kind,
    error.endpoint,
    error.status,
    error.attempts,
    error.contextSize,
    error.details,
  );
}
