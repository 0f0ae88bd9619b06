/**
 * The checkpoint record as the store keeps it and the loop announces it. Its own file so
 * that the store, its pruning, the batch check and the loop's events share the types
 * without importing one another (a cycle otherwise).
 */
import type { SkippedFile, SnapshotRoot } from './snapshot.js';

/** What the person reads about a call when choosing a checkpoint. */
export interface CheckpointToolCall {
  name: string;
  description: string;
}

export interface Checkpoint {
  /** Short id, unique in the project (a prefix finds it). */
  id: string;
  /** ISO time it was taken. */
  at: string;
  /** `tool_calls`: before a batch of calls; `restore`: before a restore (undoes it). */
  kind: 'tool_calls' | 'restore';
  /** The calls that followed (tool_calls), with what each was about to do. */
  toolCalls: CheckpointToolCall[];
  /** For a `restore` checkpoint: the checkpoint being restored. */
  restoring?: string;
  /** The conversation it belongs to, and how many of its messages came before it. */
  sessionId?: string;
  messageIndex?: number;
  /** The subagent whose calls followed (a `task` run), absent for the main agent's. */
  subagent?: string;
  /** The shadow repository's commit holding the files. */
  commit: string;
  roots: SnapshotRoot[];
  /** Files left out (too large, or unreadable): a restore of this checkpoint cannot bring them back. */
  skipped?: SkippedFile[];
}
