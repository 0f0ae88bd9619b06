/**
 * The real scheduler with a scripted person: every question is recorded and answered
 * (proceed once unless the test says otherwise), so tests can run real tools through the
 * whole flow of validation, confirmation and execution.
 */
import type { Config } from '../../src/config/config.js';
import {
  CoreToolScheduler,
  type CoreToolSchedulerOptions,
} from '../../src/scheduler/core-tool-scheduler.js';
import type { CompletedToolCall } from '../../src/scheduler/tool-call-types.js';
import { createToolRegistry } from '../../src/tools/builtin.js';
import type { ToolRegistry } from '../../src/tools/tool-registry.js';
import {
  type ToolCallConfirmationDetails,
  ToolConfirmationOutcome,
} from '../../src/tools/tools.js';

export type ScriptedAnswer =
  | ToolConfirmationOutcome
  | ((details: ToolCallConfirmationDetails) => ToolConfirmationOutcome);

export interface ScriptedScheduler {
  scheduler: CoreToolScheduler;
  /** What the person was asked, in order. */
  asked: ToolCallConfirmationDetails[];
  /** Schedules one call (callId = its name unless given) and waits until it has finished. */
  call(
    name: string,
    args: Record<string, unknown>,
    options?: { signal?: AbortSignal; callId?: string },
  ): Promise<CompletedToolCall>;
}

export function scriptedScheduler(
  config: Config,
  options: {
    /** Default: the built-in tools with an empty environment for commands. */
    registry?: ToolRegistry;
    /** Default: proceed once. `null`: no one to ask, so calls that need approval are refused. */
    answer?: ScriptedAnswer | null;
  } & Pick<CoreToolSchedulerOptions, 'editProposal' | 'outputUpdateHandler'> = {},
): ScriptedScheduler {
  const asked: ToolCallConfirmationDetails[] = [];
  const answer =
    options.answer === undefined ? ToolConfirmationOutcome.ProceedOnce : options.answer;
  const scheduler = new CoreToolScheduler({
    config,
    toolRegistry: options.registry ?? createToolRegistry(config, { env: {} }),
    editProposal: options.editProposal,
    outputUpdateHandler: options.outputUpdateHandler,
    ...(answer === null
      ? {}
      : {
          onConfirmationRequest: async (waiting) => {
            const details = waiting.confirmationDetails;
            asked.push(details);
            return { outcome: typeof answer === 'function' ? answer(details) : answer };
          },
        }),
  });
  return {
    scheduler,
    asked,
    call: async (name, args, callOptions = {}) => {
      const [done] = await scheduler.schedule(
        { callId: callOptions.callId ?? name, name, args },
        callOptions.signal ?? new AbortController().signal,
      );
      if (!done) throw new Error(`the scheduler returned nothing for ${name}`);
      return done;
    },
  };
}

/** The `output` a finished call sent back to the model, as text. */
export function outputOf(done: CompletedToolCall): string {
  return String(done.response.responseParts[0]?.functionResponse?.response?.output ?? '');
}
