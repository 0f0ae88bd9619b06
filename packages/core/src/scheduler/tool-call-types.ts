/** The states a call passes through in the scheduler, and what each state carries. */

import type { FunctionCall, Part, PartListUnion } from '../contract/content.js';
import type {
  AnyTool,
  ToolCallConfirmationDetails,
  ToolConfirmationOutcome,
  ToolConfirmationPayload,
  ToolErrorType,
  ToolResultDisplay,
} from '../tools/tools.js';

export interface ToolCallRequestInfo {
  callId: string;
  name: string;
  args: Record<string, unknown>;
}

export interface ToolCallResponseInfo {
  callId: string;
  /** The tool's own content for the model, before conversion (the message, for failures). */
  llmContent: PartListUnion;
  /** Exactly what the model receives: a functionResponse part, then any media parts. */
  responseParts: Part[];
  resultDisplay: ToolResultDisplay | undefined;
  error: { message: string; type: ToolErrorType } | undefined;
  /** Where the full output was saved when it was too long for the model. */
  outputFile?: string;
}

export type ToolCallStatus =
  | 'validating'
  | 'scheduled'
  | 'awaiting_approval'
  | 'executing'
  | 'success'
  | 'error'
  | 'cancelled';

interface CallBase {
  request: ToolCallRequestInfo;
  tool?: AnyTool;
  /** The parameters after aliases were resolved (and after any modification). */
  params?: Record<string, unknown>;
  startTime: number;
  outcome?: ToolConfirmationOutcome;
}

export interface ValidatingToolCall extends CallBase {
  status: 'validating';
}
export interface ScheduledToolCall extends CallBase {
  status: 'scheduled';
  tool: AnyTool;
}
export interface WaitingToolCall extends CallBase {
  status: 'awaiting_approval';
  tool: AnyTool;
  confirmationDetails: ToolCallConfirmationDetails;
}
export interface ExecutingToolCall extends CallBase {
  status: 'executing';
  tool: AnyTool;
  liveOutput?: string;
}
export interface SuccessfulToolCall extends CallBase {
  status: 'success';
  tool: AnyTool;
  response: ToolCallResponseInfo;
  durationMs: number;
}
export interface ErroredToolCall extends CallBase {
  status: 'error';
  response: ToolCallResponseInfo;
  durationMs: number;
}
export interface CancelledToolCall extends CallBase {
  status: 'cancelled';
  response: ToolCallResponseInfo;
  durationMs: number;
}

export type CompletedToolCall = SuccessfulToolCall | ErroredToolCall | CancelledToolCall;
export type ToolCall =
  | ValidatingToolCall
  | ScheduledToolCall
  | WaitingToolCall
  | ExecutingToolCall
  | CompletedToolCall;

/** The person's answer to a confirmation request. */
export interface ConfirmationDecision {
  outcome: ToolConfirmationOutcome;
  payload?: ToolConfirmationPayload;
  /** With `cancel`: the reason the person (or the host that asked them) gave, for the model. */
  message?: string;
}

/** What a front end is asked to edit for `modify_with_editor`. */
export interface EditProposal {
  filePath: string;
  currentContent: string;
  proposedContent: string;
}

/** Accepts the scheduler's own requests or a model's function calls. */
export type ScheduleInput = ToolCallRequestInfo | FunctionCall;
