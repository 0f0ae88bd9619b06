/**
 * The name of a project's own folders under ~/.toolhost (sessions, history, tmp): its base
 * name, readable, then a digest of its real path, so no two projects share one
 * (`acme_api` and `acme-api` once did, when the name was the path with its punctuation
 * made dashes). Owns the naming only; creating, reading and linking rules live with each store.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';

export function projectKey(projectRoot: string): string {
  const name =
    path
      .basename(projectRoot)
      .replace(/[^a-zA-Z0-9._-]/g, '-')
      .slice(0, 40) || 'root';
  return `${name}-${createHash('sha256').update(projectRoot).digest('hex').slice(0, 16)}`;
}

/**
 * The sessions folder name before projectKey: the path with every other character a dash.
 * Many projects may map to one; only the sessions whose own record names the project are
 * taken from it (session-file.ts).
 */
export function legacySessionsKey(projectRoot: string): string {
  return projectRoot.replace(/[^a-zA-Z0-9]/g, '-');
}
