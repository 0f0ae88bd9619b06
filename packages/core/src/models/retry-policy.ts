/**
 * When to try a model request again: exponential backoff with full jitter, a server's
 * `Retry-After` (seconds or an HTTP date, or `retry-after-ms`) taking precedence within a cap.
 */

export interface RetryOptions {
  /** Attempts after the first (default 4). */
  maxRetries: number;
  /** The first backoff step (default 1 s). */
  baseDelayMs: number;
  /** No single wait is longer than this (default 60 s), whatever the server asks. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_OPTIONS: RetryOptions = {
  maxRetries: 4,
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
};

/** The wait in milliseconds a `Retry-After` / `retry-after-ms` header asks for, if any. */
export function parseRetryAfter(
  headers: { get(name: string): string | null } | undefined,
  now = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) {
    return Math.max(0, Number(ms));
  }
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** How long to wait before retry number `attempt` (1 for the first retry). */
export function retryDelay(
  attempt: number,
  retryAfterMs: number | undefined,
  options: RetryOptions,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, options.maxDelayMs);
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  // Half fixed, half random ("equal jitter"): clients that failed together spread out.
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Waits, or rejects as soon as the signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason ?? new Error('aborted'));
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason ?? new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
