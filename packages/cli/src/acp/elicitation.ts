/**
 * A question an MCP server asks while its tool runs (MCP elicitation, form mode), passed to
 * the editor as ACP's `elicitation/create` when the editor offers form elicitation at
 * `initialize`; the editor's answer goes back to the server. An editor that does not offer
 * it cannot show the question, so it is declined and the editor's log says which server
 * asked what. URL questions are never put to the servers in an ACP session (toolhost does not
 * announce that it can take them), so none arrive here.
 */
import type {
  AgentContext,
  ClientCapabilities,
  CreateElicitationResponse,
  ElicitationSchema,
} from '@agentclientprotocol/sdk';
import type { ConfirmationDecision, WaitingToolCall } from '@toolhost/core/tools';
import {
  ToolConfirmationOutcome,
  type ToolElicitationConfirmationDetails,
} from '@toolhost/core/tools';

export async function askEditorForm(
  client: AgentContext,
  sessionId: string,
  call: WaitingToolCall,
  details: ToolElicitationConfirmationDetails,
  editor: ClientCapabilities | undefined,
  signal: AbortSignal,
  warn: (line: string) => void,
): Promise<ConfirmationDecision> {
  if (!editor?.elicitation?.form) {
    warn(
      `the MCP server ${details.serverName} asked a question ("${details.message}") that this editor cannot show (it offers no ACP elicitation); it was declined.`,
    );
    return { outcome: ToolConfirmationOutcome.Cancel };
  }
  let answer: CreateElicitationResponse;
  try {
    answer = await client.request(
      'elicitation/create',
      {
        sessionId,
        toolCallId: call.request.callId,
        mode: 'form',
        message: details.message,
        requestedSchema: details.requestedSchema as ElicitationSchema,
      },
      { cancellationSignal: signal, stopWaitingOnCancel: true },
    );
  } catch (error) {
    warn(
      `the editor could not ask ${details.serverName}'s question: ${error instanceof Error ? error.message : String(error)}; it was declined.`,
    );
    return { outcome: ToolConfirmationOutcome.Cancel };
  }
  if (answer.action === 'accept') {
    const content = (answer as { content?: Record<string, unknown> | null }).content ?? {};
    return { outcome: ToolConfirmationOutcome.ProceedOnce, payload: { answers: content } };
  }
  if (answer.action === 'cancel') {
    return { outcome: ToolConfirmationOutcome.Cancel, payload: { dismissed: true } };
  }
  return { outcome: ToolConfirmationOutcome.Cancel };
}
