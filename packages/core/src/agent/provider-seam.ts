/**
 * The one place the loop converts between toolhost's content and OpenAI Chat Completions
 * messages: declarations out (with the names the endpoint sees mapped back to the
 * registry's), a whole batch of function responses back. It delegates to the provider
 * adapter (../providers), so switching adapters touches only this file.
 */
import type { FunctionDeclaration, Part } from '../core/content.js';
import type { ChatMessage, ChatTool } from '../models/model-types.js';
import { toolNameMap } from '../providers/declarations.js';
import {
  toOpenAIToolMessages,
  toOpenAITools,
  toOpenAIUserMessage,
} from '../providers/openai-chat.js';
import type { ResultOptions } from '../providers/tool-results.js';

export interface ChatTools {
  tools: ChatTool[];
  /** The registry's name for a name the model called (they differ where OpenAI's rules forced a change). */
  toToolName(calledName: string): string;
}

export function toChatTools(declarations: FunctionDeclaration[]): ChatTools {
  const names = toolNameMap(declarations, 'openai-chat');
  return {
    tools: toOpenAITools(declarations) as ChatTool[],
    toToolName: (calledName) => names.toTool(calledName),
  };
}

/** The messages for all responses of one model turn: every `tool` message, then any media. */
export function toChatToolMessages(
  responseParts: Part[],
  options: ResultOptions = {},
): ChatMessage[] {
  return toOpenAIToolMessages(responseParts, options) as ChatMessage[];
}

/** The person's turn: a text prompt, or text with attached files (images, PDFs) as parts. */
export function toChatUserMessage(
  prompt: string | readonly Part[],
  options: ResultOptions = {},
): ChatMessage {
  if (typeof prompt === 'string') return { role: 'user', content: prompt };
  return toOpenAIUserMessage(prompt, options) as ChatMessage;
}
