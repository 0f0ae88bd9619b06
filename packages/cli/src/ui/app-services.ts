/**
 * What the running interactive app gives to the prompt editor and the slash commands
 * (packages/cli/src/ui/input and ui/commands): the agent, the session's settings and
 * tools, the history on screen, approvals, and the app's own life. One object of this type
 * is made by the conversation controller and passed down; commands never reach into React.
 */

import type { ApprovalMode, Config } from '@toolhost/core/config';
import type {
  Agent,
  CheckpointRestore,
  ModelEndpoint,
  TokenUsage,
} from '@toolhost/core/conversation';
import type { CompletedToolCall, ScheduleInput, ToolRegistry } from '@toolhost/core/tools';
import type { ReactElement } from 'react';
import type { MessageLevel } from './history-items.js';
import type { PickerItem } from './screen-store.js';
import type { ThemeName } from './theme.js';

export type { MessageLevel } from './history-items.js';

/** Counters of this run of the app, for `/stats`. */
export interface AppStats {
  /** Tokens of the whole conversation, subagents and side requests included. */
  usage: TokenUsage;
  /** Model requests made. */
  requests: number;
  /** Tool calls that ended, by how they ended. */
  toolCalls: { success: number; error: number; cancelled: number };
  /** When the app started (ms since the epoch). */
  startedAt: number;
  /** Time spent waiting on the model and tools, in ms. */
  activeMs: number;
  /** Percentage of the context window still free after the last request (0-100). */
  contextLeftPercent: number | undefined;
}

export interface AppServices {
  /** The agent: `agent.loop` (history, run, compressNow), `agent.usage`, `agent.model`. */
  readonly agent: Agent;
  readonly config: Config;
  readonly registry: ToolRegistry;
  readonly endpoint: ModelEndpoint;
  /** The session id, as `-r <id>` resumes it. */
  readonly sessionId: string;

  /** Prints a line (Markdown allowed) into the history, above the prompt. */
  print(message: string, level?: MessageLevel): void;
  /** Prints any Ink element into the history (rendered once, then scrolled like text). */
  printElement(element: ReactElement): void;
  /** Clears the screen and the history shown (the conversation itself is kept). */
  clearScreen(): void;
  /** Starts a new conversation: an empty history for the model and on screen. */
  resetConversation(): void;
  /** Saves the session and leaves the app. */
  quit(): void;

  /**
   * Sends a prompt to the agent as if typed, `notes` before it (what `!` commands did);
   * resolves when the turn has ended. The conversation attaches its `@` references.
   */
  submitPrompt(prompt: string, notes?: string[]): Promise<void>;
  /** Shows a line the person sent that is not a prompt (a slash command, a `!` line). */
  showUserLine(text: string): void;
  /** A list to choose from with the arrows and Enter; resolves with the value (Esc: none). */
  pick(title: string, items: PickerItem[], selected?: number): Promise<string | undefined>;
  /** Colours the screen with another theme from now on. */
  setTheme(name: ThemeName): void;
  /** Writes a control sequence to the terminal (it moves nothing on screen). */
  writeToTerminal(sequence: string): void;
  /** Text to put in the prompt when it first shows (a prompt given back), taken once. */
  takeDraft(): string | undefined;
  /**
   * Continues a saved session's conversation in this app (`/resume <id>`); resolves with
   * its prompts that got no answer, to put back in the input.
   */
  resumeSession(id: string): Promise<string | undefined>;
  /** Restores a checkpoint: its files, and the conversation back to that point. */
  restoreCheckpoint(which: string): Promise<CheckpointRestore>;
  /** True while the agent works on a turn (new prompts wait for it). */
  isBusy(): boolean;
  /** Cancels the running turn, as Esc does. */
  cancelTurn(): void;

  /**
   * Runs tool calls through the scheduler, with the same approvals as the model's calls
   * (the dialog in place), shown in the history like them. Used for `!` shell lines.
   */
  runToolCalls(calls: ScheduleInput[]): Promise<CompletedToolCall[]>;

  getApprovalMode(): ApprovalMode;
  /** Changes the approval mode (the status line follows). */
  setApprovalMode(mode: ApprovalMode): void;

  getStats(): AppStats;
}
