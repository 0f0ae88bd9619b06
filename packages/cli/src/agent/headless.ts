/**
 * `toolhost -p "<prompt>"` and `toolhost "<prompt>"`: one task, run by the agent loop
 * with nobody to ask, printed as text, JSON or streamed JSON; the exit code says how it
 * ended (0 done, 1 failed, 2 usage, 53 turn limit, 55 tool-call or time budget, 130
 * interrupted).
 */
import {
  type AgentEvent,
  type AgentRunResult,
  type AgentStopReason,
  addTerminationCleanup,
  createAgentSession,
  HOW_TO_CONFIGURE_MODEL,
  resolveEndpoint,
  SessionRecorder,
  sessionFile,
} from '@toolhost/core';
import { ExitCode, UsageError } from '../errors.js';
import { closeSession, openSession } from '../session.js';
import {
  type AgentFlags,
  approvalModeFrom,
  limitsFrom,
  type OutputFormat,
  settingsFrom,
  subagentDepthFrom,
} from './agent-flags.js';
import { createPrinter } from './printers.js';
import { sessionToResume } from './resume.js';
import { cancelOnStopSignals } from './stop-signals.js';

export interface HeadlessIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  exitNow: (code: number) => void;
}

const EXIT_CODES: Record<AgentStopReason, number> = {
  success: ExitCode.Success,
  max_turns: ExitCode.TurnLimit,
  max_tool_calls: ExitCode.Budget,
  max_wall_time: ExitCode.Budget,
  loop_detected: ExitCode.Failed,
  error: ExitCode.Failed,
  cancelled: ExitCode.Interrupted,
};

export async function runHeadless(
  flags: AgentFlags,
  positional: string[],
  piped: string,
  io: HeadlessIo,
): Promise<number> {
  const limits = limitsFrom(flags);
  const maxSubagentDepth = subagentDepthFrom(flags);
  const approvalMode = approvalModeFrom(flags);
  const format = (flags.outputFormat ?? 'text') as OutputFormat;
  const prompt = [piped.trim(), flags.prompt?.trim(), positional.join(' ').trim()]
    .filter(Boolean)
    .join('\n\n');
  if (!prompt) {
    throw new UsageError(
      'No prompt: pass one with -p "<prompt>", as an argument, or on standard input.',
    );
  }
  const warn = (line: string) => io.stderr.write(`toolhost: ${line}\n`);
  const resumed = sessionToResume(flags);
  const session = await openSession(
    {
      root: flags.root,
      includeDirectories: flags.includeDirectories,
      approvalMode,
      overrides: settingsFrom(flags),
      ...(resumed ? { sessionId: resumed.id } : {}),
    },
    warn,
  );
  try {
    const endpoint = resolveEndpoint(session.config.settings);
    if (!endpoint) {
      warn(HOW_TO_CONFIGURE_MODEL);
      return ExitCode.Usage;
    }
    const { config } = session;
    const recorder = new SessionRecorder(
      sessionFile(config.userDir, config.targetDir, config.sessionId),
      { sessionId: config.sessionId, cwd: config.targetDir, model: endpoint.model },
      Boolean(resumed),
    );
    if (resumed && resumed.droppedMessages > 0) {
      // The file ends in an exchange that never finished (the process was killed): start
      // again from the last complete one, in the file too.
      recorder.recordHistoryReplaced(resumed.history);
      warn(
        `the session was cut off during its last exchange; continuing from the one before (${resumed.droppedMessages} message${resumed.droppedMessages === 1 ? '' : 's'} left out).`,
      );
    }
    const printer = createPrinter(format, io, session);
    const controller = new AbortController();
    const stopListening = cancelOnStopSignals(controller, io.exitNow);
    let running: Promise<unknown> = Promise.resolve();
    // TERM or HUP: cancel the run and let it finish (result printed, session ended) before exiting.
    const forgetCleanup = addTerminationCleanup(async () => {
      controller.abort(new Error('stopped by a signal'));
      await running.catch(() => undefined);
    });
    try {
      const agent = createAgentSession({
        config: session.config,
        registry: session.registry,
        endpoint,
        limits,
        maxSubagentDepth,
        recorder,
        ...(resumed ? { history: resumed.history } : {}),
        onWarning: (message) => warn(`warning: ${message}`),
        onEvent: (event: AgentEvent) => printer.event(event),
        ...(flags.systemPrompt !== undefined ? { systemPrompt: flags.systemPrompt } : {}),
        ...(flags.appendSystemPrompt !== undefined
          ? { appendSystemPrompt: flags.appendSystemPrompt }
          : {}),
      });
      printer.start(endpoint.model);
      const run = agent.loop.run(prompt, controller.signal);
      running = run;
      const result: AgentRunResult = await run;
      recorder.recordEnd(result.status);
      printer.finish(result, agent.usage.usage);
      return EXIT_CODES[result.status];
    } finally {
      stopListening();
      forgetCleanup();
    }
  } finally {
    await closeSession(session);
  }
}

/** Piped standard input, read to its end; nothing when it is a terminal. */
export async function readPipedInput(stdin: NodeJS.ReadStream): Promise<string> {
  if (stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}
