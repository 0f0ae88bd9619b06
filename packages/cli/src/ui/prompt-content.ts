/**
 * What a prompt sends to the model: text, or text with attached files (images, PDFs) as
 * parts, the way the agent loop takes it.
 */
import type { Part } from '@toolhost/core/internal/core/content.js';

export type PromptContent = string | Part[];

/** The prompt with a note before it (what `!` commands did, a cancelled turn). */
export function withNoteBefore(note: string, prompt: PromptContent): PromptContent {
  if (typeof prompt === 'string') return `${note}\n\n${prompt}`;
  // Into the first text part: the note reads as the start of what the person wrote.
  const [first, ...rest] = prompt;
  if (first?.text !== undefined) return [{ ...first, text: `${note}\n\n${first.text}` }, ...rest];
  return [{ text: note }, ...prompt];
}
