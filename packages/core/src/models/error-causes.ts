/**
 * What each model API's structured error says went wrong, read from the fields the API
 * defines (OpenAI's `code`, `type` and `param`; Anthropic's error `type` and the request
 * path its message starts with; Gemini's `status` and `details` (BadRequest field
 * violations, RetryInfo, QuotaFailure, ErrorInfo); llama-server's `type` and token counts)
 * rather than from words anywhere in the message, and how long the API asked to wait
 * before another attempt. api-errors.ts turns the cause into the message the person reads.
 */
import type { ModelErrorKind } from './model-errors.js';
import type { ModelProvider } from './provider.js';
import { parseRetryAfter } from './retry-policy.js';

export interface ErrorCause {
  kind: ModelErrorKind;
  /** The API's own name for the cause (`insufficient_quota`, `tools[0].name`...), for the message. */
  named?: string;
}

type Fields = Record<string, unknown>;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The cause an error body names, for the family that sent it; undefined when it names none. */
export function causeOf(
  family: ModelProvider,
  status: number,
  detail: string,
  body: unknown,
): ErrorCause | undefined {
  const fields = (body && typeof body === 'object' ? body : {}) as Fields;
  switch (family) {
    case 'anthropic':
      return anthropicCause(fields, detail);
    case 'gemini':
      return geminiCause(status, fields, detail);
    default:
      return openaiCause(family, status, fields, detail);
  }
}

/** `{type, message}`: the type names the class, the message starts with the request path. */
function anthropicCause(fields: Fields, detail: string): ErrorCause | undefined {
  const type = text(fields.type);
  if (type === 'billing_error') return { kind: 'quota', named: type };
  if (type !== 'invalid_request_error') return undefined;
  const path = /^([a-z_]+(?:\.[\w-]+)*):/.exec(detail)?.[1] ?? '';
  if (/^tools\.\d+\.(custom\.)?name$/.test(path)) return { kind: 'invalid_tool_name', named: path };
  // `tool_use` ids without `tool_result` blocks after them, or results answering no call.
  if (/^messages\.\d+/.test(path) && /`tool_(use|result)`|tool_use_id/.test(detail))
    return { kind: 'history_rejected', named: path };
  return undefined;
}

/** google.rpc.Status: `status`, and typed `details`. */
function geminiCause(status: number, fields: Fields, detail: string): ErrorCause | undefined {
  const details = Array.isArray(fields.details) ? (fields.details as Fields[]) : [];
  const ofType = (suffix: string) =>
    details.filter((entry) => text(entry['@type']).endsWith(`google.rpc.${suffix}`));
  const reasons = ofType('ErrorInfo').map((entry) => text(entry.reason));
  if (reasons.some((reason) => /^API_KEY_/.test(reason)))
    return { kind: 'auth', named: reasons[0] };
  const violations = ofType('BadRequest').flatMap((entry) =>
    Array.isArray(entry.fieldViolations) ? (entry.fieldViolations as Fields[]) : [],
  );
  const fieldsNamed = [
    ...violations.map((violation) => text(violation.field)),
    // The message lists the same paths when no details come with it.
    ...[
      ...detail.matchAll(/([\w.]*(?:function_declarations|functionDeclarations)\[\d+\]\.name)/g),
    ].map((match) => match[1] ?? ''),
  ];
  const badName = fieldsNamed.find((field) =>
    /(function_declarations|functionDeclarations)\[\d+\]\.name$/.test(field),
  );
  if (badName) return { kind: 'invalid_tool_name', named: badName };
  // Gemini's rules for function turns: a call turn right after a user or response turn,
  // as many response parts as call parts.
  if (
    text(fields.status) === 'INVALID_ARGUMENT' &&
    /function (call|response) (turn|parts)/i.test(detail)
  )
    return { kind: 'history_rejected', named: 'function turn' };
  if (status === 429) {
    const perDay = ofType('QuotaFailure').some((entry) =>
      (Array.isArray(entry.violations) ? (entry.violations as Fields[]) : []).some((violation) =>
        /PerDay/i.test(text(violation.quotaId)),
      ),
    );
    if (perDay) return { kind: 'quota', named: 'a daily quota' };
  }
  return undefined;
}

/** `{message, type, param, code}` (OpenAI and the servers that copy it, llama-server included). */
function openaiCause(
  family: ModelProvider,
  status: number,
  fields: Fields,
  detail: string,
): ErrorCause | undefined {
  const code = text(fields.code);
  const type = text(fields.type);
  const param = text(fields.param);
  if (code === 'insufficient_quota' || type === 'insufficient_quota')
    return { kind: 'quota', named: 'insufficient_quota' };
  if (/content_filter|content_policy_violation/.test(code)) return { kind: 'safety', named: code };
  if (/^tools\[\d+\]\.(function\.)?name$/.test(param) || code === 'invalid_function_name')
    return { kind: 'invalid_tool_name', named: param || code };
  if (
    /^(messages|input)\b/.test(param) &&
    /tool_call_id|call_id|function_call_output|tool message|function call/i.test(detail)
  )
    return { kind: 'history_rejected', named: param };
  if (family === 'openai-responses') {
    if (code === 'invalid_prompt') return { kind: 'invalid_request', named: code };
    if (
      /^(invalid_image|invalid_base64_image|image_|empty_image|failed_to_download_image|unsupported_image)/.test(
        code,
      )
    )
      return { kind: 'invalid_request', named: code };
  }
  // llama-server: its chat template's parser could not read what the model wrote.
  if (
    type === 'server_error' &&
    status >= 500 &&
    /does not match the expected .*format|failed to parse input at pos/i.test(detail)
  )
    return { kind: 'unparsable_output', named: 'the chat template\u2019s output format' };
  return undefined;
}

/** The prompt's size, when the error states it (llama-server, OpenAI, Anthropic, Gemini). */
export function statedPromptTokens(detail: string, body: unknown): number | undefined {
  const field = (body as { n_prompt_tokens?: unknown } | undefined)?.n_prompt_tokens;
  if (typeof field === 'number' && field > 0) return field;
  const match =
    /resulted in (\d+) tokens/i.exec(detail) ??
    /prompt is too long: (\d+) tokens/i.exec(detail) ??
    /input token count \((\d+)\)/i.exec(detail) ??
    /request \((\d+) tokens\)/i.exec(detail);
  return match ? Number(match[1]) : undefined;
}

/** A google.protobuf.Duration as JSON (`"43s"`, `"1.5s"`) in milliseconds. */
function durationMs(value: unknown): number | undefined {
  const match = /^(\d+(?:\.\d+)?)s$/.exec(text(value).trim());
  return match ? Math.round(Number(match[1]) * 1000) : undefined;
}

/**
 * The wait an error asks for: `retry-after-ms` / `Retry-After` (seconds or a date), Gemini's
 * RetryInfo in the body, else the reset time of an Anthropic rate limit that is spent.
 */
export function askedDelayMs(
  headers: { get(name: string): string | null } | undefined,
  body: unknown,
  now = Date.now(),
): number | undefined {
  const fromHeader = parseRetryAfter(headers, now);
  if (fromHeader !== undefined) return fromHeader;
  const details = (body as { details?: unknown } | undefined)?.details;
  for (const entry of Array.isArray(details) ? (details as Fields[]) : []) {
    if (text(entry['@type']).endsWith('google.rpc.RetryInfo')) {
      const delay = durationMs(entry.retryDelay);
      if (delay !== undefined) return delay;
    }
  }
  let reset: number | undefined;
  for (const limit of ['requests', 'tokens', 'input-tokens', 'output-tokens']) {
    if (headers?.get(`anthropic-ratelimit-${limit}-remaining`) !== '0') continue;
    const at = Date.parse(headers?.get(`anthropic-ratelimit-${limit}-reset`) ?? '');
    if (!Number.isNaN(at)) reset = Math.max(reset ?? 0, at - now);
  }
  return reset === undefined ? undefined : Math.max(0, reset);
}

/** The API's own word on whether to try again (`x-should-retry`, OpenAI and Anthropic). */
export function shouldRetryHeader(
  headers: { get(name: string): string | null } | undefined,
): boolean | undefined {
  const value = headers?.get('x-should-retry');
  return value === 'true' ? true : value === 'false' ? false : undefined;
}
