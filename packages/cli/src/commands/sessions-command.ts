/** `toolhost sessions`: the project's recorded agent sessions, newest first, to resume with -r. */
import path from 'node:path';
import { userSettingsDir } from '@toolhost/core/config';
import { listSessions } from '@toolhost/core/conversation';
import { localDateTime } from '../local-time.js';

export function runSessionsCommand(
  options: { root?: string; json?: boolean },
  stdout: NodeJS.WriteStream,
): void {
  const root = path.resolve(options.root ?? '.');
  const sessions = listSessions(userSettingsDir(), root);
  if (options.json) {
    stdout.write(
      `${JSON.stringify(
        sessions.map((s) => ({
          session_id: s.id,
          updated_at: s.updatedAt.toISOString(),
          started_at: s.startedAt,
          model: s.model,
          messages: s.messages,
          first_prompt: s.firstPrompt,
        })),
        null,
        2,
      )}\n`,
    );
    return;
  }
  if (sessions.length === 0) {
    stdout.write(
      `No sessions recorded for ${root} yet. Run toolhost -p "<prompt>" to start one.\n`,
    );
    return;
  }
  for (const session of sessions) {
    const when = localDateTime(session.updatedAt);
    stdout.write(
      `${session.id}  ${when}  ${String(session.messages).padStart(4)} messages  ${session.firstPrompt}\n`,
    );
  }
  stdout.write(
    '\nContinue one with: toolhost -r <session-id> -p "<prompt>" (or -c for the newest).\n',
  );
}
