/** `toolhost call`: runs one call through the scheduler, exactly as a model's call would run. */
import {
  type CompletedToolCall,
  type ConfirmationDecision,
  CoreToolScheduler,
  closestNames,
  partsToText,
  ToolConfirmationOutcome,
  type WaitingToolCall,
} from '@toolhost/core';
import { askInTerminal } from '../confirm-prompt.js';
import { ExitCode, UsageError } from '../errors.js';
import { renderDisplay, type Style } from '../render.js';
import { closeSession, type Session } from '../session.js';

export interface CallOptions {
  json?: boolean;
  yes?: boolean;
}

export interface CallIo {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  style: Style;
}

export async function runCallCommand(
  session: Session,
  toolName: string,
  rawArgs: string | undefined,
  options: CallOptions,
  io: CallIo,
): Promise<number> {
  const tool = session.registry.getTool(toolName);
  if (!tool) throw new UsageError(unknownToolMessage(session, toolName));
  const readsStdin = rawArgs === '-';
  const args = parseArguments(readsStdin ? await readAll(io.stdin) : rawArgs, tool.name);

  let needsConfirmation: WaitingToolCall | undefined;
  const canAsk = Boolean(io.stdin.isTTY) && !readsStdin;
  const onConfirmationRequest = async (call: WaitingToolCall): Promise<ConfirmationDecision> => {
    if (options.yes) return { outcome: ToolConfirmationOutcome.ProceedOnce };
    if (canAsk) {
      const decision = await askInTerminal(call, io.style, io.stdin, io.stderr);
      if (decision.outcome === ToolConfirmationOutcome.Cancel) needsConfirmation = call;
      return decision;
    }
    needsConfirmation = call;
    return { outcome: ToolConfirmationOutcome.Cancel };
  };

  const controller = new AbortController();
  const onInterrupt = () => {
    if (controller.signal.aborted) process.exit(ExitCode.Interrupted);
    controller.abort();
  };
  process.on('SIGINT', onInterrupt);
  let completed: CompletedToolCall | undefined;
  try {
    const scheduler = new CoreToolScheduler({
      config: session.config,
      toolRegistry: session.registry,
      onConfirmationRequest,
      outputUpdateHandler: options.json ? undefined : liveOutputPrinter(io.stderr),
    });
    [completed] = await scheduler.schedule(
      { callId: 'cli-call', name: tool.name, args },
      controller.signal,
    );
  } finally {
    process.off('SIGINT', onInterrupt);
    // The session ends with this one call: background commands end too, unless settings keep them.
    await closeSession(session);
  }
  if (!completed) throw new Error('the scheduler returned no result');

  const unanswered = needsConfirmation !== undefined && !canAsk;
  if (options.json) {
    io.stdout.write(`${JSON.stringify(toJson(tool.name, completed), null, 2)}\n`);
  } else if (!unanswered) {
    writeHuman(completed, io);
  }
  if (needsConfirmation) {
    if (unanswered) {
      io.stderr.write(
        `toolhost: ${tool.name} needs confirmation (${needsConfirmation.confirmationDetails.title}); nobody can be asked without a terminal. Pass --yes, or --approval-mode auto-edit or yolo where that fits.\n`,
      );
    }
    return ExitCode.NeedsConfirmation;
  }
  if (completed.status === 'cancelled') return ExitCode.Interrupted;
  return completed.status === 'success' ? ExitCode.Success : ExitCode.ToolError;
}

/**
 * Live output arrives as everything so far; a person should see each part once, so only
 * what is new since the last update is printed.
 */
function liveOutputPrinter(
  stream: NodeJS.WritableStream,
): (callId: string, output: string) => void {
  let printed = '';
  return (_callId, output) => {
    stream.write(output.startsWith(printed) ? output.slice(printed.length) : `\n${output}`);
    printed = output;
  };
}

function toJson(toolName: string, call: CompletedToolCall) {
  return {
    tool: toolName,
    status: call.status,
    llmContent: call.response.llmContent,
    returnDisplay: call.response.resultDisplay ?? null,
    error: call.response.error
      ? { message: call.response.error.message, type: call.response.error.type }
      : null,
    functionResponse: call.response.responseParts,
  };
}

function writeHuman(call: CompletedToolCall, io: CallIo): void {
  const display = renderDisplay(call.response.resultDisplay, io.style);
  if (call.response.error) {
    io.stderr.write(
      `${io.style.red(`error [${call.response.error.type}]`)}: ${call.response.error.message}\n`,
    );
    return;
  }
  if (display) io.stdout.write(`${display}\n`);
  const modelText = partsToText(call.response.llmContent);
  if (call.status === 'success' && modelText && modelText !== display) {
    io.stdout.write(`${io.style.dim('── sent to the model ──')}\n${modelText}\n`);
  }
}

function parseArguments(raw: string | undefined, toolName: string): Record<string, unknown> {
  if (raw === undefined || raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new UsageError(
      `the arguments for ${toolName} are not valid JSON (${(error as Error).message}). Pass one JSON object, e.g. '{"absolute_path": "/path/to/file"}', or - to read it from standard input.`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(
      `the arguments for ${toolName} must be a JSON object of named parameters, not ${Array.isArray(parsed) ? 'an array' : typeof parsed}.`,
    );
  }
  return parsed as Record<string, unknown>;
}

function unknownToolMessage(session: Session, name: string): string {
  const registered = session.registry.getRegisteredTool(name);
  if (registered) {
    return `tool "${name}" is turned off by settings (tools.core / tools.exclude). Active tools: ${session.registry.getAllToolNames().join(', ')}.`;
  }
  const suggestions = closestNames(name, session.registry.getAllToolNames());
  const hint = suggestions.length
    ? `Did you mean ${suggestions.join(' or ')}?`
    : `Run "toolhost tools" to see the tools.`;
  return `unknown tool "${name}". ${hint}`;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}
