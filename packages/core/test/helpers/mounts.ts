/**
 * Small real file systems for failure tests (a full disk, a read-only one). Mounting needs
 * root with the capability to mount (CI has it; a container's root often lacks it), so the
 * check mounts a tmpfs once; where it fails, tests that need it are skipped with the reason
 * in their name.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function probeMount(): string | null {
  if (process.getuid?.() !== 0) return 'mounting a file system needs root';
  const dir = mkdtempSync(path.join(os.tmpdir(), 'toolhost-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', dir], { stdio: 'pipe' });
    execFileSync('umount', [dir], { stdio: 'pipe' });
    return null;
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? '').trim();
    return `mounting a tmpfs failed here (${stderr || (error as Error).message})`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Why mounting is impossible here, or null when tests can mount. */
export const cannotMountReason = probeMount();
export const canMount = cannotMountReason === null;
/** Appended to the name of a test that needs mounting, so a skip says why. */
export const needsMount = canMount ? '' : ` (skipped: ${cannotMountReason})`;

export function mountTmpfs(dir: string, options: string): () => void {
  mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir]);
  return () => execFileSync('umount', [dir]);
}

export function remountReadOnly(dir: string): void {
  execFileSync('mount', ['-o', 'remount,ro', dir]);
}
