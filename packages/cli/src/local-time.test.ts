import { afterEach, describe, expect, it } from 'vitest';
import { localDateTime } from './local-time.js';

const zone = process.env.TZ;
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe('localDateTime', () => {
  it('writes the time in the machine’s time zone, with seconds when asked', () => {
    const instant = new Date('2026-01-05T23:40:09Z');
    process.env.TZ = 'Asia/Kolkata';
    expect(localDateTime(instant)).toBe('2026-01-06 05:10');
    expect(localDateTime(instant, { seconds: true })).toBe('2026-01-06 05:10:09');
    process.env.TZ = 'America/New_York';
    expect(localDateTime(instant, { seconds: true })).toBe('2026-01-05 18:40:09');
    process.env.TZ = 'UTC';
    expect(localDateTime(instant, { seconds: true })).toBe('2026-01-05 23:40:09');
  });
});
