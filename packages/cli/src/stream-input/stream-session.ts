/**
 * `toolhost --input-format stream-json -o stream-json`: a headless session that lasts as
 * long as its standard input. Each `user` line is a turn, run in order and printed as a
 * `-p` run prints (init, messages, result) with the conversation kept between turns; the
 * host answers toolhost's approval questions and may interrupt a turn or change the mode
 * with control lines (the shapes Qwen Code 0.24 and the Claude Agent SDK use). End of input
 * ends the session once the turns sent have run. This folder owns reading the input lines
 * and the control protocol; the agent, its events and the printers are the headless ones.
 */
import { createInterface } from 'node:readline';
import type { PromptContent } from '@toolhost/core/internal/conversation/prompt-content.js';
import { runForSchema } from '@toolhost/core/internal/conversation/structured-output.js';
import { HOW_TO_CONFIGURE_MODEL } from '@toolhost/core/internal/models/endpoint.js';
import { addTerminationCleanup } from '@toolhost/core/internal/utils/termination.js';
import { visibleText } from '@toolhost/core/internal/utils/visible-text.js';
import type { AgentFlags } from '../agent/agent-flags.js';
import { withAgentStart } from '../agent/agent-start.js';
import { type HeadlessIo, untilDone, withAttachments } from '../agent/headless.js';
import { createPrinter, type Printer } from '../agent/printers.js';
import { cancelOnStopSignals } from '../agent/stop-signals.js';
import { loadJsonSchema, withSchemaInstructions } from '../agent/structured-output.js';
import { ExitCode, UsageError } from '../errors.js';
import { answerControlRequest } from './control-requests.js';
import { HostQuestions } from './host-questions.js';
import { readInputLine } from './input-lines.js';

export interface StreamSessionIo extends HeadlessIo {
  stdin: NodeJS.ReadStream;
}

export async function runStreamSession(
  flags: AgentFlags,
  positional: string[],
  io: StreamSessionIo,
): Promise<number> {
  if (flags.outputFormat !== 'stream-json') {
    throw new UsageError(
      `--input-format stream-json answers in JSON lines too: add -o stream-json (got -o ${flags.outputFormat ?? 'text'}).`,
    );
  }
  if (positional.length > 0 || flags.prompt !== undefined) {
    throw new UsageError(
      'With --input-format stream-json the prompts come on standard input, one {"type":"user",...} line each; drop the prompt argument.',
    );
  }
  if (flags.permissionPromptTool !== undefined && flags.permissionPromptTool !== 'stdio') {
    throw new UsageError(
      `--permission-prompt-tool ${flags.permissionPromptTool}: toolhost asks its questions on stdout (stdio) only.`,
    );
  }
  const schema =
    flags.jsonSchema !== undefined
      ? loadJsonSchema(flags.jsonSchema, flags.root ?? process.cwd())
      : undefined;
  const warn = (line: string) =>
    io.stderr.write(`toolhost: ${visibleText(line, { multiline: true })}\n`);
  const write = (line: unknown) => io.stdout.write(`${JSON.stringify(line)}\n`);
  return withAgentStart(
    schema ? withSchemaInstructions(flags, schema) : flags,
    warn,
    async ({ session, endpoint, recorder, cutOffNote, createAgent }) => {
      if (cutOffNote) warn(cutOffNote);
      const stopped = new AbortController();
      const stopListening = cancelOnStopSignals(stopped, io.exitNow);
      let turn: AbortController | undefined;
      const interrupt = () => turn?.abort(new Error('interrupted by the host'));
      const questions = new HostQuestions(write, warn, interrupt);
      let printer: Printer | undefined;
      let turns: Promise<void> = Promise.resolve();
      const forgetCleanup = addTerminationCleanup(async () => {
        stopped.abort(new Error('stopped by a signal'));
        await turns.catch(() => undefined);
      });
      const agent = createAgent({
        onWarning: (message) => warn(`warning: ${message}`),
        onEvent: (event) => printer?.event(event),
        onConfirmationRequest: (call) =>
          questions.canUseTool(call, turn?.signal ?? AbortSignal.abort()),
      });

      const runTurn = async (prompt: PromptContent) => {
        if (stopped.signal.aborted) return;
        const controller = new AbortController();
        const stop = () => controller.abort(new Error('stopped by a signal'));
        stopped.signal.addEventListener('abort', stop, { once: true });
        turn = controller;
        try {
          printer = createPrinter('stream-json', io, session, {
            version: io.version,
            partialMessages: flags.includePartialMessages === true,
          });
          printer.start(endpoint.model);
          const content =
            typeof prompt === 'string'
              ? await withAttachments(prompt, session, controller.signal, warn)
              : prompt;
          const attempt = (retry: string | undefined) =>
            agent.loop.run(retry ?? content, controller.signal);
          const { result, structured } = schema
            ? await runForSchema(schema, attempt)
            : { result: await attempt(undefined), structured: undefined };
          recorder.recordEnd(result.status);
          // A turn's result counts that turn, as each `-p` run's counts its run.
          printer.finish(result, result.usage, structured);
        } finally {
          stopped.signal.removeEventListener('abort', stop);
          turn = undefined;
          printer = undefined;
        }
      };

      const lines = createInterface({ input: io.stdin, crlfDelay: Number.POSITIVE_INFINITY });
      // Made now, so no line that arrives before the loop below reads it is lost.
      const input = lines[Symbol.asyncIterator]();
      stopped.signal.addEventListener('abort', () => lines.close(), { once: true });
      try {
        // The first turn has the MCP servers' tools and the server's context size; control
        // requests (initialize first) are answered meanwhile.
        turns = untilDone(
          Promise.all([
            session.registry.whenDiscoveryComplete(),
            agent.model.learnContextWindow(stopped.signal),
          ]),
          stopped.signal,
        ).catch(() => undefined);
        let lineNumber = 0;
        for (let next = await input.next(); !next.done; next = await input.next()) {
          lineNumber++;
          if (!next.value.trim()) continue;
          const line = readInputLine(next.value);
          switch (line.kind) {
            case 'invalid':
              warn(`standard input line ${lineNumber} was skipped: ${line.problem}.`);
              break;
            case 'user': {
              const prompt = line.content;
              // One turn at a time, in the order sent; the lines after keep being read.
              turns = turns.then(() =>
                runTurn(prompt).catch((error: unknown) => {
                  warn(
                    `the turn failed: ${error instanceof Error ? error.message : String(error)}`,
                  );
                }),
              );
              break;
            }
            case 'control_request':
              try {
                const response = answerControlRequest(line.request, {
                  session,
                  interrupt,
                });
                write({
                  type: 'control_response',
                  response: { subtype: 'success', request_id: line.requestId, response },
                });
              } catch (error) {
                write({
                  type: 'control_response',
                  response: {
                    subtype: 'error',
                    request_id: line.requestId,
                    error: error instanceof Error ? error.message : String(error),
                  },
                });
              }
              break;
            case 'control_response':
              questions.answered(line.requestId, line);
              break;
            default:
              // control_cancel_request: toolhost answers control requests at once, so
              // there is nothing left to cancel; keep_alive asks for nothing.
              break;
          }
        }
        // End of input: nobody is left to answer a question; the turns sent still run.
        questions.end();
        await turns;
        // Each turn's outcome is in its result event; the session itself ended as asked
        // (the SDKs take any other exit code for a crash).
        return stopped.signal.aborted ? ExitCode.Interrupted : ExitCode.Success;
      } finally {
        questions.end();
        lines.close();
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
