/**
 * PreToolUse and PostToolUse for the scheduler: before a validated call is approved, its
 * hooks may block it (the reason goes to the model), change its parameters, ask the person
 * or answer the person's question with yes; after it ran, they may add text the model reads
 * with the result (a block's reason, additional context).
 */
import { type PartListUnion, partsToText } from '../contract/content.js';
import type { AnyTool, ToolCallConfirmationDetails, ToolResult } from '../tools/tools.js';
import { hookToolName } from './hook-matcher.js';
import type { HookRunner, PermissionDecision } from './hook-runner.js';

export interface ToolCallInfo {
  callId: string;
  tool: AnyTool;
  params: Record<string, unknown>;
}

export type BeforeToolCall =
  /** The call must not run; `message` is what the model reads. */
  | { kind: 'deny'; message: string }
  | {
      kind: 'run';
      /** The parameters the hooks gave instead, when they changed them. */
      params?: Record<string, unknown>;
      /** `allow`: the hooks answer the person's question with yes; `ask`: the person is asked. */
      permission?: Exclude<PermissionDecision, 'deny'>;
      reason?: string;
      /** Text for the model, added to the call's result. */
      context?: string;
    };

export async function beforeToolCall(
  hooks: HookRunner,
  call: ToolCallInfo,
  signal: AbortSignal,
): Promise<BeforeToolCall> {
  if (!hooks.has('PreToolUse')) return { kind: 'run' };
  const outcome = await hooks.run(
    'PreToolUse',
    toolFields(call),
    hooks.toolTarget(call.tool),
    signal,
  );
  const reasons = [...outcome.blocked, ...outcome.permissionReasons].join('\n');
  if (outcome.blocked.length > 0 || outcome.permission === 'deny' || outcome.stop) {
    const why = reasons || outcome.stop?.reason || 'no reason given';
    return { kind: 'deny', message: `A PreToolUse hook blocked this call: ${why}` };
  }
  const context = outcome.context.join('\n');
  const params = outcome.updatedInput && { ...call.params, ...outcome.updatedInput };
  const problem = params && call.tool.validateToolParams(params);
  if (problem)
    return {
      kind: 'deny',
      message: `A PreToolUse hook changed the parameters into invalid ones: ${problem}`,
    };
  return {
    kind: 'run',
    ...(params ? { params } : {}),
    ...(outcome.permission ? { permission: outcome.permission } : {}),
    ...(reasons ? { reason: reasons } : {}),
    ...(context ? { context } : {}),
  };
}

/** The result with what the PostToolUse hooks (and PreToolUse's context) tell the model. */
export async function afterToolCall(
  hooks: HookRunner,
  call: ToolCallInfo,
  result: ToolResult,
  preContext: string | undefined,
  signal: AbortSignal,
): Promise<ToolResult> {
  const notes = preContext ? [`Hook context: ${preContext}`] : [];
  if (hooks.has('PostToolUse')) {
    const outcome = await hooks.run(
      'PostToolUse',
      {
        ...toolFields(call),
        tool_response: {
          llmContent: partsToText(result.llmContent),
          returnDisplay: displayText(result.returnDisplay),
          error: result.error ?? null,
        },
      },
      hooks.toolTarget(call.tool),
      signal,
    );
    for (const reason of outcome.blocked) notes.push(`PostToolUse hook feedback: ${reason}`);
    for (const context of outcome.context) notes.push(`Hook context: ${context}`);
  }
  if (notes.length === 0) return result;
  return { ...result, llmContent: withText(result.llmContent, notes.join('\n')) };
}

/** The question shown when a hook asks about a call the tool itself would run unasked. */
export function hookQuestion(
  tool: AnyTool,
  params: Record<string, unknown>,
): ToolCallConfirmationDetails {
  return {
    type: 'info',
    title: `Run ${tool.displayName}?`,
    prompt: tool.getDescription(params),
    onConfirm: () => undefined,
  };
}

function toolFields(call: ToolCallInfo): Record<string, unknown> {
  return {
    tool_name: hookToolName(call.tool),
    tool_input: call.params,
    tool_use_id: call.callId,
  };
}

function withText(content: PartListUnion, text: string): PartListUnion {
  if (typeof content === 'string') return content ? `${content}\n\n${text}` : text;
  const parts = Array.isArray(content) ? content : [content];
  return [...parts, { text }];
}

function displayText(display: ToolResult['returnDisplay']): string {
  if (typeof display === 'string') return display;
  if ('fileDiff' in display) return display.fileDiff;
  return JSON.stringify(display);
}
