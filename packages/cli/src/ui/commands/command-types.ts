/**
 * What a slash command is and what it may use of the running app. Commands see the app
 * only through CommandContext, so each one can be tested with a real Config and registry
 * and a context that records what it printed.
 */

import type { Config } from '@toolhost/core/config';
import type { Agent, CheckpointRestore, ToolRunner } from '@toolhost/core/conversation';
import type { ToolRegistry } from '@toolhost/core/tools';
import type { PickerItem } from '../screen-store.js';
import type { ThemeName } from '../theme.js';

export type CommandSource = 'built-in' | 'project' | 'user' | 'extension' | 'mcp';

export type MessageKind = 'info' | 'warning' | 'error';

/** What /stats reads of this run of the app. */
export interface CommandStats {
  /** When the app started (ms since the epoch). */
  startedAt: number;
  /** Tool calls by their outcome, since the app started. */
  toolCalls: { success: number; error: number; cancelled: number };
}

export interface CommandContext {
  config: Config;
  registry: ToolRegistry;
  /** The agent: its loop (history, compression), model client and usage. */
  agent: Agent;
  stats(): CommandStats;
  /** Shows Markdown text in the conversation (never sent to the model). */
  print(markdown: string, kind?: MessageKind): void;
  /** Runs a tool call through the app's scheduler, with its approvals and display. */
  runTool: ToolRunner;
  /** Sends a prompt to the model as if the person had typed it. */
  submitPrompt(prompt: string): void;
  /** Starts a fresh conversation: screen and the model's history. */
  clearConversation(): void;
  /** Replaces the conversation with a saved session's and shows it. */
  resumeSession(id: string): Promise<void>;
  quit(): void;
  /**
   * Restores a checkpoint through the conversation (files, and the conversation back to
   * that point); throws a CheckpointError with a message for the person when it cannot.
   */
  restoreCheckpoint(which: string): Promise<CheckpointRestore>;
  /** Puts text in the prompt for the person to edit and send (a prompt a restore took back). */
  setPromptText(text: string): void;
  /** A list to choose from with the arrows and Enter; resolves with the value (Esc: none). */
  pick(title: string, items: PickerItem[], selected?: number): Promise<string | undefined>;
  /** Colours the screen with another theme from now on (the command saves the choice). */
  setTheme(name: ThemeName): void;
  /** Whether the prompt edits as vim does; turning it on starts in insert mode. */
  vimMode(): boolean;
  setVimMode(on: boolean): void;
  /** Writes a control sequence to the terminal (OSC 52 for the clipboard); nothing shows. */
  writeToTerminal(sequence: string): void;
  /** Aborted when the person cancels (Esc) while a command waits on something. */
  signal: AbortSignal;
  /** Every command the prompt knows, for /help and completion. */
  commands(): readonly SlashCommand[];
}

export interface ArgumentSuggestion {
  value: string;
  description?: string;
}

export interface SlashCommand {
  /** The name after the slash; `namespace:name` for nested user commands and MCP prompts. */
  name: string;
  aliases?: string[];
  description: string;
  /** Shown after the name in /help, e.g. `show|add <fact>|refresh`. */
  argumentHint?: string;
  source: CommandSource;
  /** Where a user command was read from. */
  file?: string;
  /** A user command's prompt as written in its file, placeholders and all. */
  body?: string;
  /** False when the command never takes arguments: Enter on its completion runs it. */
  takesArguments: boolean;
  run(context: CommandContext, args: string): void | Promise<void>;
  /** Suggestions for the argument being typed (`args` is everything after the name). */
  completeArguments?(context: CommandContext, args: string): ArgumentSuggestion[];
}
