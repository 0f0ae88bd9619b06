/**
 * Everything the prompt needs for one app session, made once from the app's services:
 * the editor with this project's history, the commands, the `@` path listing, the
 * completion source and the dispatcher that sends each line where it belongs.
 */

import { atTokenBeforeCursor, type ToolRunner } from '@toolhost/core/conversation';
import { createElement } from 'react';
import type { AppServices } from '../app-services.js';
import { BUILTIN_COMMANDS, CommandCatalog } from '../commands/command-catalog.js';
import { completeSlashLine } from '../commands/command-line.js';
import type { CommandContext, MessageKind } from '../commands/command-types.js';
import { MarkdownText } from '../components/markdown-text.js';
import { suggestAtPaths, WorkspacePaths } from './path-completion.js';
import { PromptDispatcher } from './prompt-dispatcher.js';
import { type Completion, PromptEditor } from './prompt-editor.js';
import { PromptHistory, promptHistoryFile } from './prompt-history.js';

export interface PromptInputState {
  editor: PromptEditor;
  catalog: CommandCatalog;
  dispatcher: PromptDispatcher;
  complete(text: string, cursor: number): Promise<Completion | undefined>;
  /** Sends a line as the person typed it (commands, `!` lines, prompts). */
  submit(line: string): Promise<void>;
  /** Stops a command that is waiting on something (Esc). */
  cancelCommand(): boolean;
}

export function createPromptInputState(services: AppServices): PromptInputState {
  const { config, registry } = services;
  const editor = new PromptEditor(
    PromptHistory.load(promptHistoryFile(config.userDir, config.targetDir)),
  );
  if (config.settings.general?.vimMode) editor.setVim(true);
  const draft = services.takeDraft();
  if (draft) editor.setText(draft);
  const catalog = new CommandCatalog(config, registry, BUILTIN_COMMANDS, (warning) =>
    services.print(warning, 'warning'),
  );
  const paths = new WorkspacePaths(config);
  // What commands print is Markdown (lists, code, emphasis): rendered like the answers.
  const print = (markdown: string, kind: MessageKind = 'info') => {
    if (kind !== 'info') services.print(markdown, kind);
    // The history puts the one blank row above it.
    else services.printElement(createElement(MarkdownText, { text: markdown }));
  };
  /** The line being handled: Esc aborts what it waits on. */
  let running: AbortController | undefined;
  const signal = () => {
    running ??= new AbortController();
    return running.signal;
  };
  const runTool: ToolRunner = async (name, args) => {
    const [call] = await services.runToolCalls([{ callId: `prompt-${Date.now()}`, name, args }]);
    if (!call) throw new Error(`${name} did not run.`);
    return call;
  };
  const contextWith = (signal: AbortSignal): CommandContext => ({
    config,
    registry,
    agent: services.agent,
    stats: () => {
      const stats = services.getStats();
      return { startedAt: stats.startedAt, toolCalls: stats.toolCalls };
    },
    print,
    runTool,
    submitPrompt: (prompt) => dispatcher.sendPrompt(prompt),
    clearConversation: () => services.resetConversation(),
    resumeSession: async (id) => {
      const unanswered = await services.resumeSession(id);
      if (unanswered) editor.setText(unanswered);
    },
    restoreCheckpoint: (which) => services.restoreCheckpoint(which),
    quit: () => services.quit(),
    setPromptText: (text) => editor.setText(text),
    writeToTerminal: (sequence) => services.writeToTerminal(sequence),
    pick: (title, items, selected) => services.pick(title, items, selected),
    setTheme: (name) => services.setTheme(name),
    vimMode: () => editor.vim !== undefined,
    setVimMode: (on) => editor.setVim(on),
    signal,
    commands: () => catalog.all(),
  });
  const idle = new AbortController().signal;
  const dispatcher = new PromptDispatcher({
    commandContext: () => contextWith(signal()),
    commands: () => catalog.all(),
    runTool,
    echo: (line) => services.showUserLine(line),
    print,
    sendToModel: (prompt, notes) => void services.submitPrompt(prompt, notes),
    signal,
  });
  return {
    editor,
    catalog,
    dispatcher,
    async complete(text, cursor) {
      if (text.startsWith('/'))
        return completeSlashLine(text, cursor, catalog.all(), contextWith(idle));
      const token = atTokenBeforeCursor(text, cursor);
      if (!token) return undefined;
      const items = await suggestAtPaths(token.target, paths, registry);
      return items.length > 0
        ? { items, selected: 0, start: token.start, end: token.end }
        : undefined;
    },
    async submit(line) {
      try {
        await dispatcher.submit(line);
      } finally {
        running = undefined;
      }
    },
    cancelCommand() {
      if (!running || running.signal.aborted) return false;
      running.abort(new Error('cancelled by the person'));
      return true;
    },
  };
}
