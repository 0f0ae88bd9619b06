/** What a CoreToolScheduler is made with: its session, its tools and the front end's hooks. */
import type { Config } from '../config/config.js';
import type { HookRunner } from '../hooks/hook-runner.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type {
  CompletedToolCall,
  ConfirmationDecision,
  EditProposal,
  ToolCall,
  ToolCallRequestInfo,
  WaitingToolCall,
} from './tool-call-types.js';

export interface CoreToolSchedulerOptions {
  config: Config;
  toolRegistry: ToolRegistry;
  /** Called whenever any call changes state, with every call of the current batch. */
  onToolCallsUpdate?: (calls: readonly ToolCall[]) => void;
  /** Live output of a running call (a command's text so far). */
  outputUpdateHandler?: (callId: string, output: string) => void;
  /** Called once per batch, with every call in its final state. */
  onAllToolCallsComplete?: (calls: CompletedToolCall[]) => void | Promise<void>;
  /**
   * Asks the person about a call. Without it, calls that need approval are refused with
   * `execution_denied`.
   */
  onConfirmationRequest?: (call: WaitingToolCall) => Promise<ConfirmationDecision>;
  /**
   * Lets the person edit a proposal for `modify_with_editor`; returns the edited text, or
   * undefined to keep the proposal. Defaults to $VISUAL / $EDITOR in the terminal.
   */
  editProposal?: (proposal: EditProposal) => Promise<string | undefined>;
  /** The session's PreToolUse and PostToolUse hooks (hooks/). */
  hooks?: HookRunner;
  /**
   * Called for each call once it is approved, just before it runs (the agent loop takes
   * its checkpoint here, so a call that is refused or declined never gets one). A message
   * refuses the call with it.
   */
  beforeExecute?: (
    request: ToolCallRequestInfo,
    signal: AbortSignal,
  ) => Promise<string | undefined>;
}
