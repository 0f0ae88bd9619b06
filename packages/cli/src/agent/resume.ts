/** Which earlier session `-c/--continue` or `-r/--resume <id>` names, read back up to its last complete exchange. */
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import {
  findSession,
  type LoadedSession,
  loadSession,
} from '@toolhost/core/internal/agent/sessions/session-loader.js';
import { userSettingsDir } from '@toolhost/core/internal/config/settings.js';
import { UsageError } from '../errors.js';
import type { AgentFlags } from './agent-flags.js';

export function sessionToResume(flags: AgentFlags): LoadedSession | undefined {
  if (!flags.continue && flags.resume === undefined) return undefined;
  if (flags.continue && flags.resume !== undefined) {
    throw new UsageError('--continue and --resume both pick a session; pass one of them.');
  }
  const found = findSession(
    userSettingsDir(),
    projectRoot(flags),
    flags.continue ? { latest: true } : { id: flags.resume ?? '' },
  );
  if (typeof found === 'string') throw new UsageError(found);
  return loadSession(found.file);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `--session-id <uuid>`: the id a new session takes (SDKs name their sessions up front). */
export function newSessionId(flags: AgentFlags): string | undefined {
  const id = flags.sessionId;
  if (id === undefined) return undefined;
  if (flags.continue || flags.resume !== undefined) {
    throw new UsageError(
      '--session-id names a new session; --continue and --resume continue an old one. Pass one of them.',
    );
  }
  if (!UUID.test(id)) {
    throw new UsageError(`--session-id takes a UUID such as 3f2a91c0-…; got "${id}".`);
  }
  const found = findSession(userSettingsDir(), projectRoot(flags), { id });
  if (typeof found !== 'string' && found.id === id) {
    throw new UsageError(
      `A session ${id} already exists in this project; continue it with -r ${id}.`,
    );
  }
  return id;
}

function projectRoot(flags: AgentFlags): string {
  const resolved = path.resolve(flags.root ?? '.');
  // The same real path the workspace uses, so a symlinked folder finds its sessions.
  return existsSync(resolved) ? realpathSync.native(resolved) : resolved;
}
