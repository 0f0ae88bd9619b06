/**
 * The questions toolhost asks the host of a stream-json session, as `control_request`
 * lines on stdout answered by `control_response` lines on stdin: whether a call may run
 * (`can_use_tool`, answered with `behavior` allow or deny, a deny with `interrupt` ending the
 * turn). Without an answer (the turn cancelled, stdin ended, an error answer) the call does
 * not run.
 */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { ConfirmationDecision, WaitingToolCall } from '@toolhost/core/tools';
import { ToolConfirmationOutcome } from '@toolhost/core/tools';

type Answer = { response: Record<string, unknown> | undefined; error?: string };

export class HostQuestions {
  private readonly pending = new Map<string, (answer: Answer) => void>();
  private ended = false;

  constructor(
    private readonly write: (line: unknown) => void,
    private readonly warn: (line: string) => void,
    /** A deny with `interrupt: true` (the Claude Agent SDK's) stops the whole turn. */
    private readonly interruptTurn: () => void,
  ) {}

  /** `can_use_tool` for a call that needs approval. */
  async canUseTool(call: WaitingToolCall, signal: AbortSignal): Promise<ConfirmationDecision> {
    const input = call.params ?? call.request.args;
    const answer = await this.ask(
      {
        subtype: 'can_use_tool',
        tool_name: call.request.name,
        tool_use_id: call.request.callId,
        input,
        permission_suggestions: null,
        blocked_path: null,
      },
      signal,
    );
    if (!answer) return { outcome: ToolConfirmationOutcome.Cancel };
    if (!answer.response) {
      return {
        outcome: ToolConfirmationOutcome.Cancel,
        ...(answer.error ? { message: answer.error } : {}),
      };
    }
    const { behavior, message, updatedInput, interrupt } = answer.response;
    if (behavior !== 'allow') {
      if (interrupt === true) this.interruptTurn();
      return {
        outcome: ToolConfirmationOutcome.Cancel,
        ...(typeof message === 'string' && message ? { message } : {}),
      };
    }
    if (updatedInput !== undefined && !isDeepStrictEqual(updatedInput, input)) {
      // The call was checked, described and approved as the model sent it: a changed
      // input would run what nobody checked, so it does not run at all.
      this.warn(
        `the host allowed ${call.request.name} with a changed input; toolhost runs calls only as the model sent them, so it was not run.`,
      );
      return {
        outcome: ToolConfirmationOutcome.Cancel,
        message:
          'the host would allow it only with a different input; make the call again with the input it needs.',
      };
    }
    return { outcome: ToolConfirmationOutcome.ProceedOnce };
  }

  /** A `control_response` line: the answer to one of the questions. */
  answered(requestId: string, answer: Answer): void {
    const resolve = this.pending.get(requestId);
    if (!resolve) {
      this.warn(`a control_response answers request_id "${requestId}", which is not waiting.`);
      return;
    }
    resolve(answer);
  }

  /** Stdin ended: nobody can answer any more, so every open question is a no. */
  end(): void {
    this.ended = true;
    for (const resolve of this.pending.values()) resolve({ response: undefined });
  }

  private ask(request: Record<string, unknown>, signal: AbortSignal): Promise<Answer | undefined> {
    if (this.ended || signal.aborted) return Promise.resolve(undefined);
    const requestId = randomUUID();
    return new Promise((resolve) => {
      const done = (answer: Answer | undefined) => {
        this.pending.delete(requestId);
        signal.removeEventListener('abort', onAbort);
        resolve(answer);
      };
      const onAbort = () => {
        // The host may still be showing the question: tell it the question is gone.
        this.write({ type: 'control_cancel_request', request_id: requestId });
        done(undefined);
      };
      this.pending.set(requestId, done);
      signal.addEventListener('abort', onAbort, { once: true });
      this.write({ type: 'control_request', request_id: requestId, request });
    });
  }
}
