import { describe, expect, it } from 'vitest';
import { KeyedMutex } from './keyed-mutex.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('KeyedMutex', () => {
  it('never lets two holders of one key overlap', async () => {
    const mutex = new KeyedMutex();
    let inside = 0;
    let maxInside = 0;
    const order: number[] = [];
    await Promise.all(
      [1, 2, 3].map((n) =>
        mutex.runExclusive(['/a'], async () => {
          inside++;
          maxInside = Math.max(maxInside, inside);
          await tick();
          order.push(n);
          inside--;
        }),
      ),
    );
    expect(maxInside).toBe(1);
    expect(order).toEqual([1, 2, 3]);
  });

  it('lets different keys run together', async () => {
    const mutex = new KeyedMutex();
    let inside = 0;
    let maxInside = 0;
    await Promise.all(
      ['/a', '/b'].map((key) =>
        mutex.runExclusive([key], async () => {
          inside++;
          maxInside = Math.max(maxInside, inside);
          await tick();
          inside--;
        }),
      ),
    );
    expect(maxInside).toBe(2);
  });

  it('releases the key when the work throws', async () => {
    const mutex = new KeyedMutex();
    await expect(
      mutex.runExclusive(['/a'], async () => Promise.reject(new Error('x'))),
    ).rejects.toThrow('x');
    await expect(mutex.runExclusive(['/a'], async () => 'ok')).resolves.toBe('ok');
    await tick();
    expect(mutex.isBusy('/a')).toBe(false);
  });
});
