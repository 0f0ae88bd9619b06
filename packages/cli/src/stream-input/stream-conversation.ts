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
import type { Conversation } from '@toolhost/core/conversation';
import {
  type ConversationEvent,
  HOW_TO_CONFIGURE_MODEL,
  isAgentEvent,
} from '@toolhost/core/conversation';
import { visibleText } from '@toolhost/core/utils';
import type { AgentFlags } from '../conversation/agent-flags.js';
import { conversationOptionsFrom, withConversation } from '../conversation/conversation-options.js';
import { createPrinter, type Printer, type PrinterIo } from '../conversation/printers.js';
import { cancelOnStopSignals } from '../conversation/stop-signals.js';
import { loadJsonSchema } from '../conversation/structured-output.js';
import { ExitCode, UsageError } from '../errors.js';
import { answerControlRequest } from './control-requests.js';
import { HostQuestions } from './host-questions.js';
import { readInputLine } from './input-lines.js';

export interface StreamConversationIo extends PrinterIo {
  stdin: NodeJS.ReadStream;
  exitNow: (code: number) => void;
  /** toolhost's version, named in each turn's init event. */
  version: string;
}

export async function runStreamConversation(
  flags: AgentFlags,
  positional: string[],
  io: StreamConversationIo,
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
  const { options, cutOffNote } = conversationOptionsFrom(flags);
  let conversation: Conversation | undefined;
  let stopped = false;
  const interrupt = () => conversation?.cancel('interrupted by the host');
  const questions = new HostQuestions(write, warn, interrupt);
  // The host's open questions, by the conversation's question id: closed when the turn is.
  const asked = new Map<string, AbortController>();
  let printer: Printer | undefined;
  const onEvent = (event: ConversationEvent) => {
    switch (event.type) {
      case 'warning':
        warn(`warning: ${event.message}`);
        break;
      case 'prompt_started':
        // Turns are sent once the conversation is open.
        if (!conversation) break;
        printer = createPrinter('stream-json', io, conversation, {
          version: io.version,
          partialMessages: flags.includePartialMessages === true,
        });
        printer.start(conversation.endpoint.model);
        break;
      case 'prompt_ended': {
        const { result, structured } = event.outcome;
        // A turn's result counts that turn, as each `-p` run's counts its run.
        printer?.finish(result, result.usage, structured);
        printer = undefined;
        break;
      }
      case 'question': {
        const { question, id } = event;
        if (question.kind === 'trust') break;
        const closed = new AbortController();
        asked.set(id, closed);
        void questions.canUseTool(question.call, closed.signal).then((decision) => {
          asked.delete(id);
          conversation?.answer(id, decision);
        });
        break;
      }
      case 'question_closed':
        asked.get(event.id)?.abort();
        asked.delete(event.id);
        break;
      default:
        if (isAgentEvent(event)) printer?.event(event);
    }
  };
  return withConversation(
    { ...options, ...(schema ? { outputSchema: schema } : {}), answersQuestions: true, onEvent },
    async (opened) => {
      conversation = opened;
      if (cutOffNote) warn(cutOffNote);
      const lines = createInterface({ input: io.stdin, crlfDelay: Number.POSITIVE_INFINITY });
      // Made now, so no line that arrives before the loop below reads it is lost.
      const input = lines[Symbol.asyncIterator]();
      const stopListening = cancelOnStopSignals((reason) => {
        stopped = true;
        opened.cancel(reason);
        lines.close();
      }, io.exitNow);
      let turns: Promise<unknown> = Promise.resolve();
      try {
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
              // One turn at a time, in the order sent (the conversation queues them); the
              // lines after keep being read. The first waits for tool discovery and the
              // server's context size; control requests are answered meanwhile.
              const turn = opened.send(line.content).catch((error: unknown) => {
                printer = undefined;
                if (!stopped)
                  warn(
                    `the turn failed: ${error instanceof Error ? error.message : String(error)}`,
                  );
              });
              turns = Promise.all([turns, turn]);
              break;
            }
            case 'control_request':
              try {
                const response = answerControlRequest(line.request, {
                  session: opened,
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
        if (!stopped) await turns;
        // Each turn's outcome is in its result event; the session itself ended as asked
        // (the SDKs take any other exit code for a crash).
        return stopped ? ExitCode.Interrupted : ExitCode.Success;
      } finally {
        questions.end();
        lines.close();
        stopListening();
      }
    },
    () => {
      warn(HOW_TO_CONFIGURE_MODEL);
      return ExitCode.Usage;
    },
  );
}
