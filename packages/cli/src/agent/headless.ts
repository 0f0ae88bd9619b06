/**
 * `toolhost -p "<prompt>"` and `toolhost "<prompt>"`: one task, run by the agent loop
 * with nobody to ask, printed as text, JSON or streamed JSON; the exit code says how it
 * ended (0 done, 1 failed, 2 usage, 53 turn limit, 55 tool-call or time budget, 130
 * interrupted).
 */
import type { AgentStopReason } from '@toolhost/core/conversation';
import {
  type ConversationEvent,
  HOW_TO_CONFIGURE_MODEL,
  isAgentEvent,
} from '@toolhost/core/conversation';
import { visibleText } from '@toolhost/core/utils';
import type { AgentFlags, OutputFormat } from '../conversation/agent-flags.js';
import { conversationOptionsFrom, withConversation } from '../conversation/conversation-options.js';
import { createPrinter, type Printer } from '../conversation/printers.js';
import { cancelOnStopSignals } from '../conversation/stop-signals.js';
import { loadJsonSchema } from '../conversation/structured-output.js';
import { ExitCode, UsageError } from '../errors.js';

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
  refusal: ExitCode.Refused,
  safety: ExitCode.Refused,
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
  const { options, cutOffNote, unanswered } = conversationOptionsFrom(flags);
  let printer: Printer | undefined;
  let model = '';
  const onEvent = (event: ConversationEvent) => {
    if (event.type === 'warning') warn(`warning: ${event.message}`);
    // Once tools are discovered: the init event names them and how each server ended.
    else if (event.type === 'prompt_started') printer?.start(model);
    else if (isAgentEvent(event)) printer?.event(event);
  };
  return withConversation(
    { ...options, ...(schema ? { outputSchema: schema } : {}), onEvent },
    async (conversation) => {
      if (cutOffNote) warn(cutOffNote);
      // Said whole, so the person can send what got no answer again.
      for (const text of unanswered)
        warn(
          `A prompt of the earlier session got no answer and is not in the conversation: ${text}`,
        );
      model = conversation.endpoint.model;
      printer = createPrinter(format, io, conversation, {
        version: io.version,
        partialMessages: flags.includePartialMessages === true,
      });
      const stopListening = cancelOnStopSignals(
        (reason) => conversation.cancel(reason),
        io.exitNow,
      );
      try {
        const outcome = await conversation.send(prompt);
        printer.finish(outcome.result, conversation.agent.usage.usage, outcome.structured);
        return EXIT_CODES[outcome.reason];
      } finally {
        stopListening();
      }
    },
    () => {
      warn(HOW_TO_CONFIGURE_MODEL);
      return ExitCode.Usage;
    },
  );
}

/** Piped standard input, read to its end; nothing when it is a terminal. */
export async function readPipedInput(stdin: NodeJS.ReadStream): Promise<string> {
  if (stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}
