/** A resumed session's conversation, turned into history items to show before the prompt. */

import type { Config } from '@toolhost/core/config';
import type { ChatMessage } from '@toolhost/core/conversation';
import {
  findSession,
  type LoadedSession,
  loadSession,
  resumedItems,
  unansweredPrompts,
} from '@toolhost/core/conversation';
import type { ToolRegistry } from '@toolhost/core/tools';
import type { HistoryItemContent, ToolRow } from './history-items.js';

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
  return resumedItems(messages, registry).map((item) =>
    item.kind !== 'tools'
      ? item
      : {
          kind: 'tools',
          rows: item.calls.map(
            (call): ToolRow => ({
              callId: call.callId,
              name: call.displayName,
              toolName: call.toolName,
              args: call.args,
              description: call.description,
              status: call.status,
              startedAt: 0,
              ...(call.failure !== undefined ? { failure: call.failure } : {}),
            }),
          ),
        },
  );
}
