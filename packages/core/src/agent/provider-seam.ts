/**
 * The one place the loop converts between toolhost's content and OpenAI Chat Completions
 * messages: declarations out, a whole batch of function responses back. It delegates to
 * the provider adapter, so switching adapters touches only this file.
 */

import type { FunctionDeclaration, Part } from '../core/content.js';
import type { ChatMessage, ChatTool } from '../models/model-types.js';
import { toOpenAIToolMessages, toOpenAITools } from '../providers/openai-chat.js';

export function toChatTools(declarations: FunctionDeclaration[]): ChatTool[] {
  return toOpenAITools(declarations) as ChatTool[];
}

/** The messages for all responses of one model turn: every `tool` message, then any media. */
export function toChatToolMessages(responseParts: Part[]): ChatMessage[] {
  return toOpenAIToolMessages(responseParts) as ChatMessage[];
}
