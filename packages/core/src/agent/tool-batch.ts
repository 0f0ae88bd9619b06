/**
 * One model turn's tool calls, taken through the scheduler as one batch: arguments that
 * are not a JSON object, and calls past the tool-call budget, are answered with an error
 * without running; everything else goes through CoreToolScheduler (lookup, validation,
 * approval, execution). Returns the results in the model's order, with the response
 * parts the model receives.
 */
import type { Part } from '../contract/content.js';
import { partsToText } from '../contract/content.js';
import type { ModelToolCall } from '../models/model-types.js';
import type { CoreToolScheduler } from '../scheduler/core-tool-scheduler.js';
import { createErrorResponse } from '../scheduler/function-response.js';
import { ToolErrorType } from '../tools/tools.js';
import type { AgentToolCall, AgentToolResult, PermissionDenial } from './agent-events.js';

export interface BatchOutcome {
  results: AgentToolResult[];
  /** Every response part, in the model's order (functionResponse, then its media). */
  responseParts: Part[];
  /** Calls that went to the scheduler (the ones that count against the budget). */
  executed: number;
  denials: PermissionDenial[];
}

const MAX_ECHOED_ARGUMENTS = 2000;

/**
 * Parses the raw arguments of each call (the unparseable keep their text for the error)
 * and names each call as the registry does. `finishReason` `length` marks the
 * unparseable as cut off by the output limit.
 */
export function parseToolCalls(
  calls: ModelToolCall[],
  toToolName: (calledName: string) => string = (name) => name,
  finishReason?: string,
): AgentToolCall[] {
  return calls.map((sent) => {
    const call = { ...sent, name: toToolName(sent.name) };
    const raw = call.arguments.trim();
    if (raw === '') return { id: call.id, name: call.name, args: {} };
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        return { id: call.id, name: call.name, args: parsed as Record<string, unknown> };
      }
    } catch {
      // answered below as malformed
    }
    return {
      id: call.id,
      name: call.name,
      args: {},
      malformedArguments: call.arguments,
      ...(finishReason === 'length' ? { cutOff: true } : {}),
    };
  });
}

export async function runToolBatch(
  scheduler: CoreToolScheduler,
  calls: AgentToolCall[],
  budget: number,
  signal: AbortSignal,
): Promise<BatchOutcome> {
  const outcomes = new Map<string, { result: AgentToolResult; parts: Part[] }>();
  const runnable: AgentToolCall[] = [];
  for (const call of calls) {
    if (call.malformedArguments !== undefined) {
      outcomes.set(
        call.id,
        refused(
          call,
          ToolErrorType.INVALID_TOOL_PARAMS,
          malformedMessage(call, call.malformedArguments),
        ),
      );
    } else if (runnable.length >= budget) {
      outcomes.set(
        call.id,
        refused(
          call,
          ToolErrorType.EXECUTION_DENIED,
          'Not run: the tool-call budget of this session is spent.',
        ),
      );
    } else {
      runnable.push(call);
    }
  }
  const denials: PermissionDenial[] = [];
  if (runnable.length > 0) {
    const completed = await scheduler.schedule(
      runnable.map((call) => ({ callId: call.id, name: call.name, args: call.args })),
      signal,
    );
    for (const done of completed) {
      const call = runnable.find((c) => c.id === done.request.callId);
      if (!call) continue;
      const errorType = done.response.error?.type;
      if (errorType === ToolErrorType.EXECUTION_DENIED) {
        denials.push({ toolName: call.name, toolUseId: call.id, toolInput: call.args });
      }
      outcomes.set(call.id, {
        parts: done.response.responseParts,
        result: {
          callId: call.id,
          name: call.name,
          args: call.args,
          status: done.status,
          content: responseText(done.response.responseParts),
          display: done.response.resultDisplay,
          ...(errorType ? { errorType } : {}),
        },
      });
    }
  }
  const ordered = calls.map((call) => outcomes.get(call.id)).filter((o) => o !== undefined);
  return {
    results: ordered.map((o) => o.result),
    responseParts: ordered.flatMap((o) => o.parts),
    executed: runnable.length,
    denials,
  };
}

/** What the model reads for a call whose arguments could not be parsed: why, and what it sent. */
function malformedMessage(call: AgentToolCall, sent: string): string {
  const shown = sent.slice(0, MAX_ECHOED_ARGUMENTS);
  const echoed = `You sent: ${shown}${sent.length > shown.length ? ' [cut]' : ''}`;
  if (call.cutOff) {
    return `Your answer reached the output token limit while writing the arguments of this ${call.name} call, so they are incomplete and it was not run (the conversation records it with empty arguments). ${echoed}\nSend the call again complete; if its content is long, split the work into smaller calls (for example write part of a file, then add the rest with edit).`;
  }
  return `The arguments of this ${call.name} call are not a valid JSON object, so it was not run (the conversation records it with empty arguments). ${echoed}\nSend the call again with the arguments as one JSON object.`;
}

function refused(call: AgentToolCall, type: ToolErrorType, message: string) {
  return {
    parts: createErrorResponse(call.name, call.id, message),
    result: {
      callId: call.id,
      name: call.name,
      args: call.args,
      status: 'error' as const,
      content: `Error: ${message}`,
      display: message,
      errorType: type,
    },
  };
}

/** The text of a call's responses, as the model reads it. */
function responseText(parts: Part[]): string {
  const texts: string[] = [];
  for (const part of parts) {
    const response = part.functionResponse?.response;
    if (response) {
      const value = response.output ?? response.error;
      texts.push(
        typeof value === 'string'
          ? response.error !== undefined
            ? `Error: ${value}`
            : value
          : JSON.stringify(response),
      );
    } else if (part.text) texts.push(partsToText(part));
    else if (part.inlineData) texts.push(`[${part.inlineData.mimeType ?? 'binary'} attachment]`);
  }
  return texts.join('\n');
}
