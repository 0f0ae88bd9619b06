/**
 * A saved session's conversation as the `session/update`s an editor shows when it loads
 * the session: the person's prompts, the answers, and each tool call with how it ended.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { ChatMessage } from '@toolhost/core/conversation';
import { resumedItems } from '@toolhost/core/conversation';
import type { ToolRegistry } from '@toolhost/core/tools';
import { toolKind, toolTitle } from './tool-calls.js';

export function replayUpdates(
  messages: readonly ChatMessage[],
  registry: ToolRegistry,
): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  for (const item of resumedItems(messages, registry)) {
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
    } else {
      for (const call of item.calls) {
        const tool = registry.getTool(call.toolName);
        updates.push({
          sessionUpdate: 'tool_call',
          toolCallId: call.callId,
          title: toolTitle(tool, call.toolName, call.args),
          kind: toolKind(tool, call.toolName),
          status: call.status === 'success' ? 'completed' : 'failed',
          rawInput: call.args,
          content: [
            {
              type: 'content',
              content: {
                type: 'text',
                text: shortened(call.result || (call.failure ?? '')),
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
