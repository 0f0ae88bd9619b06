/** Temporary folders and process facts for the unit tests of file access. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A new folder under the system's temporary folder, by its real path (remove it after). */
export function makeTempFolder(prefix: string): string {
  return realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/**
 * The descriptors this process has open on files or folders whose path contains `marker`
 * (a test's own temporary folder, say), as `fd -> target`, sorted (Linux). Tests compare
 * this, not the count of every open descriptor: a test runner (Stryker's, vitest's workers)
 * or another test may open descriptors of its own at any moment.
 */
export function openDescriptorsInto(marker: string): string[] {
  const owned: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // closed between the listing and the look (readdir's own descriptor)
    }
    if (target.includes(marker)) owned.push(`${fd} -> ${target}`);
  }
  return owned.sort();
}

/** A PID that belonged to a process which has exited. */
export function exitedPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid;
}
