/**
 * The user-role messages the agent adds to a conversation itself (asking the model to go
 * on, a Stop hook's reasons, a compression's summary, media after tool responses), told
 * apart from the person's prompts: a restore in the middle of a turn goes back to before
 * the prompt that began it and offers that prompt again.
 */
import { isStopHookNote } from '../hooks/stop-hook-note.js';
import type { ChatMessage } from '../models/model-types.js';

export const CONTINUE_AFTER_LENGTH =
  'Your previous answer was cut off by the output token limit. Continue exactly where it stopped, without repeating anything.';
export const NUDGE_AFTER_EMPTY =
  'Your previous answer was empty. Continue with the task: call a tool, or give your final answer.';
export const SUMMARY_HEADING = '[Summary of the earlier conversation, made to save context space]';

/** The index of the last prompt the person gave in `messages`; -1 when there is none. */
export function lastPromptIndex(messages: readonly ChatMessage[]): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role !== 'user') continue;
    if (typeof message.content === 'string') {
      const text = message.content;
      if (text === CONTINUE_AFTER_LENGTH || text === NUDGE_AFTER_EMPTY) continue;
      if (text.startsWith(SUMMARY_HEADING) || isStopHookNote(text)) continue;
    } else if (messages[index - 1]?.role === 'tool') {
      continue; // the media that belong to the tool responses before it
    }
    return index;
  }
  return -1;
}
