/**
 * `toolhost` with no prompt, in a terminal: the interactive app. This folder (ui/) owns
 * what the person sees and the keys they press: the Ink screen, approvals in place, the
 * global keys and the status line; ui/input (the prompt editor) and ui/commands (slash
 * commands) are the input engineer's, and reach the app through AppServices. It drives
 * the same agent as the headless front end and must not reach into core beyond its
 * public API. Ink and React are loaded only here, so other commands never load them.
 */
import { HOW_TO_CONFIGURE_MODEL } from '@toolhost/core/internal/models/endpoint.js';
import { visibleText } from '@toolhost/core/internal/utils/visible-text.js';
import type { AgentFlags } from '../agent/agent-flags.js';
import { withAgentStart } from '../agent/agent-start.js';
import { ExitCode } from '../errors.js';
import { editorForApp } from './external-editor.js';
import { shortPath } from './format.js';
import { guideModelSetup } from './model-setup.js';
import { historyItemsFromMessages } from './resumed-history.js';
import { SessionController } from './session-controller.js';
import { colorWanted } from './theme.js';
import { offerTrust } from './trust-offer.js';

/** Clears the screen and the scrollback, and puts the cursor at the top. */
const CLEAR_TERMINAL = '\u001b[2J\u001b[3J\u001b[H';

export interface InteractiveIo {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

export async function runInteractive(flags: AgentFlags, io: InteractiveIo): Promise<number> {
  // Before the session opens, so that a yes loads the project's settings in full.
  if ((await offerTrust(flags.root, io)) === 'quit') return ExitCode.Interrupted;
  for (;;) {
    const outcome = await runApp(flags, io);
    if (outcome !== NO_MODEL) return outcome;
    // Asked with the session closed; the saved model opens a new one.
    if (!(await guideModelSetup(io))) return ExitCode.Interrupted;
  }
}

/** The app found no model configured and the person can be asked for one. */
const NO_MODEL = Symbol('no model');

async function runApp(flags: AgentFlags, io: InteractiveIo): Promise<number | typeof NO_MODEL> {
  const warnings: string[] = [];
  const warn = (line: string) =>
    io.stderr.write(`toolhost: ${visibleText(line, { multiline: true })}\n`);
  return withAgentStart(
    flags,
    (line) => warnings.push(line),
    async ({ session, endpoint, recorder, resumed, cutOffNote, unanswered, createAgent }) => {
      const { config, registry } = session;
      const plain = Boolean(flags.screenReader);
      const colors = colorWanted() && !plain;
      // chalk (used by Ink and the Markdown renderer) reads this when first loaded, below.
      if (!colors) process.env.FORCE_COLOR = '0';

      let quit: () => void = () => undefined;
      const quitting = new Promise<void>((resolve) => {
        quit = resolve;
      });
      const controller = new SessionController({
        config,
        registry,
        endpoint,
        onQuit: () => quit(),
        onTurnEnd: (status) => recorder.recordEnd(status),
        onHistoryReplaced: (history) => recorder.recordHistoryReplaced(history),
        onSessionResumed: (loaded) => {
          // Checkpoints, todos and the saved file follow the session that goes on.
          config.sessionId = loaded.id;
          recorder.continueIn(loaded.file, loaded.id);
          if (loaded.droppedMessages > 0) recorder.recordHistoryReplaced(loaded.history);
        },
        writeToTerminal: (sequence) => io.stdout.write(sequence),
        // Screen readers get no clearing: what was read stays where it was.
        ...(plain ? {} : { clearTerminal: () => io.stdout.write(CLEAR_TERMINAL) }),
      });
      const services = controller.services();
      const agent = createAgent({
        onEvent: controller.onEvent,
        onConfirmationRequest: controller.requestApproval,
        editProposal: editorForApp(controller, io.stdin, config.settings.general?.preferredEditor),
        onWarning: (message) => services.print(message, 'warning'),
      });
      controller.attach(agent);
      // Asked while the person types: the first prompt need not wait for it.
      void agent.model.learnContextWindow();
      const folderLabel = shortPath(config.targetDir, process.env.HOME);
      controller.add({
        kind: 'welcome',
        model: endpoint.model,
        folder: folderLabel,
        resumed: resumed?.history.length ?? 0,
      });
      for (const line of warnings) services.print(line, 'warning');
      if (resumed) {
        for (const item of historyItemsFromMessages(resumed.history, registry))
          controller.add(item);
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
          ...(flags.promptInteractive !== undefined
            ? { firstPrompt: flags.promptInteractive }
            : {}),
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
      recorder.recordEnd('quit');
      io.stdout.write(
        `Session ${config.sessionId} saved. Continue it with: toolhost -c (or toolhost -r ${config.sessionId})\n`,
      );
      return ExitCode.Success;
    },
    (): number | typeof NO_MODEL => {
      for (const line of warnings) warn(line);
      if (io.stdin.isTTY) return NO_MODEL;
      warn(HOW_TO_CONFIGURE_MODEL);
      warn('For example: OPENAI_BASE_URL=http://localhost:11434/v1 OPENAI_MODEL=qwen3 toolhost');
      return ExitCode.Usage;
    },
    true,
  );
}
