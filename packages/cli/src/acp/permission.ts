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
import type { ConfirmationDecision, WaitingToolCall } from '@toolhost/core/tools';
import { ToolConfirmationOutcome } from '@toolhost/core/tools';
import { type Choice, choicesFor, decisionFor, type SaveTargets } from '../approval-choices.js';
import { askEditorForm } from './elicitation.js';
import { confirmationContent, describeToolCall } from './tool-calls.js';

const KINDS: Partial<Record<ToolConfirmationOutcome, PermissionOptionKind>> = {
  [ToolConfirmationOutcome.ProceedOnce]: 'allow_once',
  [ToolConfirmationOutcome.ProceedAlways]: 'allow_always',
  [ToolConfirmationOutcome.ProceedAlwaysTool]: 'allow_always',
  [ToolConfirmationOutcome.ProceedAlwaysServer]: 'allow_always',
  [ToolConfirmationOutcome.Cancel]: 'reject_once',
};

/** The offered answers and their option ids (a saved rule's: `save-user`, `save-project`). */
function offered(call: WaitingToolCall, saving?: SaveTargets): Map<string, Choice> {
  const choices = new Map<string, Choice>();
  for (const choice of choicesFor(call, { saving })) {
    if (!KINDS[choice.outcome]) continue;
    choices.set(choice.save ? `save-${choice.save.scope}` : choice.outcome, choice);
  }
  return choices;
}

export function permissionOptions(call: WaitingToolCall, saving?: SaveTargets): PermissionOption[] {
  return [...offered(call, saving)].map(([optionId, choice]) => ({
    optionId,
    name: choice.label,
    kind: KINDS[choice.outcome]!,
  }));
}

export async function requestPermission(
  client: AgentContext,
  sessionId: string,
  call: WaitingToolCall,
  signal: AbortSignal,
  /** What the editor offered at `initialize` (elicitation forms). */
  editor: ClientCapabilities | undefined,
  warn: (line: string) => void,
  saving?: SaveTargets,
): Promise<ConfirmationDecision> {
  const details = call.confirmationDetails;
  if (details.type === 'elicitation') {
    return askEditorForm(client, sessionId, call, details, editor, signal, warn);
  }
  if (details.type === 'elicitation_url') return { outcome: ToolConfirmationOutcome.Cancel };
  const choices = offered(call, saving);
  const options = permissionOptions(call, saving);
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
  // An answer that was not offered is a no, never a guess at a yes.
  const picked = choices.get(response.outcome.optionId);
  if (!picked) return { outcome: ToolConfirmationOutcome.Cancel };
  return (await decisionFor(picked)).decision;
}
