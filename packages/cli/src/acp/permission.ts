/**
 * Asks the editor whether a call may run (`session/request_permission`), with the answers
 * the terminal offers for the same call, and turns the picked option back into the
 * scheduler's outcome. Nothing the editor cannot show is offered (changing a proposal in
 * an external editor). Questions of MCP servers (elicitation) go to elicitation.ts.
 */
import type {
  AgentContext,
  ClientCapabilities,
  PermissionOption,
  PermissionOptionKind,
  RequestPermissionResponse,
} from '@agentclientprotocol/sdk';
import type {
  ConfirmationDecision,
  WaitingToolCall,
} from '@toolhost/core/internal/core/tool-call-types.js';
import { ToolConfirmationOutcome } from '@toolhost/core/internal/tools/tools.js';
import { choicesFor } from '../confirm-prompt.js';
import { askEditorForm } from './elicitation.js';
import { confirmationContent, describeToolCall } from './tool-calls.js';

const KINDS: Partial<Record<ToolConfirmationOutcome, PermissionOptionKind>> = {
  [ToolConfirmationOutcome.ProceedOnce]: 'allow_once',
  [ToolConfirmationOutcome.ProceedAlways]: 'allow_always',
  [ToolConfirmationOutcome.ProceedAlwaysTool]: 'allow_always',
  [ToolConfirmationOutcome.ProceedAlwaysServer]: 'allow_always',
  [ToolConfirmationOutcome.Cancel]: 'reject_once',
};

export function permissionOptions(call: WaitingToolCall): PermissionOption[] {
  return choicesFor(call).flatMap((choice) => {
    const kind = KINDS[choice.outcome];
    return kind ? [{ optionId: choice.outcome, name: choice.label, kind }] : [];
  });
}

export async function requestPermission(
  client: AgentContext,
  sessionId: string,
  call: WaitingToolCall,
  signal: AbortSignal,
  /** What the editor offered at `initialize` (elicitation forms). */
  editor: ClientCapabilities | undefined,
  warn: (line: string) => void,
): Promise<ConfirmationDecision> {
  const details = call.confirmationDetails;
  if (details.type === 'elicitation') {
    return askEditorForm(client, sessionId, call, details, editor, signal, warn);
  }
  if (details.type === 'elicitation_url') return { outcome: ToolConfirmationOutcome.Cancel };
  const options = permissionOptions(call);
  let response: RequestPermissionResponse;
  try {
    response = await client.request(
      'session/request_permission',
      {
        sessionId,
        toolCall: { ...describeToolCall(call), content: confirmationContent(details) },
        options,
      },
      { cancellationSignal: signal, stopWaitingOnCancel: true },
    );
  } catch {
    // Cancelled, or the editor could not ask: without a yes, the call does not run.
    return { outcome: ToolConfirmationOutcome.Cancel };
  }
  if (response.outcome.outcome !== 'selected') return { outcome: ToolConfirmationOutcome.Cancel };
  const picked = response.outcome.optionId;
  const offered = options.find((option) => option.optionId === picked);
  // An answer that was not offered is a no, never a guess at a yes.
  return {
    outcome: offered ? (picked as ToolConfirmationOutcome) : ToolConfirmationOutcome.Cancel,
  };
}
