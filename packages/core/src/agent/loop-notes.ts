/**
 * The user-role messages the agent adds to a conversation itself (asking the model to go
 * on, a Stop hook's reasons, a compression's summary, media after tool responses), told
 * apart from the person's prompts: a restore in the middle of a turn goes back to before
 * the prompt that began it and offers that prompt again.
 */
import type { ChatMessage } from '../models/model-types.js';

export const CONTINUE_AFTER_LENGTH =
  'Your previous answer was cut off by the output token limit. Continue exactly where it stopped, without repeating anything.';
export const NUDGE_AFTER_EMPTY =
  'Your previous answer was empty. Continue with the task: call a tool, or give your final answer.';
export const SUMMARY_HEADING = '[Summary of the earlier conversation, made to save context space]';
const STOP_HOOK_NOTE = /^A (Stop|SubagentStop) hook asks you to continue: /;

/** What the model is told when a Stop (or SubagentStop) hook keeps it going. */
export function stopHookNote(event: 'Stop' | 'SubagentStop', reasons: readonly string[]): string {
  return `A ${event} hook asks you to continue: ${reasons.join('\n')}`;
}

/** The index of the last prompt the person gave in `messages`; -1 when there is none. */
export function lastPromptIndex(messages: readonly ChatMessage[]): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role !== 'user') continue;
    if (typeof message.content === 'string') {
      const text = message.content;
      if (text === CONTINUE_AFTER_LENGTH || text === NUDGE_AFTER_EMPTY) continue;
      if (text.startsWith(SUMMARY_HEADING) || STOP_HOOK_NOTE.test(text)) continue;
    } else if (messages[index - 1]?.role === 'tool') {
      continue; // the media that belong to the tool responses before it
    }
    return index;
  }
  return -1;
}
