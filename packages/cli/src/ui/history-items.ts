/** What the screen shows: finished items (the history, printed once) and the live turn. */
import type { ToolResultDisplay } from '@toolhost/core/tools';
import type { ReactElement } from 'react';

/** How a message printed into the history looks. */
export type MessageLevel = 'info' | 'warning' | 'error';

export type ToolRowStatus =
  | 'pending'
  | 'awaiting_approval'
  | 'executing'
  | 'success'
  | 'error'
  | 'cancelled';

/** One tool call as a line on screen, with what it showed while it ran and after. */
export interface ToolRow {
  callId: string;
  /** The name shown (the tool's display name). */
  name: string;
  /** The name the model called. */
  toolName: string;
  args: Record<string, unknown>;
  /** The tool's one-line description of this call (path, command, pattern...). */
  description: string;
  status: ToolRowStatus;
  startedAt: number;
  durationMs?: number;
  /** A running command's output so far. */
  liveOutput?: string;
  /** What the tool returned for the person (Markdown text, a diff, the todo list). */
  display?: ToolResultDisplay;
  /** What a call that failed or was cancelled printed before it ended. */
  partialOutput?: string;
  /** Why it failed or was cancelled, in a line. */
  failure?: string;
  /** A subagent's own calls, under its `task` call. */
  children?: ToolRow[];
}

interface ItemBase {
  id: number;
}

export type HistoryItem = ItemBase &
  (
    | { kind: 'user'; text: string }
    /** Part of an answer, in Markdown; a long answer arrives in several. */
    | { kind: 'assistant'; text: string }
    | { kind: 'thinking'; text: string; durationMs: number }
    | { kind: 'tools'; rows: ToolRow[] }
    | { kind: 'message'; level: MessageLevel; text: string }
    | { kind: 'element'; element: ReactElement }
    | { kind: 'welcome'; model: string; folder: string; resumed: number }
  );

export type HistoryItemContent = HistoryItem extends infer Item
  ? Item extends HistoryItem
    ? Omit<Item, 'id'>
    : never
  : never;
