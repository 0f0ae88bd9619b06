/**
 * Which earlier session `-c/--continue` or `-r/--resume <id>` names, read back up to its
 * last complete exchange, and the prompts the person typed that never got an answer (an
 * endpoint that was down, a kill), so a front end can give them back instead of losing them.
 */
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { userSettingsDir } from '@toolhost/core/config';
import {
  findSession,
  type LoadedSession,
  listSessions,
  loadSession,
  unansweredPrompts,
} from '@toolhost/core/conversation';
import { plural } from '@toolhost/core/utils';
import { UsageError } from '../errors.js';
import type { AgentFlags } from './agent-flags.js';

export interface SessionToResume {
  session: LoadedSession;
  /** Prompts typed after the last complete exchange (newest session's last), as typed. */
  unanswered: string[];
  /** Says what was kept and what was left out, when anything was. */
  note: string | undefined;
}

export function sessionToResume(flags: AgentFlags): SessionToResume | undefined {
  if (!flags.continue && flags.resume === undefined) return undefined;
  if (flags.continue && flags.resume !== undefined) {
    throw new UsageError('--continue and --resume both pick a session; pass one of them.');
  }
  const root = projectRoot(flags);
  if (flags.resume !== undefined) return sessionById(root, flags.resume);
  // -c: the newest session with a complete exchange; newer ones that have none (every
  // prompt failed) are passed over, their prompts kept.
  const sessions = listSessions(userSettingsDir(), root);
  if (sessions.length === 0)
    throw new UsageError(`There is no earlier session in ${root} to continue.`);
  const passed: LoadedSession[] = [];
  for (const summary of sessions) {
    const session = loadSession(summary.file);
    if (session.history.length > 0) {
      const unanswered = [...passed].reverse().flatMap((s) => unansweredPrompts(s.dropped));
      return withNote(session, passed, [...unansweredPrompts(session.dropped), ...unanswered]);
    }
    passed.push(session);
  }
  // None has a complete exchange: the newest goes on, empty, with its prompts given back.
  const [newest, ...older] = passed;
  if (!newest) throw new UsageError(`There is no earlier session in ${root} to continue.`);
  const unanswered = [...passed].reverse().flatMap((s) => unansweredPrompts(s.dropped));
  return withNote(newest, older, unanswered);
}

/** The saved session `id` of the project at `root` (`-r`, an editor's session/load). */
export function sessionById(root: string, id: string): SessionToResume {
  const found = findSession(userSettingsDir(), root, { id });
  if (typeof found === 'string') throw new UsageError(found);
  const session = loadSession(found.file);
  return withNote(session, [], unansweredPrompts(session.dropped));
}

function withNote(
  session: LoadedSession,
  passed: LoadedSession[],
  unanswered: string[],
): SessionToResume {
  const parts: string[] = [];
  if (passed.length > 0)
    parts.push(
      `${plural(passed.length, 'newer session')} had no complete exchange and ${passed.length === 1 ? 'was' : 'were'} passed over (${passed.map((s) => s.id.slice(0, 8)).join(', ')}).`,
    );
  if (session.droppedMessages > 0 || passed.length > 0) {
    parts.push(
      session.history.length > 0
        ? `Continuing session ${session.id.slice(0, 8)} with its ${plural(session.history.length, 'message')} up to its last complete exchange${session.droppedMessages > 0 ? ` (${plural(session.droppedMessages, 'message')} of an unfinished exchange left out)` : ''}.`
        : `Session ${session.id.slice(0, 8)} has no complete exchange: it goes on with an empty conversation.`,
    );
  }
  return { session, unanswered, note: parts.length > 0 ? parts.join(' ') : undefined };
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
  return realRoot(flags.root);
}

/** The same real path the workspace uses, so a symlinked folder finds its sessions. */
export function realRoot(root: string | undefined): string {
  const resolved = path.resolve(root ?? '.');
  return existsSync(resolved) ? realpathSync.native(resolved) : resolved;
}
