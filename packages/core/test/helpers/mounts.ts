/**
 * Small real file systems for failure tests (a full disk, a read-only one). Mounting needs
 * root, which CI has; elsewhere the tests that use these are skipped, saying why.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';

export const canMount = (() => {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync('mount', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

export function mountTmpfs(dir: string, options: string): () => void {
  mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir]);
  return () => execFileSync('umount', [dir]);
}

export function remountReadOnly(dir: string): void {
  execFileSync('mount', ['-o', 'remount,ro', dir]);
}
