import { describe, expect, it } from 'vitest';
import { BoundedSorted } from './bounded-sorted.js';

describe('BoundedSorted', () => {
  it('keeps the smallest items in order, whatever order they arrive in', () => {
    const numbers = Array.from({ length: 500 }, (_, i) => (i * 7919) % 500);
    const kept = new BoundedSorted<number>(10, (a, b) => a - b);
    for (const n of numbers) kept.add(n);
    expect(kept.sorted()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(kept.total).toBe(500);
  });

  it('keeps everything under capacity', () => {
    const kept = new BoundedSorted<string>(5, (a, b) => a.localeCompare(b));
    for (const s of ['c', 'a', 'b']) kept.add(s);
    expect(kept.sorted()).toEqual(['a', 'b', 'c']);
  });
});
