/**
 * One batch's checkpoint, taken just before the first of its calls that actually runs and
 * may change files (the scheduler asks once a call is approved): a call a deny rule
 * refuses, a question answered no or a cancel before anything ran leaves no checkpoint
 * behind, so `toolhost restore` lists only points before real changes. When the
 * checkpoint fails and settings say stop, that call and every later changing call of the
 * batch are refused with the reason, and the run ends as an error.
 */
import type { ToolCallRequestInfo } from '../../scheduler/tool-call-types.js';
import type { AgentEvent, AgentToolCall } from '../agent-events.js';
import type { AgentLoopOptions } from '../agent-loop-options.js';
import { checkpointBatch } from '../model-stops.js';
import { changingCalls } from './batch-changes.js';

export class BatchCheckpointGate {
  /** Why the batch's changing calls were refused (the checkpoint failed), if they were. */
  refusal: string | undefined;
  private taken: Promise<string | undefined> | undefined;

  constructor(
    private readonly calls: readonly AgentToolCall[],
    /** Messages before the model turn with these calls. */
    private readonly messageIndex: number,
    private readonly options: AgentLoopOptions,
    private readonly emit: (event: AgentEvent) => void,
  ) {}

  /** Undefined when the call may run; else why it must not. */
  async beforeCall(request: ToolCallRequestInfo, signal: AbortSignal): Promise<string | undefined> {
    const hook = this.options.checkpoints;
    if (!hook) return undefined;
    const call = { id: request.callId, name: request.name, args: request.args };
    if (this.taken === undefined) {
      const changes = await changingCalls([call], this.options.registry, this.options.config);
      if (changes.length === 0) return undefined;
      // Checked again: a read-only call ahead of it may have started the checkpoint meanwhile.
      this.taken ??= this.take(call.id, signal);
    } else if (
      (await changingCalls([call], this.options.registry, this.options.config)).length === 0
    ) {
      return undefined;
    }
    return this.taken;
  }

  private async take(firstId: string, signal: AbortSignal): Promise<string | undefined> {
    // The calls from this one on: the ones before it ran without changing anything.
    const from = Math.max(
      0,
      this.calls.findIndex((call) => call.id === firstId),
    );
    const refusal = await checkpointBatch(
      this.options,
      this.calls.slice(from),
      this.messageIndex,
      signal,
      this.emit,
    );
    this.refusal = refusal;
    return refusal;
  }
}
