/**
 * Sessions recorded before folders were named by projectKey sit in a folder named by the
 * path with its punctuation made dashes, which `acme_api` and `acme-api` share. A session
 * moves to its project's own folder only when its header record names this very project
 * (the real path it was recorded in), so the other project's conversations stay where they
 * are and the shared folder never serves as a fallback.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
} from 'node:fs';
import path from 'node:path';
import { legacySessionsKey } from '../../utils/project-key.js';

const adopted = new Set<string>();

/** Moves this project's sessions from the old shared folder into `dir`, once a process. */
export function adoptLegacySessions(userDir: string, projectRoot: string, dir: string): void {
  const legacy = path.join(userDir, 'sessions', legacySessionsKey(projectRoot));
  if (adopted.has(legacy + '\0' + dir)) return;
  adopted.add(legacy + '\0' + dir);
  let names: string[];
  try {
    names = readdirSync(legacy).filter((name) => name.endsWith('.jsonl'));
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(legacy, name);
    if (recordedIn(file) !== projectRoot || existsSync(path.join(dir, name))) continue;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      renameSync(file, path.join(dir, name));
    } catch {
      // left where it was: not listed for this project, never another's
    }
  }
}

/** The project a session file was recorded in, from its first line. */
function recordedIn(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buffer = Buffer.alloc(64 * 1024);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, read).toString('utf8');
    const end = text.indexOf('\n');
    if (end < 0) return undefined;
    const header = JSON.parse(text.slice(0, end)) as { type?: unknown; cwd?: unknown };
    return header.type === 'session' && typeof header.cwd === 'string' ? header.cwd : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
