/**
 * The notes a conversation puts before a prompt (a cancelled turn's), and the prompts of a
 * saved session as the person typed them: without those notes and without what their `@`
 * references attached, so a front end can show them or give back the ones never answered.
 */
import type { ChatMessage } from '../models/model-types.js';

export const CANCELLED_NOTE =
  '[The person cancelled the previous turn before it finished (Esc); anything it was doing was stopped. Continue with the request below.]';

/** Notes the conversation adds before a prompt, left out when the prompt is shown or given back. */
const APP_NOTE = /^\[The person cancelled the previous turn[^\]]*\]\n\n/;

export function withoutAppNote(text: string): string {
  return text.replace(APP_NOTE, '');
}

/** What the person typed in messages that got no answer (attached file contents left out). */
export function unansweredPrompts(dropped: readonly ChatMessage[]): string[] {
  return dropped.flatMap((message) => {
    if (message.role !== 'user') return [];
    const content: unknown = message.content;
    const raw =
      typeof content === 'string'
        ? content
        : Array.isArray(content)
          ? content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('')
          : '';
    const text = promptAsTyped(withoutAppNote(raw));
    return text.trim() ? [text] : [];
  });
}

/** A prompt as the person typed it: what its `@` references attached is left out. */
export function promptAsTyped(text: string): string {
  const at = text.search(/\n\n--- Content from (referenced files|MCP resource )/);
  return at >= 0 ? text.slice(0, at) : text;
}
