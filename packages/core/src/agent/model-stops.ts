/**
 * How a run ends when the provider stops an answer on its own account (a refusal by the
 * model, a safety system stopping the answer or blocking the prompt) or the answer breaks
 * off: the words the person reads, and the checkpoint step the loop takes before a batch
 * (kept here so the loop's file stays about the loop). A stop is a result with its own
 * status (`refusal`, `safety`), never nudged and sent again.
 */
import type { ModelStop } from '../models/model-types.js';
import type { AgentEvent, AgentToolCall } from './agent-events.js';
import type { AgentLoopOptions } from './agent-loop-options.js';

/** What the person reads when the provider stopped the answer. */
export function stopMessage(stop: ModelStop, partial: boolean): string {
  const detail = stop.detail ? `: ${stop.detail}` : '';
  const cut = partial ? ' The answer above is partial: it stopped there.' : '';
  if (stop.kind === 'refusal')
    return `The model refused to answer (stop reason ${stop.reason}${detail}).${cut} Rephrase the request if it was meant otherwise.`;
  if (stop.promptBlocked)
    return `The provider's safety system blocked the prompt (${stop.reason}${detail}). It was left out of the conversation and not sent again; rephrase it.`;
  return `The provider's safety system stopped the answer (${stop.reason}${detail}).${cut}`;
}

/** A failure's message, saying so when the text printed with it is an answer that broke off. */
export function brokenOffMessage(message: string, partial: string): string {
  return partial ? `${message} The answer above broke off there.` : message;
}

/**
 * Snapshots the files before a batch that may change them. Returns why the batch must
 * not run (the checkpoint failed and settings say stop), else undefined.
 */
export async function checkpointBatch(
  options: AgentLoopOptions,
  calls: AgentToolCall[],
  /** The index of the model turn with these calls: the checkpoint comes before it. */
  turnIndex: number,
  signal: AbortSignal,
  emit: (event: AgentEvent) => void,
): Promise<string | undefined> {
  const hook = options.checkpoints;
  if (!hook) return undefined;
  const outcome = await hook.beforeBatch(calls, turnIndex, signal);
  if (outcome.kind === 'taken') {
    options.recorder?.recordCheckpoint?.(outcome.checkpoint.id);
    emit({ type: 'checkpoint', checkpoint: outcome.checkpoint });
    if (outcome.skipped.length > 0) {
      emit({
        type: 'notice',
        level: 'warning',
        message: `Checkpoint ${outcome.checkpoint.id} leaves out (a restore cannot bring them back): ${outcome.skipped.join(', ')}`,
      });
    }
  } else if (outcome.kind === 'failed') {
    emit({ type: 'notice', level: 'warning', message: outcome.message });
    if (!outcome.runBatch) return outcome.message;
  }
  return undefined;
}
