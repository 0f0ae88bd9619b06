/**
 * `toolhost` with no prompt, in a terminal: the interactive app. This folder (ui/) owns
 * what the person sees and the keys they press: the Ink screen, approvals in place, the
 * global keys and the status line; ui/input (the prompt editor) and ui/commands (slash
 * commands) are the input engineer's, and reach the app through AppServices. It drives
 * the same agent as the headless front end and must not reach into core beyond its
 * public API. Ink and React are loaded only here, so other commands never load them.
 */

import { WorkspaceError } from '@toolhost/core/config';
import type { Conversation, ConversationEvent } from '@toolhost/core/conversation';
import {
  HOW_TO_CONFIGURE_MODEL,
  NoModelConfigured,
  type Opening,
  OpeningCancelled,
  openConversation,
} from '@toolhost/core/conversation';
import { visibleText } from '@toolhost/core/utils';
import type { AgentFlags } from '../conversation/agent-flags.js';
import { conversationOptionsFrom, type FlagOptions } from '../conversation/conversation-options.js';
import { ExitCode, UsageError } from '../errors.js';
import { ConversationController } from './conversation-controller.js';
import { editorForApp } from './external-editor.js';
import { shortPath } from './format.js';
import { guideModelSetup } from './model-setup.js';
import { historyItemsFromMessages } from './resumed-history.js';
import { colorWanted } from './theme.js';
import { askTrust } from './trust-offer.js';

/** Clears the screen and the scrollback, and puts the cursor at the top. */
const CLEAR_TERMINAL = '\u001b[2J\u001b[3J\u001b[H';

export interface InteractiveIo {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

export async function runInteractive(flags: AgentFlags, io: InteractiveIo): Promise<number> {
  // Read before anything opens: a usage error must not leave a session behind.
  const fromFlags = conversationOptionsFrom(flags);
  // Asked once, before the first opening loads the settings (a yes loads them in full).
  let offerTrust = Boolean(io.stdin.isTTY);
  for (;;) {
    const outcome = await runApp(
      fromFlags,
      io,
      offerTrust,
      Boolean(flags.screenReader),
      flags.promptInteractive,
    );
    offerTrust = false;
    if (outcome !== NO_MODEL) return outcome;
    // Asked with the session closed; the saved model opens a new one.
    if (!(await guideModelSetup(io))) return ExitCode.Interrupted;
  }
}

/** The app found no model configured and the person can be asked for one. */
const NO_MODEL = Symbol('no model');

async function runApp(
  { options, cutOffNote, unanswered }: FlagOptions,
  io: InteractiveIo,
  offerTrust: boolean,
  plain: boolean,
  firstPrompt: string | undefined,
): Promise<number | typeof NO_MODEL> {
  const warnings: string[] = [];
  const warn = (line: string) =>
    io.stderr.write(`toolhost: ${visibleText(line, { multiline: true })}\n`);
  let controller: ConversationController | undefined;
  let conversation: Conversation | undefined;
  let opening: Opening | undefined;
  // Until the app shows, warnings wait to be printed in it (or on stderr without a model).
  const beforeApp = (event: ConversationEvent) => {
    if (event.type === 'warning') warnings.push(`warning: ${event.message}`);
    else if (event.type === 'question' && event.question.kind === 'trust') {
      const { id, question } = event;
      void askTrust(question.offer, io).then((answer) => {
        if (answer === 'quit') opening?.cancel();
        else opening?.answer(id, { trust: answer === 'trusted' });
      });
    }
  };
  try {
    opening = openConversation({
      ...options,
      answersQuestions: true,
      pageVisits: true,
      offerTrust,
      // Typing starts at once: tools arriving later are offered from the next request on.
      waitForTools: false,
      noteAfterCancel: true,
      editProposal: (proposal) => {
        if (!controller || !conversation) return Promise.resolve(undefined);
        const editor = conversation.config.settings.general?.preferredEditor;
        return editorForApp(controller, io.stdin, editor)(proposal);
      },
      onEvent: (event) => beforeApp(event),
    });
    conversation = await opening;
  } catch (error) {
    if (error instanceof OpeningCancelled) return ExitCode.Interrupted;
    if (error instanceof NoModelConfigured) {
      for (const line of warnings) warn(line);
      if (io.stdin.isTTY) return NO_MODEL;
      warn(HOW_TO_CONFIGURE_MODEL);
      warn('For example: OPENAI_BASE_URL=http://localhost:11434/v1 OPENAI_MODEL=qwen3 toolhost');
      return ExitCode.Usage;
    }
    if (error instanceof WorkspaceError) throw new UsageError(error.message);
    throw error;
  }
  try {
    const made = (app: ConversationController) => {
      controller = app;
    };
    return await showApp(
      conversation,
      io,
      warnings,
      cutOffNote,
      unanswered,
      made,
      plain,
      firstPrompt,
    );
  } finally {
    await conversation.close('prompt_input_exit');
  }
}

/** The Ink app on an open conversation, until the person quits. */
async function showApp(
  conversation: Conversation,
  io: InteractiveIo,
  warnings: string[],
  cutOffNote: string | undefined,
  unanswered: string[],
  made: (controller: ConversationController) => void,
  plain: boolean,
  /** `-i <prompt>`: sent as soon as the app shows. */
  firstPrompt: string | undefined,
): Promise<number> {
  const { config, registry } = conversation;
  const endpoint = conversation.endpoint;
  const resumed = conversation.resumed;
  const colors = colorWanted() && !plain;
  // chalk (used by Ink and the Markdown renderer) reads this when first loaded, below.
  if (!colors) process.env.FORCE_COLOR = '0';

  let quit: () => void = () => undefined;
  const quitting = new Promise<void>((resolve) => {
    quit = resolve;
  });
  const controller = new ConversationController({
    conversation,
    onQuit: () => quit(),
    writeToTerminal: (sequence) => io.stdout.write(sequence),
    // Screen readers get no clearing: what was read stays where it was.
    ...(plain ? {} : { clearTerminal: () => io.stdout.write(CLEAR_TERMINAL) }),
  });
  made(controller);
  const services = controller.services();
  const folderLabel = shortPath(config.targetDir, process.env.HOME);
  controller.add({
    kind: 'welcome',
    model: endpoint.model,
    folder: folderLabel,
    resumed: resumed?.history.length ?? 0,
  });
  for (const line of warnings) services.print(line, 'warning');
  if (resumed) {
    for (const item of historyItemsFromMessages(resumed.history, registry)) controller.add(item);
  }
  if (cutOffNote || unanswered.length > 0)
    services.print(
      [
        cutOffNote,
        unanswered.length === 0
          ? undefined
          : unanswered.length === 1
            ? 'Your last prompt got no answer; it is back in the input: Enter sends it again.'
            : `Your last ${unanswered.length} prompts got no answer; they are back in the input: Enter sends them again.`,
      ]
        .filter(Boolean)
        .join(' '),
      'warning',
    );
  if (unanswered.length > 0) controller.setDraft(unanswered.join('\n\n'));

  const [{ render }, { createElement }, { App }] = await Promise.all([
    import('ink'),
    import('react'),
    import('./app.js'),
  ]);
  const instance = render(
    createElement(App, {
      controller,
      model: endpoint.model,
      folder: config.targetDir,
      folderLabel,
      colors,
      plain,
      ...(firstPrompt !== undefined ? { firstPrompt } : {}),
    }),
    {
      stdin: io.stdin,
      stdout: io.stdout,
      stderr: io.stderr,
      exitOnCtrlC: false,
      patchConsole: true,
      isScreenReaderEnabled: plain,
    },
  );
  await quitting;
  instance.unmount();
  await instance.waitUntilExit().catch(() => undefined);
  conversation.recorder?.recordEnd('quit');
  io.stdout.write(
    `Session ${config.sessionId} saved. Continue it with: toolhost -c (or toolhost -r ${config.sessionId})\n`,
  );
  return ExitCode.Success;
}
