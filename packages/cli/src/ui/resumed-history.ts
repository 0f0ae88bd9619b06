/** A resumed session's conversation, turned into history items to show before the prompt. */
import {
  findSession,
  type LoadedSession,
  loadSession,
} from '@toolhost/core/internal/agent/sessions/session-loader.js';
import type { Config } from '@toolhost/core/internal/config/config.js';
import type { ChatMessage } from '@toolhost/core/internal/models/model-types.js';
import type { ToolRegistry } from '@toolhost/core/internal/tools/tool-registry.js';
import { promptAsTyped, unansweredPrompts, withoutAppNote } from '../agent/resume.js';
import type { HistoryItemContent, ToolRow } from './history-items.js';
import { describeCall } from './tool-rows.js';

/**
 * A saved session of this project to continue here (`/resume`): its conversation, the
 * items that show it, and its prompts that got no answer; a message when there is none.
 */
export function resumedSession(
  config: Config,
  registry: ToolRegistry,
  id: string,
): { loaded: LoadedSession; items: HistoryItemContent[]; unanswered?: string } | string {
  const found = findSession(config.userDir, config.targetDir, { id });
  if (typeof found === 'string') return found;
  const loaded = loadSession(found.file);
  const items = historyItemsFromMessages(loaded.history, registry);
  items.push({
    kind: 'message',
    level: 'info',
    text: `Continuing session ${loaded.id} (${loaded.history.length} messages); it goes on being saved in its own file.`,
  });
  const unanswered = unansweredPrompts(loaded.dropped);
  if (unanswered.length === 0) return { loaded, items };
  items.push({
    kind: 'message',
    level: 'warning',
    text: `Its last exchange never finished (${loaded.droppedMessages} messages left out); the prompt that got no answer is back in the input: Enter sends it again.`,
  });
  return { loaded, items, unanswered: unanswered.join('\n\n') };
}

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
      const text = withoutAppNote(textOf(message.content));
      // Media attached after tool results travel as a user message of parts: not a prompt.
      const afterToolResults = before?.role === 'tool';
      if (text.trim() && (typeof message.content === 'string' || !afterToolResults))
        items.push({ kind: 'user', text: promptAsTyped(text) });
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
