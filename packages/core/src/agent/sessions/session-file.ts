/**
 * Sessions as JSON Lines: `~/.toolhost/sessions/<project>/<session-id>.jsonl`, one record
 * a line, appended synchronously as the conversation grows, so a process killed at any
 * moment leaves every earlier record intact (at most the line being written is cut).
 */
import { closeSync, existsSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { ChatMessage } from '../../models/model-types.js';
import type { TokenUsage } from '../../models/token-usage.js';
import { openOwnFileToAppend } from '../../utils/own-files.js';
import { projectKey } from '../../utils/project-key.js';
import type { ConversationRecorder } from '../conversation-recorder.js';
import { adoptLegacySessions } from './legacy-sessions.js';

export type SessionRecord =
  | { type: 'session'; version: 1; sessionId: string; cwd: string; model: string; at: string }
  | { type: 'message'; at: string; message: ChatMessage }
  | { type: 'usage'; at: string; model: string; usage: TokenUsage }
  /** The history replaced as a whole (compression, or a resume that dropped a cut-off tail). */
  | { type: 'history'; at: string; messages: ChatMessage[] }
  | { type: 'end'; at: string; status: string }
  /** A checkpoint of the files was taken here (see agent/checkpoints); a restore returns to it. */
  | { type: 'checkpoint'; at: string; checkpointId: string };

/**
 * The folder of one project's sessions (named by projectKey), holding also the sessions
 * this project recorded under the old shared name.
 */
export function sessionsDir(userDir: string, projectRoot: string): string {
  const dir = path.join(userDir, 'sessions', projectKey(projectRoot));
  adoptLegacySessions(userDir, projectRoot, dir);
  return dir;
}

export function sessionFile(userDir: string, projectRoot: string, sessionId: string): string {
  return path.join(sessionsDir(userDir, projectRoot), `${sessionId}.jsonl`);
}

export class SessionRecorder implements ConversationRecorder {
  private started = false;
  private currentFile: string;

  constructor(
    file: string,
    private header: { sessionId: string; cwd: string; model: string },
    /** True when the file already holds this session (a resume). */
    resumed = false,
  ) {
    this.currentFile = file;
    this.started = resumed;
  }

  /** The file records go to (another one after continueIn). */
  get file(): string {
    return this.currentFile;
  }

  /**
   * Records from now on in another session's file (`/resume <id>`): that session goes on
   * where it was saved, and the current one keeps what it recorded so far.
   */
  continueIn(file: string, sessionId: string): void {
    this.currentFile = file;
    this.header = { ...this.header, sessionId };
    this.started = existsSync(file);
  }

  recordMessage(message: ChatMessage): void {
    this.write({ type: 'message', at: now(), message });
  }

  recordUsage(usage: TokenUsage, model: string): void {
    this.write({ type: 'usage', at: now(), model, usage });
  }

  recordHistoryReplaced(history: ChatMessage[]): void {
    this.write({ type: 'history', at: now(), messages: history });
  }

  recordCheckpoint(checkpointId: string): void {
    this.write({ type: 'checkpoint', at: now(), checkpointId });
  }

  recordEnd(status: string): void {
    if (this.started) this.write({ type: 'end', at: now(), status });
  }

  private write(record: SessionRecord): void {
    // Created with the first record, so a run that fails before talking leaves no file.
    if (!this.started) {
      this.started = true;
      this.append({ type: 'session', version: 1, ...this.header, at: now() });
    }
    this.append(record);
  }

  private append(record: SessionRecord): void {
    // Never through a link planted among the sessions (the folder holding every project's).
    const fd = openOwnFileToAppend(path.dirname(path.dirname(this.file)), this.file);
    try {
      writeSync(fd, `${JSON.stringify(record)}\n`);
    } finally {
      closeSync(fd);
    }
  }
}

function now(): string {
  return new Date().toISOString();
}
