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
  const resolved = path.resolve(flags.root ?? '.');
  // The same real path the workspace uses, so a symlinked folder finds its sessions.
  const root = existsSync(resolved) ? realpathSync.native(resolved) : resolved;
  const found = findSession(
    userSettingsDir(),
    root,
    flags.continue ? { latest: true } : { id: flags.resume ?? '' },
  );
  if (typeof found === 'string') throw new UsageError(found);
  return loadSession(found.file);
}
