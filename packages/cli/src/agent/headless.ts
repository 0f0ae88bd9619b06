/**
 * `toolhost -p "<prompt>"` and `toolhost "<prompt>"`: one task, run by the agent loop
 * with nobody to ask, printed as text, JSON or streamed JSON; the exit code says how it
 * ended (0 done, 1 failed, 2 usage, 53 turn limit, 55 tool-call or time budget, 130
 * interrupted).
 */
import type { AgentEvent, AgentStopReason } from '@toolhost/core/internal/agent/agent-events.js';
import {
  attachReferences,
  findAtReferences,
} from '@toolhost/core/internal/conversation/at-references.js';
import type { PromptContent } from '@toolhost/core/internal/conversation/prompt-content.js';
import { runForSchema } from '@toolhost/core/internal/conversation/structured-output.js';
import { CoreToolScheduler } from '@toolhost/core/internal/core/core-tool-scheduler.js';
import { HOW_TO_CONFIGURE_MODEL } from '@toolhost/core/internal/models/endpoint.js';
import { addTerminationCleanup } from '@toolhost/core/internal/utils/termination.js';
import { visibleText } from '@toolhost/core/internal/utils/visible-text.js';
import { ExitCode, UsageError } from '../errors.js';
import type { Session } from '../session.js';
import type { AgentFlags, OutputFormat } from './agent-flags.js';
import { withAgentStart } from './agent-start.js';
import { createPrinter } from './printers.js';
import { cancelOnStopSignals } from './stop-signals.js';
import { loadJsonSchema, withSchemaInstructions } from './structured-output.js';

export interface HeadlessIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  exitNow: (code: number) => void;
  /** toolhost's version, named in the init event of the JSON formats. */
  version: string;
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
  const format = (flags.outputFormat ?? 'text') as OutputFormat;
  const prompt = [piped.trim(), flags.prompt?.trim(), positional.join(' ').trim()]
    .filter(Boolean)
    .join('\n\n');
  if (flags.includePartialMessages && format !== 'stream-json') {
    throw new UsageError(
      `--include-partial-messages streams events, so it needs -o stream-json (got -o ${format}).`,
    );
  }
  const schema =
    flags.jsonSchema !== undefined
      ? loadJsonSchema(flags.jsonSchema, flags.root ?? process.cwd())
      : undefined;
  if (flags.permissionPromptTool !== undefined) {
    throw new UsageError(
      '--permission-prompt-tool asks the host on stdout, so it needs --input-format stream-json -o stream-json.',
    );
  }
  if (!prompt) {
    throw new UsageError(
      'No prompt: pass one with -p "<prompt>", as an argument, or on standard input.',
    );
  }
  const warn = (line: string) =>
    io.stderr.write(`toolhost: ${visibleText(line, { multiline: true })}\n`);
  return withAgentStart(
    schema ? withSchemaInstructions(flags, schema) : flags,
    warn,
    async ({ session, endpoint, recorder, cutOffNote, unanswered, createAgent }) => {
      if (cutOffNote) warn(cutOffNote);
      // Said whole, so the person can send what got no answer again.
      for (const text of unanswered)
        warn(
          `A prompt of the earlier session got no answer and is not in the conversation: ${text}`,
        );
      const printer = createPrinter(format, io, session, {
        version: io.version,
        partialMessages: flags.includePartialMessages === true,
      });
      const controller = new AbortController();
      const stopListening = cancelOnStopSignals(controller, io.exitNow);
      let running: Promise<unknown> = Promise.resolve();
      // TERM or HUP: cancel the run and let it finish (result printed, session ended) before exiting.
      const forgetCleanup = addTerminationCleanup(async () => {
        controller.abort(new Error('stopped by a signal'));
        await running.catch(() => undefined);
      });
      try {
        const agent = createAgent({
          onWarning: (message) => warn(`warning: ${message}`),
          onEvent: (event: AgentEvent) => printer.event(event),
        });
        await untilDone(
          Promise.all([
            // Nobody sees tools arrive in a one-shot run: the first request has the MCP
            // servers' tools (each server bounded by its start timeout; the init event says
            // how each ended) and the server's context size.
            session.registry.whenDiscoveryComplete(),
            agent.model.learnContextWindow(controller.signal),
          ]),
          controller.signal,
        );
        printer.start(endpoint.model);
        const content = await withAttachments(prompt, session, controller.signal, warn);
        const attempt = (retry: string | undefined) => {
          const run = agent.loop.run(retry ?? content, controller.signal);
          running = run;
          return run;
        };
        const { result, structured } = schema
          ? await runForSchema(schema, attempt)
          : { result: await attempt(undefined), structured: undefined };
        recorder.recordEnd(result.status);
        printer.finish(result, agent.usage.usage, structured);
        return EXIT_CODES[result.status];
      } finally {
        stopListening();
        forgetCleanup();
      }
    },
    () => {
      warn(HOW_TO_CONFIGURE_MODEL);
      return ExitCode.Usage;
    },
  );
}

/** Waits for the work, or until the run is cancelled (the run then ends as cancelled). */
export async function untilDone(work: Promise<unknown>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  const cancelled = new Promise<void>((resolve) =>
    signal.addEventListener('abort', () => resolve(), { once: true }),
  );
  await Promise.race([work, cancelled]);
}

/**
 * The prompt with what its `@` references name attached (files, folders, images, PDFs),
 * read the way the interactive app reads them; problems are warnings, the run goes on.
 */
export async function withAttachments(
  prompt: string,
  session: Session,
  signal: AbortSignal,
  warn: (line: string) => void,
): Promise<PromptContent> {
  if (findAtReferences(prompt).length === 0) return prompt;
  // Nobody to ask: a read the settings would not allow without asking is refused.
  const scheduler = new CoreToolScheduler({
    config: session.config,
    toolRegistry: session.registry,
  });
  let next = 0;
  const attached = await attachReferences(prompt, {
    config: session.config,
    registry: session.registry,
    signal,
    runTool: async (name, args, toolSignal) => {
      const [call] = await scheduler.schedule(
        { callId: `prompt-attachment-${++next}`, name, args },
        toolSignal,
      );
      if (!call) throw new Error(`${name} did not run.`);
      return call;
    },
  });
  for (const problem of attached.problems) warn(problem);
  return attached.content;
}

/** Piped standard input, read to its end; nothing when it is a terminal. */
export async function readPipedInput(stdin: NodeJS.ReadStream): Promise<string> {
  if (stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}
