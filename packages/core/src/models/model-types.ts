/** What goes into a model request and comes out of it (OpenAI Chat Completions shapes). */
import type {
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { TokenUsage } from './token-usage.js';

export type ChatMessage = ChatCompletionMessageParam;
export type ChatTool = ChatCompletionTool;

export interface ModelRequest {
  messages: ChatMessage[];
  tools?: ChatTool[];
  /** Overrides the endpoint's model name (a subagent's own model). */
  model?: string;
  maxOutputTokens?: number;
  temperature?: number;
}

/** One tool call as the model sent it; `arguments` is the raw JSON text. */
export interface ModelToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface ModelResponse {
  text: string;
  /** Reasoning the endpoint sent apart from the answer (`reasoning_content`, `<think>`). */
  thinking: string;
  toolCalls: ModelToolCall[];
  /** `stop`, `tool_calls`, `length`, `content_filter`, or undefined when the endpoint sent none. */
  finishReason: string | undefined;
  usage: TokenUsage;
  model: string;
  /** The answer ended on a refusal or a safety stop (the text holds what came before it). */
  stopped?: ModelStop;
}

/** Why a provider stopped an answer on its own account. */
export interface ModelStop {
  /** `refusal`: the model declined; `safety`: a safety system stopped the answer or the prompt. */
  kind: 'refusal' | 'safety';
  /** The provider's own name for it (`refusal`, `SAFETY`, `PROHIBITED_CONTENT`, `content_filter`). */
  reason: string;
  /** The prompt itself was blocked (nothing was generated): sending it again fails the same way. */
  promptBlocked?: boolean;
  /** What the provider said about it, if anything. */
  detail?: string;
}

/** Progress of one request, for a front end that shows the answer as it arrives. */
export type ModelStreamEvent =
  | { type: 'text'; text: string }
  | { type: 'thinking'; text: string }
  | { type: 'tool_call_started'; index: number; id: string; name: string }
  /** The request failed and will be sent again: what was shown of this answer is void. */
  | { type: 'retry'; attempt: number; delayMs: number; reason: string };
