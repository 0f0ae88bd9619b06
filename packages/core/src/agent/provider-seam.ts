/**
 * The one place the loop converts between toolhost's content and OpenAI Chat Completions
 * messages: declarations out (with the names the endpoint sees mapped back to the
 * registry's), a whole batch of function responses back. It delegates to the provider
 * adapter (../providers), so switching adapters touches only this file.
 */
import type { FunctionDeclaration, Part } from '../contract/content.js';
import type { ChatMessage, ChatTool } from '../models/model-types.js';
import type { ModelProvider } from '../models/provider.js';
import { toolNameMap } from '../providers/declarations.js';
import {
  toOpenAIToolMessages,
  toOpenAITools,
  toOpenAIUserMessage,
} from '../providers/openai-chat.js';
import type { ResultOptions } from '../providers/tool-results.js';

export interface ChatTools {
  tools: ChatTool[];
  /** The registry's name for a name the model called (they differ where the API's rules forced a change). */
  toToolName(calledName: string): string;
  /**
   * The history with every earlier call named as this API wants it: a session that began
   * with another family (or before a tool's name was mapped) may hold names this one refuses.
   */
  historyNames(history: ChatMessage[]): ChatMessage[];
}

/** Whose naming rule applies (Gemini: letter or `_` first, `.` and `:` allowed; Anthropic: up to 128). */
const NAME_RULES = {
  openai: 'openai-chat',
  'openai-responses': 'openai-responses',
  anthropic: 'anthropic',
  gemini: 'gemini',
} as const;

export function toChatTools(
  declarations: FunctionDeclaration[],
  family: ModelProvider = 'openai',
): ChatTools {
  const names = toolNameMap(declarations, NAME_RULES[family]);
  const tools = (toOpenAITools(declarations) as ChatTool[]).map((tool, index) =>
    tool.type === 'function'
      ? {
          ...tool,
          function: { ...tool.function, name: names.toProvider(declarations[index]?.name ?? '') },
        }
      : tool,
  );
  const rename = (name: string) => names.toProvider(names.toTool(name));
  return {
    tools,
    toToolName: (calledName) => names.toTool(calledName),
    historyNames: (history) => {
      let renamed: ChatMessage[] | undefined;
      history.forEach((message, index) => {
        if (message.role !== 'assistant' || !message.tool_calls?.length) return;
        const calls = message.tool_calls.map((call) =>
          call.type === 'function' && rename(call.function.name) !== call.function.name
            ? { ...call, function: { ...call.function, name: rename(call.function.name) } }
            : call,
        );
        if (calls.every((call, i) => call === message.tool_calls?.[i])) return;
        renamed ??= [...history];
        renamed[index] = { ...message, tool_calls: calls };
      });
      return renamed ?? history;
    },
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
