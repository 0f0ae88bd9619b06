/**
 * Remembers, per file, the content the model last saw (by hash), so a change made on disk
 * behind its back can be noticed before it overwrites it.
 */
import crypto from 'node:crypto';

type OneShotHash = (algorithm: string, data: Buffer | string) => string;

/**
 * Node 20.12 and later hash in one call, without a Hash object (read_many_files hashes a
 * thousand files a call). Looked up on first use: the tracker loads with every command.
 */
export function hashContent(bytes: Buffer | string): string {
  const oneShot = (crypto as { hash?: OneShotHash }).hash;
  return oneShot !== undefined
    ? oneShot('sha256', bytes)
    : crypto.createHash('sha256').update(bytes).digest('hex');
}

export class FileReadTracker {
  private readonly seen = new Map<string, string>();

  /** Records that the model has seen `bytes` as the content of `realPath`. */
  record(realPath: string, bytes: Buffer | string): void {
    this.seen.set(realPath, hashContent(bytes));
  }

  /** The hash of what the model last saw, or undefined if it never read the file. */
  lastSeen(realPath: string): string | undefined {
    return this.seen.get(realPath);
  }

  /** True when the model saw this file before and its content is no longer what it saw. */
  changedSinceSeen(realPath: string, currentBytes: Buffer | null): boolean {
    const seen = this.seen.get(realPath);
    if (seen === undefined) return false;
    return currentBytes === null || hashContent(currentBytes) !== seen;
  }

  forget(realPath: string): void {
    this.seen.delete(realPath);
  }
}
