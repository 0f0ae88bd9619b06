/**
 * What a prompt sends to the model: text, or text with attached files (images, PDFs) as
 * parts, the way the agent loop takes it.
 */
import type { Part } from '../contract/content.js';

export type PromptContent = string | Part[];

/** The prompt with a note before it (what `!` commands did, a cancelled turn). */
export function withNoteBefore(note: string, prompt: PromptContent): PromptContent {
  if (typeof prompt === 'string') return `${note}\n\n${prompt}`;
  // Into the first text part: the note reads as the start of what the person wrote.
  const [first, ...rest] = prompt;
  if (first?.text !== undefined) return [{ ...first, text: `${note}\n\n${first.text}` }, ...rest];
  return [{ text: note }, ...prompt];
}

/** The prompt with more text below it (an editor's embedded resources) and media after. */
export function withExtras(
  content: PromptContent,
  sections: readonly string[],
  media: readonly Part[],
): PromptContent {
  const extra = sections.join('\n\n');
  if (typeof content === 'string' && media.length === 0)
    return extra ? [content, extra].filter(Boolean).join('\n\n') : content;
  const parts: Part[] =
    typeof content === 'string' ? (content ? [{ text: content }] : []) : [...content];
  if (extra) parts.push({ text: extra });
  return [...parts, ...media];
}
