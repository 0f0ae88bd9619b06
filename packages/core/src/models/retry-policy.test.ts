import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_OPTIONS, parseRetryAfter, retryDelay } from './retry-policy.js';

const headers = (entries: Record<string, string>) => new Headers(entries);

describe('parseRetryAfter', () => {
  it('reads seconds, milliseconds and HTTP dates', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '3' }))).toBe(3000);
    expect(parseRetryAfter(headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(
      5000,
    );
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfter(headers({}))).toBeUndefined();
  });
});

describe('retryDelay', () => {
  it('grows exponentially with jitter, within the cap', () => {
    const options = { ...DEFAULT_RETRY_OPTIONS, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(retryDelay(1, undefined, options, () => 0)).toBe(50);
    expect(retryDelay(1, undefined, options, () => 1)).toBe(100);
    expect(retryDelay(3, undefined, options, () => 1)).toBe(400);
    expect(retryDelay(10, undefined, options, () => 1)).toBe(1000);
    const spread = new Set(Array.from({ length: 20 }, () => retryDelay(2, undefined, options)));
    expect(spread.size).toBeGreaterThan(1);
  });

  it('takes the server’s Retry-After, capped', () => {
    const options = { ...DEFAULT_RETRY_OPTIONS, maxDelayMs: 5000 };
    expect(retryDelay(1, 2000, options)).toBe(2000);
    expect(retryDelay(1, 600_000, options)).toBe(5000);
  });
});
