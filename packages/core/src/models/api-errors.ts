/**
 * What an endpoint's error answer means: which failures are transient (worth the same
 * request again) and which name the request itself (sending it again fails the same way),
 * and what the person can change. Servers disagree on statuses, so the body is read too:
 * llama-server answers 500 when it cannot render the conversation with its chat template,
 * and reports a prompt above its context as 400 (or inside a stream after HTTP 200).
 */
import { isRetryable, ModelError } from './model-errors.js';

/** A body that says the prompt does not fit the model's context (llama.cpp, vLLM, OpenAI, LM Studio). */
const CONTEXT_EXCEEDED =
  /exceed_context_size|exceeds the maximum number of tokens|context_length_exceeded|maximum context length|exceeds? the (available )?context|context (size|length|window) (of|exceeded)|prompt is too long|too many tokens/i;

/** A 5xx body that names the request (its arguments, template, parsing) rather than the server's state. */
const NAMES_THE_REQUEST = /argument|template|pars(e|ing)|json|jinja|validation|schema/i;

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

/** The ModelError for an HTTP status and the message the endpoint gave with it. */
export function httpModelError(
  status: number,
  detail: string,
  body: unknown,
  where: string,
  attempts: number,
  /** Where the key comes from, for a refused one. */
  keyHint = 'OPENAI_API_KEY or model.apiKey',
): ModelError {
  const make = (message: string, kind: ModelError['kind'], contextSize?: number) =>
    new ModelError(message, kind, where, status, attempts, contextSize);
  const seen = `HTTP ${status}: ${detail}`;
  if (status === 401 || status === 403) {
    return make(`${where} refused the credentials (${seen}). Check ${keyHint}.`, 'auth');
  }
  const type = (body as { type?: unknown; code?: unknown } | undefined) ?? {};
  if (
    status !== 429 &&
    CONTEXT_EXCEEDED.test(`${detail} ${String(type.type)} ${String(type.code)}`)
  ) {
    const size = statedContextSize(detail, body);
    return make(
      `${where} says the conversation does not fit the model's context${size ? ` of ${size} tokens` : ''} (${seen}). Set model.contextWindow to the server's real size if it is wrong, or start a new session; a server with a larger context (llama-server -c, vLLM --max-model-len, Ollama num_ctx) takes more.`,
      'context_exceeded',
      size,
    );
  }
  if ((status === 400 || status === 422 || status === 404) && /tool|function/i.test(detail)) {
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
  if (status >= 500 && NAMES_THE_REQUEST.test(detail)) {
    return make(
      `${where} could not process this conversation (${seen}). It was not sent again: the message names the request (its arguments, the chat template or parsing), so the same request fails the same way. For llama-server, start it with --jinja and a chat template that supports tool calls; if it persists, start a new session.`,
      'invalid_request',
    );
  }
  return make(`${where} answered ${seen}`, 'http');
}

/** The error once the retries of a transient failure are spent: it says so, and what to do. */
export function afterRetries(error: ModelError): ModelError {
  if (error.attempts <= 1 || !isRetryable(error.kind, error.status)) return error;
  const what =
    error.kind === 'http'
      ? 'the server is overloaded or failing; try again later'
      : 'check that the server is running and reachable';
  return new ModelError(
    `${error.message.replace(/\.?$/, '.')} Gave up after ${error.attempts} attempts: ${what}, or raise model.maxRetries.`,
    error.kind,
    error.endpoint,
    error.status,
    error.attempts,
  );
}
