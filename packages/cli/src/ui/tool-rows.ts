/**
 * Turns the scheduler's calls into the lines the screen shows for them. Every string a
 * row takes from a model, a tool or a server is made visible here (visibleText), so the
 * row views print only text that cannot move the cursor or hide.
 */
import { describeCall } from '@toolhost/core/conversation';
import type { ToolCall, ToolResultDisplay } from '@toolhost/core/tools';
import { visibleText } from '@toolhost/core/utils';
import type { ToolRow, ToolRowStatus } from './history-items.js';

/**
 * The row's words, saying each thing once: a built-in's description already starts with
 * its verb ("Read src/a.js", "Edit src/a.js"), so the tool's name is left out; a command
 * shows as `$ command`; an MCP call as `server: tool ...`. Only a description that does
 * not name the action gets the tool's name before it (`Task general-purpose: ...`).
 */
export function rowLabel(
  name: string,
  toolName: string,
  description: string,
): { head: string; rest: string } {
  if (!description) return { head: name, rest: '' };
  if (toolName === 'run_shell_command') return { head: '$', rest: description };
  // A subagent's description names its kind and job, not the action.
  if (toolName === 'task') return { head: name, rest: description };
  const firstWord = /^(\S+)\s*(.*)$/.exec(description);
  const head = firstWord?.[1] ?? description;
  const rest = firstWord?.[2] ?? '';
  // "Read x", "Edit x", "List x", "Search for x" and the MCP "server: tool" lead.
  if (/^\p{Lu}/u.test(description) || head.endsWith(':')) return { head, rest };
  if (description.toLowerCase().startsWith(`${name.toLowerCase()} `))
    return { head: name, rest: description.slice(name.length + 1) };
  return { head: name, rest: description };
}

const lines = (text: string) => visibleText(text, { multiline: true });

function visibleDisplay(display: ToolResultDisplay): ToolResultDisplay {
  if (typeof display === 'string') return lines(display);
  if ('fileDiff' in display)
    return {
      ...display,
      fileName: visibleText(display.fileName),
      fileDiff: lines(display.fileDiff),
    };
  return {
    ...display,
    todos: display.todos.map((todo) => ({ ...todo, content: visibleText(todo.content) })),
  };
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
    name: visibleText(call.tool?.displayName ?? call.request.name),
    toolName: call.request.name,
    args,
    description: describeCall(call.tool, args),
    status: STATUS[call.status],
    startedAt: call.startTime,
    ...(previous?.children ? { children: previous.children } : {}),
  };
  if (call.status === 'executing' && liveOutput !== undefined) row.liveOutput = lines(liveOutput);
  if (call.status === 'success' || call.status === 'error' || call.status === 'cancelled') {
    row.durationMs = call.durationMs;
    const display = call.response.resultDisplay;
    if (display !== undefined && display !== '') row.display = visibleDisplay(display);
    if (call.status !== 'success') row.failure = firstLine(call.response.error?.message ?? '');
    if (call.status === 'success' && liveOutput !== undefined && row.display === undefined)
      row.display = lines(liveOutput);
    // What a command printed before it was stopped stays in the history.
    if (call.status !== 'success' && liveOutput?.trim()) row.partialOutput = lines(liveOutput);
  }
  return row;
}

function firstLine(text: string): string {
  const line = visibleText(text.replace(/^Error: /, '').split('\n')[0] ?? '');
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
