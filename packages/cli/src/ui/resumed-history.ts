/** A resumed session's conversation, turned into history items to show before the prompt. */
import type { ChatMessage } from '@toolhost/core/internal/models/model-types.js';
import type { ToolRegistry } from '@toolhost/core/internal/tools/tool-registry.js';
import type { HistoryItemContent, ToolRow } from './history-items.js';
import { describeCall } from './tool-rows.js';

/** Notes the app adds before a prompt, left out when the prompt is shown again. */
const APP_NOTE = /^\[The person cancelled the previous turn[^\]]*\]\n\n/;

export function historyItemsFromMessages(
  messages: readonly ChatMessage[],
  registry: ToolRegistry,
): HistoryItemContent[] {
  const items: HistoryItemContent[] = [];
  const rowsByCall = new Map<string, ToolRow>();
  let previous: ChatMessage | undefined;
  for (const message of messages) {
    const before = previous;
    previous = message;
    if (message.role === 'user') {
      const text = textOf(message.content).replace(APP_NOTE, '');
      // Media attached after tool results travel as a user message of parts: not a prompt.
      const afterToolResults = before?.role === 'tool';
      if (text.trim() && (typeof message.content === 'string' || !afterToolResults))
        items.push({ kind: 'user', text: promptShown(text) });
    } else if (message.role === 'assistant') {
      const text = textOf(message.content ?? '');
      if (text.trim()) items.push({ kind: 'assistant', text: text.trim() });
      const rows: ToolRow[] = [];
      for (const call of message.tool_calls ?? []) {
        if (call.type !== 'function') continue;
        const args = parseArgs(call.function.arguments);
        const tool = registry.getTool(call.function.name);
        const row: ToolRow = {
          callId: call.id,
          name: tool?.displayName ?? call.function.name,
          toolName: call.function.name,
          args,
          description: describeCall(tool, args),
          status: 'cancelled',
          startedAt: 0,
        };
        rows.push(row);
        rowsByCall.set(call.id, row);
      }
      if (rows.length > 0) items.push({ kind: 'tools', rows });
    } else if (message.role === 'tool') {
      const row = rowsByCall.get(message.tool_call_id);
      if (!row) continue;
      const content = textOf(message.content);
      row.status = content.startsWith('Error') ? 'error' : 'success';
      if (row.status === 'error')
        row.failure = content.replace(/^Error:\s*/, '').split('\n')[0] ?? '';
    }
  }
  return items;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (part && typeof part === 'object' && 'text' in part ? String(part.text) : ''))
    .join('');
}

function parseArgs(raw: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** A prompt as the person typed it: what its `@` references attached is left out. */
function promptShown(text: string): string {
  const at = text.search(/\n\n--- Content from (referenced files|MCP resource )/);
  return at >= 0 ? text.slice(0, at) : text;
}
