/**
 * The API front ends use for checkpoints (`toolhost restore`, the terminal's `/restore`):
 * list a project's (or a session's) checkpoints, see what the calls after one changed,
 * and restore one: files back, the conversation truncated to that point in the sessions
 * store, and the state before the restore kept as a checkpoint of its own (to undo it).
 */
import { existsSync } from 'node:fs';
import { SETTING_DEFAULTS, type Settings } from '../../contract/settings-types.js';
import type { ChatMessage } from '../../models/model-types.js';
import { lastPromptIndex } from '../loop-notes.js';
import { SessionRecorder, sessionFile } from '../sessions/session-file.js';
import { loadSession, loadSessionAtCheckpoint } from '../sessions/session-loader.js';
import { CheckpointStore } from './checkpoint-store.js';
import type { Checkpoint } from './checkpoint-types.js';
import type { HistoryRetention } from './prune-history.js';
import type { RestoredFiles } from './restore-files.js';
import { CheckpointError } from './shadow-git.js';

/** Whose checkpoints: `userDir` is Config.userDir (~/.toolhost), `projectRoot` Config.targetDir. */
export interface CheckpointProject {
  userDir: string;
  projectRoot: string;
  /** The git program (default `git` on PATH). */
  gitPath?: string;
  /**
   * Bytes: larger files are left out of the undo checkpoint a restore takes, and then never
   * overwritten (general.checkpointing.maxFileSize; see checkpointLimits).
   */
  maxFileSize?: number;
  /** What checkpoints are kept (general.checkpointing.retention). */
  retention?: HistoryRetention;
}

/** The project's checkpoint settings with their defaults, for a CheckpointProject. */
export function checkpointLimits(
  settings: Settings,
): Required<Pick<CheckpointProject, 'maxFileSize' | 'retention'>> {
  const chosen = settings.general?.checkpointing;
  const defaults = SETTING_DEFAULTS.general.checkpointing;
  return {
    maxFileSize: chosen?.maxFileSize ?? defaults.maxFileSize,
    retention: { ...defaults.retention, ...chosen?.retention },
  };
}

/** Where a workspace's checkpoints are kept (a Config has these three), with its limits. */
export function checkpointProjectOf(workspace: {
  userDir: string;
  targetDir: string;
  settings: Settings;
}): CheckpointProject {
  return {
    userDir: workspace.userDir,
    projectRoot: workspace.targetDir,
    ...checkpointLimits(workspace.settings),
  };
}

export interface RestoredConversation {
  sessionId: string;
  /** The session file, now ending at the checkpoint. */
  file: string;
  /** The conversation to go on from (hand it to the loop: `loop.history = history`). */
  history: ChatMessage[];
  /**
   * The person's prompt that was cut off with the calls it led to, to offer it again (for a
   * checkpoint in the middle of a turn, that turn's prompt: the history ends before it).
   */
  prompt?: string;
  /** Messages the conversation lost. */
  removedMessages: number;
}

export interface CheckpointRestore {
  checkpoint: Checkpoint;
  /** The state just before this restore: restoring it undoes the restore. */
  undo: Checkpoint;
  files: RestoredFiles;
  /** The truncated conversation; absent when the checkpoint has none to go back to. */
  conversation?: RestoredConversation;
  /** Why the conversation was left as it was, when it was. */
  conversationNote?: string;
}

/** The project's checkpoints, newest first; with `sessionId`, that session's only. */
export function listCheckpoints(
  project: CheckpointProject,
  filter: { sessionId?: string } = {},
): Checkpoint[] {
  return new CheckpointStore(project).list(filter).reverse();
}

/** A checkpoint by id or unique prefix; a message for the person when there is none. */
export function findCheckpoint(project: CheckpointProject, id: string): Checkpoint | string {
  return new CheckpointStore(project).find(id);
}

/** The files the calls after `checkpoint` changed (absolute paths). */
export function checkpointChangedFiles(
  project: CheckpointProject,
  checkpoint: Checkpoint,
): Promise<string[]> {
  return new CheckpointStore(project).changedFiles(checkpoint);
}

/**
 * What restoring `checkpoint` would do to the files now: `A` bring back a removed file,
 * `D` remove a file created since, `M`/`T` bring back a changed one, `L` leave a changed
 * one that is now over the size limit, since the undo checkpoint could not keep it
 * (absolute paths).
 */
export function checkpointRestorePreview(
  project: CheckpointProject,
  checkpoint: Checkpoint,
): Promise<{ status: string; file: string }[]> {
  return new CheckpointStore(project).differencesFromNow(checkpoint);
}

/** A file's content as `checkpoint` holds it (absolute path); undefined when it was not there. */
export function checkpointFileContent(
  project: CheckpointProject,
  checkpoint: Checkpoint,
  file: string,
): Promise<string | undefined> {
  return new CheckpointStore(project).fileAt(checkpoint, file);
}

/** One line naming what followed the checkpoint, for lists. */
export function describeCheckpoint(checkpoint: Checkpoint): string {
  if (checkpoint.kind === 'restore') return `before restoring checkpoint ${checkpoint.restoring}`;
  const [first, ...rest] = checkpoint.toolCalls;
  if (!first)
    return checkpoint.subagent
      ? `before a batch of subagent ${checkpoint.subagent}'s tool calls`
      : 'before a batch of tool calls';
  const more = rest.length > 0 ? ` (+${rest.length} more call${rest.length === 1 ? '' : 's'})` : '';
  const whose = checkpoint.subagent ? `[subagent ${checkpoint.subagent}] ` : '';
  return `${whose}${first.name}: ${first.description}${more}`;
}

/**
 * Restores a checkpoint (an id, a unique prefix, or one from listCheckpoints). Throws a
 * CheckpointError with a message for the person when it cannot (unknown id, the project's
 * folder gone, git failing); files are only changed once the undo checkpoint is taken.
 */
export async function restoreCheckpoint(
  project: CheckpointProject,
  which: string | Checkpoint,
): Promise<CheckpointRestore> {
  const store = new CheckpointStore(project);
  const checkpoint = typeof which === 'string' ? store.find(which) : which;
  if (typeof checkpoint === 'string') throw new CheckpointError(checkpoint);
  const session = checkpoint.sessionId
    ? sessionFile(project.userDir, project.projectRoot, checkpoint.sessionId)
    : undefined;
  const sessionExists = session !== undefined && existsSync(session);
  const position = sessionExists
    ? { sessionId: checkpoint.sessionId, messageIndex: loadSession(session).history.length }
    : {};
  const { undo, files } = await store.restoreFiles(checkpoint, position);
  const restore: CheckpointRestore = { checkpoint, undo, files };
  if (!session || !checkpoint.sessionId) {
    restore.conversationNote = 'The checkpoint belongs to no recorded conversation.';
  } else if (!sessionExists) {
    restore.conversationNote = `The conversation of session ${checkpoint.sessionId} is no longer recorded (${session}).`;
  } else {
    const at = loadSessionAtCheckpoint(session, checkpoint.id);
    if (!at) {
      restore.conversationNote = `Session ${checkpoint.sessionId} has no record of this checkpoint; its conversation was left as it is.`;
    } else {
      // A checkpoint in the middle of a turn (a later batch of the same prompt) goes back to
      // before that turn's prompt, so the prompt offered again is not in the history twice.
      // A restore's undo checkpoint brings back the whole conversation as it was.
      const start = checkpoint.kind === 'tool_calls' ? lastPromptIndex(at.messages) : -1;
      const history = start >= 0 ? at.history.slice(0, start) : at.history;
      const prompt = start >= 0 ? at.messages[start]?.content : undefined;
      const before = loadSession(session).history.length;
      const recorder = new SessionRecorder(
        session,
        { sessionId: checkpoint.sessionId, cwd: project.projectRoot, model: '' },
        true,
      );
      // The marker first: restoring `undo` brings back the conversation as it is now.
      recorder.recordCheckpoint(undo.id);
      recorder.recordHistoryReplaced(history);
      restore.conversation = {
        sessionId: checkpoint.sessionId,
        file: session,
        history,
        ...(typeof prompt === 'string' ? { prompt } : {}),
        removedMessages: Math.max(0, before - history.length),
      };
    }
  }
  return restore;
}
