/** What a call is before the scheduler runs it: its request, its cleaned parameters, and whether it has ended. */
import { randomUUID } from 'node:crypto';
import type { AnyTool } from '../tools/tools.js';
import { dropNullOptionals } from '../utils/json-schema.js';
import type {
  CompletedToolCall,
  ScheduleInput,
  ToolCall,
  ToolCallRequestInfo,
} from './tool-call-types.js';

export function isCompleted(call: ToolCall): call is CompletedToolCall {
  return call.status === 'success' || call.status === 'error' || call.status === 'cancelled';
}

export function toRequest(input: ScheduleInput): ToolCallRequestInfo {
  if ('callId' in input && typeof input.callId === 'string') return input as ToolCallRequestInfo;
  const call = input as { id?: string; name?: string; args?: Record<string, unknown> };
  return {
    callId: call.id ?? `call-${randomUUID()}`,
    name: call.name ?? '',
    args: call.args ?? {},
  };
}

/** The tool's own aliases resolved, and (for strict function calling) null optionals dropped. */
export function callParams(
  tool: AnyTool,
  args: Record<string, unknown> | undefined,
): Record<string, unknown> {
  return dropNullOptionals(tool.normalizeParams(args ?? {}), tool.parameterSchema) as Record<
    string,
    unknown
  >;
}

/** Resolves with the promise's value, or undefined as soon as the signal aborts. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
