/**
 * Serialises work per key: two holders of the same key never overlap, different keys run
 * freely. Used so that two calls never write the same file at once.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `work` once every earlier holder of every key in `keys` has finished. */
  async runExclusive<T>(keys: Iterable<string>, work: () => Promise<T>): Promise<T> {
    // Sorting the keys makes every caller acquire in one order, so no two can deadlock.
    const sorted = [...new Set(keys)].sort();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const waits = sorted.map((key) => {
      const previous = this.tails.get(key) ?? Promise.resolve();
      const tail = previous.then(() => held);
      this.tails.set(key, tail);
      void tail.then(() => {
        if (this.tails.get(key) === tail) this.tails.delete(key);
      });
      return previous;
    });
    await Promise.all(waits);
    try {
      return await work();
    } finally {
      release();
    }
  }

  /** True while some holder of `key` is running or waiting. */
  isBusy(key: string): boolean {
    return this.tails.has(key);
  }
}
