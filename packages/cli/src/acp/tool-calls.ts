/**
 * The scheduler's tool calls as ACP tool calls: the first sight of a call is a `tool_call`,
 * every later change a `tool_call_update` (status, running output, the result as text or
 * a diff); a finished todo_write is also the session's plan.
 */
import type {
  ToolCall as AcpToolCall,
  PlanEntry,
  SessionUpdate,
  ToolCallContent,
  ToolCallLocation,
  ToolCallStatus,
  ToolKind,
} from '@agentclientprotocol/sdk';
import { describeCall } from '@toolhost/core/conversation';
import type {
  AnyTool,
  ToolCall,
  ToolCallConfirmationDetails,
  ToolRegistry,
  ToolResultDisplay,
} from '@toolhost/core/tools';

const STATUS: Record<ToolCall['status'], ToolCallStatus> = {
  validating: 'pending',
  scheduled: 'pending',
  awaiting_approval: 'pending',
  executing: 'in_progress',
  success: 'completed',
  error: 'failed',
  cancelled: 'failed',
};

/** Live output is sent at most this often; the final output always goes with the result. */
const OUTPUT_INTERVAL_MS = 250;

export function toolKind(tool: AnyTool | undefined, name: string): ToolKind {
  // Leaving plan mode is a mode switch, which editors show as such.
  if (name === 'exit_plan_mode') return 'switch_mode';
  return tool?.kind ?? 'other';
}

export function toolTitle(tool: AnyTool | undefined, name: string, args: Record<string, unknown>) {
  const label = tool?.displayName ?? name;
  const description = describeCall(tool, args);
  return description ? `${label}: ${description}` : label;
}

function locations(tool: AnyTool | undefined, args: Record<string, unknown>): ToolCallLocation[] {
  try {
    return (tool?.toolLocations(args) ?? []).map((location) => ({
      path: location.path,
      ...(location.line !== undefined ? { line: location.line } : {}),
    }));
  } catch {
    return [];
  }
}

/** The whole of a call as ACP describes it, for `tool_call` and permission requests. */
export function describeToolCall(call: ToolCall, registry?: ToolRegistry): AcpToolCall {
  const args = call.params ?? call.request.args ?? {};
  // A call still being validated has no tool yet: the registry knows it by name.
  const tool = call.tool ?? registry?.getTool(call.request.name);
  return {
    toolCallId: call.request.callId,
    title: toolTitle(tool, call.request.name, args),
    kind: toolKind(tool, call.request.name),
    status: STATUS[call.status],
    locations: locations(tool, args),
    rawInput: call.request.args,
  };
}

const text = (value: string): ToolCallContent => ({
  type: 'content',
  content: { type: 'text', text: value },
});

/** What the person is asked about: the diff of an edit, the command, the plan. */
export function confirmationContent(details: ToolCallConfirmationDetails): ToolCallContent[] {
  switch (details.type) {
    case 'edit':
      return [
        {
          type: 'diff',
          path: details.filePath,
          oldText: details.originalContent,
          newText: details.newContent,
        },
      ];
    case 'exec':
      return [text(details.command)];
    case 'mcp':
      return [text(`${details.serverName}: ${details.toolDisplayName}`)];
    case 'info':
      return [text([details.prompt, ...(details.urls ?? [])].join('\n'))];
    case 'plan':
      return [text(details.plan)];
    default:
      return [text(details.message)];
  }
}

function resultContent(display: ToolResultDisplay | undefined): ToolCallContent[] {
  if (display === undefined || display === '') return [];
  if (typeof display === 'string') return [text(display)];
  if ('fileDiff' in display) {
    return [
      {
        type: 'diff',
        path: display.filePath ?? display.fileName,
        oldText: display.originalContent,
        newText: display.newContent,
      },
    ];
  }
  return [];
}

function planEntries(display: ToolResultDisplay | undefined): PlanEntry[] | undefined {
  if (!display || typeof display === 'string' || !('type' in display)) return undefined;
  return display.todos.map((todo) => ({
    content: todo.content,
    priority: 'medium',
    status: todo.status,
  }));
}

/** Follows the calls of one prompt and says what changed since the last look. */
export class ToolCallTracker {
  private readonly sent = new Map<string, ToolCallStatus>();
  private readonly outputSentAt = new Map<string, number>();

  constructor(private readonly registry: ToolRegistry) {}

  /** The updates the scheduler's latest list of calls brings. */
  callsChanged(calls: readonly ToolCall[]): SessionUpdate[] {
    const updates: SessionUpdate[] = [];
    for (const call of calls) {
      const id = call.request.callId;
      const status = STATUS[call.status];
      const previous = this.sent.get(id);
      if (previous === status) continue;
      this.sent.set(id, status);
      if (previous === undefined)
        updates.push({ sessionUpdate: 'tool_call', ...describeToolCall(call, this.registry) });
      if (call.status !== 'success' && call.status !== 'error' && call.status !== 'cancelled') {
        if (previous !== undefined)
          updates.push({ sessionUpdate: 'tool_call_update', toolCallId: id, status });
        continue;
      }
      const display = call.response.resultDisplay;
      const content =
        call.status === 'success'
          ? resultContent(display)
          : [text(call.response.error?.message ?? 'The call did not run.')];
      updates.push({ sessionUpdate: 'tool_call_update', toolCallId: id, status, content });
      const entries = call.status === 'success' ? planEntries(display) : undefined;
      if (entries) updates.push({ sessionUpdate: 'plan', entries });
    }
    return updates;
  }

  /** A running call's output so far, unless some was sent a moment ago. */
  output(callId: string, output: string, now = Date.now()): SessionUpdate | undefined {
    if (this.sent.get(callId) !== 'in_progress') return undefined;
    if (now - (this.outputSentAt.get(callId) ?? 0) < OUTPUT_INTERVAL_MS) return undefined;
    this.outputSentAt.set(callId, now);
    return { sessionUpdate: 'tool_call_update', toolCallId: callId, content: [text(output)] };
  }
}
