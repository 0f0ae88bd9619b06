/** The one error a model request ends with, naming the endpoint and what it answered. */
import type { ModelStop } from './model-types.js';

export type ModelErrorKind =
  | 'http' // the endpoint answered with an error status
  | 'network' // no answer: connection refused, reset, DNS
  | 'timeout' // no answer, or the stream stalled, within the time limit
  | 'tools_rejected' // the endpoint or model does not take tool declarations
  | 'invalid_tool_name' // the API refused a tool's name
  | 'history_rejected' // the API refused the conversation's order (a call without its result...)
  | 'unparsable_output' // the server could not parse what the model wrote (its chat template's format)
  | 'invalid_request' // the endpoint names the request as the problem: the same one fails again
  | 'context_exceeded' // the prompt does not fit the model's context
  | 'quota' // the account's quota or credit is spent, or the wait asked for is beyond the cap
  | 'refusal' // the model declined (a result, not a failure of the exchange)
  | 'safety' // a safety system refused the prompt or stopped the answer
  | 'auth' // 401/403
  | 'cancelled';

/** What an error may say beyond its message. */
export interface ModelErrorDetails {
  /** The prompt's size as the endpoint counted it, with a context_exceeded error. */
  promptTokens?: number;
  /** The text of the answer that broke off, when some had arrived. */
  partialText?: string;
  /** A refusal or safety stop the API reported as an error. */
  stop?: ModelStop;
  /** The API said whether the request may be sent again (`x-should-retry`, its error type). */
  retryable?: boolean;
  /** How long the API asked to wait before the next attempt. */
  retryAfterMs?: number;
}

export class ModelError extends Error {
  constructor(
    message: string,
    readonly kind: ModelErrorKind,
    readonly endpoint: string,
    readonly status?: number,
    /** How many attempts were made before giving up. */
    readonly attempts = 1,
    /** The context size the endpoint stated with a context_exceeded error. */
    readonly contextSize?: number,
    readonly details: ModelErrorDetails = {},
  ) {
    super(message);
    this.name = 'ModelError';
  }

  /** The same error with the text that had arrived before it. */
  withPartialText(partialText: string): ModelError {
    if (!partialText) return this;
    return new ModelError(
      this.message,
      this.kind,
      this.endpoint,
      this.status,
      this.attempts,
      this.contextSize,
      { ...this.details, partialText },
    );
  }
}

/**
 * True for failures worth the same request again: rate limits, server errors that do not
 * name the request (those are `invalid_request`), resets and timeouts; the API's own word
 * (`x-should-retry`) decides where it gave one.
 */
export function isRetryable(
  kind: ModelErrorKind,
  status: number | undefined,
  details: ModelErrorDetails = {},
): boolean {
  if (kind === 'network' || kind === 'timeout') return true;
  if (kind !== 'http') return false;
  if (details.retryable !== undefined) return details.retryable;
  if (status === undefined) return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}
