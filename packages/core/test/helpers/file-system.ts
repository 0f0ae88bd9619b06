/** Temporary folders and process facts for the unit tests of file access. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A new folder under the system's temporary folder, by its real path (remove it after). */
export function makeTempFolder(prefix: string): string {
  return realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/** How many file descriptors this process has open (Linux). */
export function openDescriptorCount(): number {
  return readdirSync('/proc/self/fd').length;
}

/** A PID that belonged to a process which has exited. */
export function exitedPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid;
}
