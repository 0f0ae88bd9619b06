/**
 * CoreToolScheduler: takes a model's function calls through lookup, validation, the
 * person's approval and execution, and returns exactly one response per call.
 *
 * Ordering: calls are taken in the model's order. Read-only kinds (and tools that say they
 * run in parallel, like `task`) start as soon as they are approved and overlap each other;
 * a changing call waits for everything before it, then runs alone, so it sees the effects
 * of earlier calls and its diff is accurate.
 * A `schedule` while another batch is running waits for it.
 */
import type { Config } from '../config/config.js';
import { partsToText } from '../contract/content.js';
import { afterToolCall, type BeforeToolCall, beforeToolCall } from '../hooks/tool-call-hooks.js';
import {
  cannotAskMessage,
  PLAN_MODE_MESSAGE,
  refusedByPlanMode,
  ruleGate,
} from '../permissions/approval-rules.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import {
  type AnyTool,
  isReadOnlyKind,
  type ToolCallConfirmationDetails,
  ToolConfirmationOutcome,
  ToolErrorType,
  type ToolExecutionContext,
  type ToolResult,
} from '../tools/tools.js';
import { callNeedsApproval, questionFor } from './approval-question.js';
import { lockKeys } from './call-locks.js';
import { callParams, isCompleted, raceAbort, toRequest } from './call-requests.js';
import { modifyInEditor, withModifiedContent } from './proposal-edits.js';
import type { CoreToolSchedulerOptions } from './scheduler-options.js';
import type {
  CompletedToolCall,
  ConfirmationDecision,
  ScheduleInput,
  ToolCall,
  ToolCallRequestInfo,
  WaitingToolCall,
} from './tool-call-types.js';
import { cancelledResponse, errorResponse, resultResponse } from './tool-responses.js';

export { approvalModesThatSkip } from '../permissions/approval-rules.js';
export type { CoreToolSchedulerOptions } from './scheduler-options.js';

type HookVerdict = Extract<BeforeToolCall, { kind: 'run' }>;

export class CoreToolScheduler {
  private readonly config: Config;
  private readonly registry: ToolRegistry;
  private readonly options: CoreToolSchedulerOptions;
  private calls: ToolCall[] = [];
  /** Indexes (in the current batch) of calls whose proposal the person changed. */
  private readonly modified = new Set<number>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(options: CoreToolSchedulerOptions) {
    this.options = options;
    this.config = options.config;
    this.registry = options.toolRegistry;
  }

  /** True while a batch is being processed. */
  get isRunning(): boolean {
    return this.calls.some((call) => !isCompleted(call));
  }

  /**
   * Runs a batch of calls and resolves with every call in its final state, in the order
   * given. Never rejects for a tool's failure: failures are responses.
   */
  schedule(
    input: ScheduleInput | ScheduleInput[],
    signal: AbortSignal,
  ): Promise<CompletedToolCall[]> {
    const requests = (Array.isArray(input) ? input : [input]).map(toRequest);
    const run = this.queue.then(() => this.runBatch(requests, signal));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async runBatch(
    requests: ToolCallRequestInfo[],
    signal: AbortSignal,
  ): Promise<CompletedToolCall[]> {
    const now = Date.now();
    this.modified.clear();
    this.calls = requests.map((request) => ({ request, status: 'validating', startTime: now }));
    this.notify();
    const running: Promise<void>[] = [];
    for (let index = 0; index < this.calls.length; index++) {
      const call = this.calls[index]!;
      const tool = await this.prepare(index, call, signal);
      if (!tool) continue;
      if (!tool.runsInParallel) await Promise.all(running);
      const work = this.approveAndExecute(index, tool, signal);
      if (tool.runsInParallel) running.push(work);
      else await work;
    }
    await Promise.all(running);
    const completed = this.calls.filter(isCompleted);
    await this.options.onAllToolCallsComplete?.(completed);
    return completed;
  }

  /** Looks up and validates one call; returns its tool, or ends the call with an error. */
  private async prepare(
    index: number,
    call: ToolCall,
    signal: AbortSignal,
  ): Promise<AnyTool | undefined> {
    const { name, args } = call.request;
    // A tool of an MCP server that is still starting is worth waiting for.
    const tool = this.registry.getTool(name) ?? (await this.registry.waitForTool(name, signal));
    if (!tool) {
      if (signal.aborted) {
        this.finishCancelled(index, 'The call was cancelled before it started.');
        return undefined;
      }
      const unavailable = this.registry.explainMissingTool(name);
      this.finishWithError(
        index,
        unavailable?.server ? ToolErrorType.MCP_TOOL_ERROR : ToolErrorType.TOOL_NOT_REGISTERED,
        unavailable?.server ? unavailable.message : this.registry.unknownToolMessage(name),
      );
      return undefined;
    }
    const params = callParams(tool, args);
    this.update(index, { status: 'validating', tool, params });
    const problem = tool.validateToolParams(params);
    if (problem) {
      this.finishWithError(
        index,
        ToolErrorType.INVALID_TOOL_PARAMS,
        `Invalid parameters for ${tool.name}: ${problem}`,
      );
      return undefined;
    }
    if (refusedByPlanMode(this.config, tool)) {
      this.finishWithError(index, ToolErrorType.EXECUTION_DENIED, PLAN_MODE_MESSAGE);
      return undefined;
    }
    this.update(index, { status: 'scheduled', tool, params });
    return tool;
  }

  private async approveAndExecute(
    index: number,
    tool: AnyTool,
    signal: AbortSignal,
  ): Promise<void> {
    try {
      const hooked = await this.beforeHooks(index, tool, signal);
      if (!hooked) return;
      if (!(await this.approve(index, tool, signal, hooked))) return;
      const refusal = await this.options.beforeExecute?.(this.calls[index]!.request, signal);
      if (signal.aborted)
        return this.finishCancelled(index, 'The call was cancelled before it started.');
      if (refusal) return this.finishWithError(index, ToolErrorType.EXECUTION_FAILED, refusal);
      await this.execute(index, tool, signal, hooked.context);
    } catch (error) {
      // Anything a tool throws ends here, once, as an execution failure.
      const message = error instanceof Error ? error.message : String(error);
      this.finishWithError(
        index,
        ToolErrorType.EXECUTION_FAILED,
        `${tool.name} failed unexpectedly: ${message}`,
      );
    }
  }

  /** PreToolUse: blocks the call (finished here) or says how approval goes on. */
  private async beforeHooks(
    index: number,
    tool: AnyTool,
    signal: AbortSignal,
  ): Promise<HookVerdict | undefined> {
    const hooks = this.options.hooks;
    if (!hooks) return { kind: 'run' };
    const { callId } = this.calls[index]!.request;
    const params = this.paramsOf(index);
    const verdict = await beforeToolCall(hooks, { callId, tool, params }, signal);
    if (verdict.kind === 'deny') {
      this.finishWithError(index, ToolErrorType.EXECUTION_DENIED, verdict.message);
      return undefined;
    }
    if (verdict.params) this.update(index, { params: verdict.params });
    return verdict;
  }

  /** True when the call may run (a hook's ask or allow: questionFor); else it is finished. */
  private async approve(
    index: number,
    tool: AnyTool,
    signal: AbortSignal,
    hook: HookVerdict,
  ): Promise<boolean> {
    if (signal.aborted) {
      this.finishCancelled(index, 'The call was cancelled before it started.');
      return false;
    }
    const gate = ruleGate(this.config, tool, this.paramsOf(index));
    if (gate.refused) return this.refuse(index, gate.refused);
    if (gate.allowed && hook.permission !== 'ask') return true;
    for (;;) {
      const params = this.paramsOf(index);
      const own = await tool.shouldConfirmExecute(params, signal);
      if (signal.aborted) {
        this.finishCancelled(index, 'The call was cancelled before it started.');
        return false;
      }
      const details = questionFor(this.config, tool, params, own, gate, hook);
      if (!details) return true;

      const ask = this.options.onConfirmationRequest;
      if (!ask) return this.refuse(index, cannotAskMessage(tool, details));
      this.update(index, { status: 'awaiting_approval', tool, confirmationDetails: details });
      const decision = await raceAbort(ask(this.calls[index] as WaitingToolCall), signal);
      if (!decision) {
        this.finishCancelled(index, 'The call was cancelled while waiting for approval.');
        return false;
      }
      this.update(index, { outcome: decision.outcome });
      await details.onConfirm(decision.outcome, decision.payload);

      switch (decision.outcome) {
        case ToolConfirmationOutcome.Cancel:
          this.finishCancelled(
            index,
            decision.message
              ? `The person declined this call: ${decision.message}`
              : (details.declineMessage ??
                  'The person declined this call. Ask them how to proceed or try another approach.'),
          );
          return false;
        case ToolConfirmationOutcome.ModifyWithEditor:
          this.modify(
            index,
            await modifyInEditor(
              tool,
              this.paramsOf(index),
              signal,
              this.options.editProposal,
              this.config.settings.general?.preferredEditor,
            ),
          );
          continue; // ask again, showing the modified proposal
        case ToolConfirmationOutcome.ProceedAlways:
          if (details.rememberAlways !== 'tool-handles')
            this.config.sessionAllowedTools.add(tool.name);
          break;
        default:
          break;
      }
      if (decision.payload?.newContent !== undefined) {
        const { newContent } = decision.payload;
        this.modify(
          index,
          await withModifiedContent(tool, this.paramsOf(index), signal, newContent),
        );
      }
      return true;
    }
  }

  /** Whether running this call would ask the person (approval-question.ts), without running it. */
  needsApproval(input: ScheduleInput, signal: AbortSignal): Promise<boolean> {
    return callNeedsApproval(this.config, this.registry, input, signal);
  }

  /** Records the person's version of the call's parameters, when they changed them. */
  private modify(index: number, params: Record<string, unknown> | undefined): void {
    if (params) this.update(index, { params, modified: true });
  }

  private async execute(
    index: number,
    tool: AnyTool,
    signal: AbortSignal,
    hookContext?: string,
  ): Promise<void> {
    const params = this.paramsOf(index);
    const problem = this.modified.has(index) ? tool.validateToolParams(params) : null;
    if (problem) {
      this.finishWithError(
        index,
        ToolErrorType.INVALID_TOOL_PARAMS,
        `The modified call is invalid: ${problem}`,
      );
      return;
    }
    this.update(index, { status: 'executing', tool });
    const { callId } = this.calls[index]!.request;
    const updateOutput = tool.canUpdateOutput
      ? (output: string) => {
          this.update(index, { liveOutput: output });
          this.options.outputUpdateHandler?.(callId, output);
        }
      : undefined;
    const context: ToolExecutionContext = {
      callId,
      ask: (details) => this.askWhileRunning(index, tool, details, signal),
    };
    const run = () => tool.execute(params, signal, updateOutput, context);
    const result: ToolResult = isReadOnlyKind(tool.kind)
      ? await run()
      : await this.config.fileLocks.runExclusive(lockKeys(this.config, tool, params), run);

    if (signal.aborted) {
      const partial = partsToText(result.llmContent);
      const note = 'The call was cancelled while it was running.';
      this.finishCancelled(
        index,
        partial ? `${note} Output until then:\n${partial}` : note,
        result,
      );
      return;
    }
    const { hooks } = this.options;
    const info = { callId, tool, params };
    const final = hooks ? await afterToolCall(hooks, info, result, hookContext, signal) : result;
    await this.finishWithResult(index, tool, final);
  }

  /** A question during execution: the call waits for the person, then runs on. */
  private async askWhileRunning(
    index: number,
    tool: AnyTool,
    details: ToolCallConfirmationDetails,
    signal: AbortSignal,
  ): Promise<ConfirmationDecision> {
    const ask = this.options.onConfirmationRequest;
    if (!ask || signal.aborted) return { outcome: ToolConfirmationOutcome.Cancel };
    this.update(index, { status: 'awaiting_approval', tool, confirmationDetails: details });
    try {
      const decision = await raceAbort(ask(this.calls[index] as WaitingToolCall), signal);
      return decision ?? { outcome: ToolConfirmationOutcome.Cancel };
    } finally {
      this.update(index, { status: 'executing', tool });
    }
  }

  private async finishWithResult(index: number, tool: AnyTool, result: ToolResult): Promise<void> {
    const call = this.calls[index]!;
    const response = await resultResponse(
      this.config,
      tool.name,
      call.request.callId,
      result,
      this.modified.has(index),
    );
    this.update(index, {
      status: result.error ? 'error' : 'success',
      response,
      durationMs: Date.now() - call.startTime,
    });
  }

  private finishWithError(index: number, type: ToolErrorType, message: string): void {
    const call = this.calls[index]!;
    this.update(index, {
      status: 'error',
      response: errorResponse(call.request, type, message),
      durationMs: Date.now() - call.startTime,
    });
  }

  /** Ends a call the rules or the session refuse; false, for `approve`. */
  private refuse(index: number, message: string): false {
    this.finishWithError(index, ToolErrorType.EXECUTION_DENIED, message);
    return false;
  }

  private finishCancelled(index: number, message: string, result?: ToolResult): void {
    const call = this.calls[index]!;
    this.update(index, {
      status: 'cancelled',
      response: cancelledResponse(call.request, message, result),
      durationMs: Date.now() - call.startTime,
    });
  }

  private paramsOf(index: number): Record<string, unknown> {
    return this.calls[index]!.params ?? {};
  }

  private update(index: number, changes: Partial<ToolCall> & { modified?: boolean }): void {
    const { modified, ...rest } = changes;
    if (modified) this.modified.add(index);
    this.calls[index] = { ...this.calls[index]!, ...rest } as ToolCall;
    this.notify();
  }

  private notify(): void {
    this.options.onToolCallsUpdate?.([...this.calls]);
  }
}
