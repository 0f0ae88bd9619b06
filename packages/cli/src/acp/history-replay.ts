/**
 * A saved session's conversation as the `session/update`s an editor shows when it loads
 * the session: the person's prompts, the answers, and each tool call with how it ended.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { ChatMessage } from '@toolhost/core/internal/models/model-types.js';
import type { ToolRegistry } from '@toolhost/core/internal/tools/tool-registry.js';
import { historyItemsFromMessages } from '../ui/resumed-history.js';
import { toolKind, toolTitle } from './tool-calls.js';

export function replayUpdates(
  messages: readonly ChatMessage[],
  registry: ToolRegistry,
): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  // What each call answered the model, shown under the call as it was then.
  const results = new Map<string, string>();
  for (const message of messages) {
    if (message.role === 'tool') results.set(message.tool_call_id, textOf(message.content));
  }
  for (const item of historyItemsFromMessages(messages, registry)) {
    if (item.kind === 'user') {
      updates.push({
        sessionUpdate: 'user_message_chunk',
        content: { type: 'text', text: item.text },
      });
    } else if (item.kind === 'assistant') {
      updates.push({
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: item.text },
      });
    } else if (item.kind === 'tools') {
      for (const row of item.rows) {
        const tool = registry.getTool(row.toolName);
        updates.push({
          sessionUpdate: 'tool_call',
          toolCallId: row.callId,
          title: toolTitle(tool, row.toolName, row.args),
          kind: toolKind(tool, row.toolName),
          status: row.status === 'success' ? 'completed' : 'failed',
          rawInput: row.args,
          content: [
            {
              type: 'content',
              content: {
                type: 'text',
                text: shortened(results.get(row.callId) ?? row.failure ?? ''),
              },
            },
          ],
        });
      }
    }
  }
  return updates;
}

/** A replayed result is a reminder, not the whole output again. */
const MAX_REPLAYED_CHARS = 2000;

function shortened(text: string): string {
  return text.length > MAX_REPLAYED_CHARS ? `${text.slice(0, MAX_REPLAYED_CHARS)}…` : text;
}

function textOf(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');
}
