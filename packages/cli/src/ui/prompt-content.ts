/**
 * What a prompt sends to the model: text, or text with attached files (images, PDFs) as
 * parts, the way the agent loop takes it.
 */
import type { Part } from '@toolhost/core';

export type PromptContent = string | Part[];

/** The prompt with a note before it (what `!` commands did, a cancelled turn). */
export function withNoteBefore(note: string, prompt: PromptContent): PromptContent {
  if (typeof prompt === 'string') return `${note}\n\n${prompt}`;
  return [{ text: `${note}\n\n` }, ...prompt];
}
