/** `toolhost call`: runs one call through the scheduler, exactly as a model's call would run. */

import {
  approvalModesThatSkip,
  CoreToolScheduler,
  forcedQuestionReason,
} from '@toolhost/core/scheduler';
import type {
  CompletedToolCall,
  ConfirmationDecision,
  WaitingToolCall,
} from '@toolhost/core/tools';
import {
  type AnyTool,
  closestNames,
  partsToText,
  ToolConfirmationOutcome,
  ToolErrorType,
  toParts,
} from '@toolhost/core/tools';
import { plural, visibleText } from '@toolhost/core/utils';
import { ExitCode, UsageError } from '../errors.js';
import { renderDisplay, renderFileDiff, type Style } from '../render.js';
import { elideSeenLines, unseenRest } from '../seen-text.js';
import type { WorkspaceTools } from '../workspace-tools.js';

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
  session: WorkspaceTools,
  toolName: string,
  rawArgs: string | undefined,
  options: CallOptions,
  io: CallIo,
): Promise<number> {
  const controller = new AbortController();
  const onInterrupt = () => {
    if (controller.signal.aborted) process.exit(ExitCode.Interrupted);
    controller.abort();
  };
  process.on('SIGINT', onInterrupt);
  let tool: AnyTool | undefined;
  try {
    // Waits only when the name may belong to an MCP server that is still starting.
    tool = await session.registry.waitForTool(toolName, controller.signal);
  } finally {
    process.off('SIGINT', onInterrupt);
  }
  if (controller.signal.aborted) return ExitCode.Interrupted;
  if (!tool) {
    // The messages below list the other tools: every built-in is needed now.
    await session.registry.loadDeferredBuiltins();
    const unavailable = session.registry.explainMissingTool(toolName);
    if (!unavailable?.server) throw new UsageError(unknownToolMessage(session, toolName));
    io.stderr.write(
      `${io.style.red(`error [${ToolErrorType.MCP_TOOL_ERROR}]`)}: ${unavailable.message}\n`,
    );
    return ExitCode.ToolError;
  }
  const readsStdin = rawArgs === '-';
  const args = parseArguments(readsStdin ? await readAll(io.stdin) : rawArgs, tool.name);

  let needsConfirmation: WaitingToolCall | undefined;
  let askedAbout: WaitingToolCall | undefined;
  // Only asked when a call needs an answer: Node makes process.stdin on first use, at a cost.
  const canAsk = () => !readsStdin && Boolean(io.stdin.isTTY);
  const onConfirmationRequest = async (call: WaitingToolCall): Promise<ConfirmationDecision> => {
    const details = call.confirmationDetails;
    // The terminal prompts (readline, the browser opener) load only when someone is asked.
    const prompts = () => import('./confirm-prompt.js');
    // A server's question needs the person's own answers: without a terminal it is declined.
    if (details.type === 'elicitation')
      return canAsk()
        ? (await prompts()).askFormInTerminal(details, io.style, io.stdin, io.stderr)
        : { outcome: ToolConfirmationOutcome.Cancel };
    // A page a server wants the person to visit: never approved by --yes.
    if (details.type === 'elicitation_url')
      return canAsk()
        ? (await prompts()).askVisitInTerminal(details, io.style, io.stdin, io.stderr)
        : { outcome: ToolConfirmationOutcome.Cancel };
    if (options.yes) return { outcome: ToolConfirmationOutcome.ProceedOnce };
    if (canAsk()) {
      askedAbout = call;
      const [{ askInTerminal }, { saveTargets }] = await Promise.all([
        prompts(),
        import('../approval-choices.js'),
      ]);
      // One call is the whole session: only "always" answers saved as rules outlive it.
      const decision = await askInTerminal(call, io.style, io.stdin, io.stderr, {
        oneShot: true,
        saving: saveTargets(session.config),
      });
      if (decision.outcome === ToolConfirmationOutcome.Cancel) needsConfirmation = call;
      return decision;
    }
    needsConfirmation = call;
    return { outcome: ToolConfirmationOutcome.Cancel };
  };

  // What servers tell the person outside any question (a page visit declined or done).
  session.registry.onServerNotice((text) =>
    io.stderr.write(`toolhost: ${visibleText(text, { multiline: true })}\n`),
  );
  process.on('SIGINT', onInterrupt);
  const live = options.json ? undefined : liveOutputPrinter(io.stderr);
  let completed: CompletedToolCall | undefined;
  try {
    const scheduler = new CoreToolScheduler({
      config: session.config,
      toolRegistry: session.registry,
      onConfirmationRequest,
      outputUpdateHandler: live?.print,
    });
    [completed] = await scheduler.schedule(
      { callId: 'cli-call', name: tool.name, args },
      controller.signal,
    );
  } finally {
    process.off('SIGINT', onInterrupt);
  }
  if (!completed) throw new Error('the scheduler returned no result');

  const unanswered = needsConfirmation !== undefined && !canAsk();
  if (options.json) {
    io.stdout.write(`${JSON.stringify(toJson(tool.name, completed), null, 2)}\n`);
  } else if (needsConfirmation && canAsk()) {
    io.stderr.write(`toolhost: declined; ${tool.name} did not run.\n`);
  } else if (!unanswered) {
    writeHuman(completed, io, {
      // Both streams on one screen: what the live output showed need not be shown again.
      liveOutput: io.stdout.isTTY && io.stderr.isTTY ? live?.printed() : undefined,
      diffShown: askedAbout?.confirmationDetails.type === 'edit',
      attachments: await describeAttachments(completed),
    });
  }
  if (needsConfirmation) {
    if (unanswered) {
      io.stderr.write(
        `toolhost: ${tool.name} needs confirmation (${visibleText(needsConfirmation.confirmationDetails.title)}); nobody can be asked without a terminal. ${whatAllows(needsConfirmation)}\n`,
      );
    }
    return ExitCode.NeedsConfirmation;
  }
  if (completed.status === 'cancelled') return ExitCode.Interrupted;
  return completed.status === 'success' ? ExitCode.Success : ExitCode.ToolError;
}

/** The ways to let this particular call run without a terminal, and only those. */
function whatAllows(call: WaitingToolCall): string {
  const details = call.confirmationDetails;
  // No approval mode, allow rule or trusted server answers a question a rule forces.
  const forced = forcedQuestionReason(details);
  if (forced) return `${forced}. To answer it yes here, run it on a terminal or pass --yes.`;
  const ways = ['pass --yes'];
  for (const mode of approvalModesThatSkip(details.type)) ways.push(`--approval-mode ${mode}`);
  if (details.type === 'exec') {
    const prefixes = details.rootCommands.map((command) => `"run_shell_command(${command})"`);
    if (prefixes.length > 0) ways.push(`list ${prefixes.join(' and ')} in tools.allowed`);
  } else if (details.type === 'mcp') {
    ways.push(`set "trust": true for the server ${details.serverName} in mcpServers`);
  } else if (details.type !== 'plan') {
    ways.push(`list "${call.tool.name}" in tools.allowed`);
  }
  const last = ways.pop();
  const text = ways.length > 0 ? `${ways.join(', ')}, or ${last}` : (last ?? '');
  return `To allow it, ${text}.`;
}

/**
 * Live output arrives as everything so far; a person should see each part once, so only
 * what is new since the last update is printed.
 */
function liveOutputPrinter(stream: NodeJS.WritableStream) {
  let printed = '';
  return {
    print: (_callId: string, output: string) => {
      const fresh = output.startsWith(printed) ? output.slice(printed.length) : `\n${output}`;
      stream.write(visibleText(fresh, { multiline: true }));
      printed = output;
    },
    /** The latest live text, all of it on the screen (as it was shown). */
    printed: () => visibleText(printed, { multiline: true }),
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

interface Seen {
  /** The live output already on the screen. */
  liveOutput?: string;
  /** Whether the confirmation already showed the diff of this change. */
  diffShown?: boolean;
  /** A line for each attachment the model receives (describeAttachments). */
  attachments: string[];
}

function writeHuman(call: CompletedToolCall, io: CallIo, seen: Seen): void {
  if (call.response.error) {
    io.stderr.write(
      `${io.style.red(`error [${call.response.error.type}]`)}: ${visibleText(call.response.error.message, { multiline: true })}\n`,
    );
    return;
  }
  if (call.status === 'cancelled') {
    // The cancellation text is written for the model; the person knows they interrupted.
    io.stderr.write(`toolhost: cancelled; ${call.request.name} did not finish.\n`);
    return;
  }
  const result = call.response.resultDisplay;
  const display =
    seen.diffShown && result && typeof result === 'object' && 'fileDiff' in result
      ? renderFileDiff(result, io.style, { headerOnly: true })
      : renderDisplay(result, io.style);
  const rest = unseenRest(display, seen.liveOutput ?? '');
  if (rest) io.stdout.write(rest.endsWith('\n') ? rest : `${rest}\n`);
  const modelText = visibleText(
    [partsToText(call.response.llmContent), ...seen.attachments].filter(Boolean).join('\n'),
    { multiline: true },
  );
  if (call.status === 'success' && modelText && modelText !== display) {
    const alreadyShown = [seen.liveOutput ?? '', display].join('\n');
    const unseen = elideSeenLines(modelText, alreadyShown, (count) =>
      io.style.dim(`[${plural(count, 'line')} shown above]`),
    );
    const ending = unseen.endsWith('\n') ? '' : '\n';
    io.stdout.write(`${io.style.dim('── sent to the model ──')}\n${unseen}${ending}`);
  }
}

/**
 * One line per image, audio or PDF part the model receives, which text cannot show. The
 * file helpers (a barrel that loads YAML, diffs, listings) load only when there is one.
 */
async function describeAttachments(call: CompletedToolCall): Promise<string[]> {
  const media = toParts(call.response.llmContent).flatMap((part) =>
    part.inlineData?.data && part.inlineData.mimeType ? [part.inlineData] : [],
  );
  if (media.length === 0) return [];
  const { describeMedia } = await import('@toolhost/core/files');
  return media.map(({ data = '', mimeType = '' }) => {
    const size = Buffer.byteLength(data, 'base64');
    return `[attached: ${describeMedia(mimeType, size, data)}]`;
  });
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

function unknownToolMessage(session: WorkspaceTools, name: string): string {
  const registered = session.registry.getRegisteredTool(name);
  if (registered) {
    return `tool "${name}" is turned off by settings (tools.core / tools.exclude). Active tools: ${session.registry.getAllToolNames().join(', ')}.`;
  }
  const suggestions = closestNames(name, session.registry.getAllToolNames());
  const hint = suggestions.length
    ? `Did you mean ${suggestions.join(' or ')}?`
    : `Run "toolhost tools" to see the tools.`;
  const failedServers = session.registry.explainMissingTool(name)?.message;
  return `unknown tool "${name}". ${hint}${failedServers ? ` ${failedServers}` : ''}`;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}
