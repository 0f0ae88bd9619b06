/** The one error a model request ends with, naming the endpoint and what it answered. */

export type ModelErrorKind =
  | 'http' // the endpoint answered with an error status
  | 'network' // no answer: connection refused, reset, DNS
  | 'timeout' // no answer, or the stream stalled, within the time limit
  | 'tools_rejected' // the endpoint or model does not take tool declarations
  | 'invalid_request' // the endpoint names the request as the problem: the same one fails again
  | 'context_exceeded' // the prompt does not fit the model's context
  | 'auth' // 401/403
  | 'cancelled';

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
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

/**
 * True for failures worth the same request again: rate limits, server errors that do not
 * name the request (those are `invalid_request`), resets and timeouts.
 */
export function isRetryable(kind: ModelErrorKind, status: number | undefined): boolean {
  if (kind === 'network' || kind === 'timeout') return true;
  if (kind !== 'http' || status === undefined) return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}
