/** Turns the scheduler's calls into the lines the screen shows for them. */
import type { ToolCall } from '@toolhost/core/internal/core/tool-call-types.js';
import type { AnyTool } from '@toolhost/core/internal/tools/tools.js';
import type { ToolRow, ToolRowStatus } from './history-items.js';

/** The tool's own one-line description of a call, or its arguments when it has none. */
export function describeCall(tool: AnyTool | undefined, args: Record<string, unknown>): string {
  if (tool) {
    try {
      const description = tool.getDescription(args);
      if (description) return oneLine(description);
    } catch {
      // arguments the tool cannot describe: show them instead
    }
  }
  const text = JSON.stringify(args);
  return text === '{}' ? '' : oneLine(text);
}

function oneLine(text: string): string {
  const line = text.replace(/\s*\n\s*/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

const STATUS: Record<ToolCall['status'], ToolRowStatus> = {
  validating: 'pending',
  scheduled: 'pending',
  awaiting_approval: 'awaiting_approval',
  executing: 'executing',
  success: 'success',
  error: 'error',
  cancelled: 'cancelled',
};

export function toolRow(
  call: ToolCall,
  liveOutput: string | undefined,
  previous: ToolRow | undefined,
): ToolRow {
  const args = call.params ?? call.request.args ?? {};
  const row: ToolRow = {
    callId: call.request.callId,
    name: call.tool?.displayName ?? call.request.name,
    toolName: call.request.name,
    args,
    description: describeCall(call.tool, args),
    status: STATUS[call.status],
    startedAt: call.startTime,
    ...(previous?.children ? { children: previous.children } : {}),
    ...(previous?.approved ? { approved: previous.approved } : {}),
  };
  if (call.status === 'awaiting_approval') row.approved = call.confirmationDetails.type;
  if (call.status === 'executing' && liveOutput !== undefined) row.liveOutput = liveOutput;
  if (call.status === 'success' || call.status === 'error' || call.status === 'cancelled') {
    row.durationMs = call.durationMs;
    const display = call.response.resultDisplay;
    if (display !== undefined && display !== '') row.display = display;
    if (call.status !== 'success') row.failure = firstLine(call.response.error?.message ?? '');
    if (call.status === 'success' && liveOutput !== undefined && row.display === undefined)
      row.display = liveOutput;
  }
  // An approval that was answered "no" is not an approved diff.
  if (call.status === 'cancelled' || call.status === 'error') delete row.approved;
  return row;
}

function firstLine(text: string): string {
  const line = text.replace(/^Error: /, '').split('\n')[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
