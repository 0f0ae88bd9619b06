/**
 * The conversation in Anthropic Messages shapes: the system prompt as `system` blocks,
 * tool calls as `tool_use` blocks, results as `tool_result` blocks in one user message with
 * any media that came with them, consecutive messages of one role joined (the API wants
 * them alternating), and prompt-caching breakpoints on the system prompt, the tools and the
 * end of the last two user turns, so each request reads the previous one's prefix from the
 * cache. With thinking on request, a turn that called tools goes back with its thinking
 * blocks (and their signatures) first, as the API requires.
 */
import type { ChatMessage, ChatTool, ModelRequest } from '../model-types.js';
import {
  argumentsObject,
  type ContentPiece,
  contentPieces,
  systemText,
} from '../wire/chat-messages.js';

type CacheControl = { type: 'ephemeral' };

type ImageType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

/** What a user turn and a tool result can hold. */
type ContentBlock =
  | { type: 'text'; text: string; cache_control?: CacheControl }
  | {
      type: 'image';
      source:
        | { type: 'base64'; media_type: ImageType; data: string }
        | { type: 'url'; url: string };
      cache_control?: CacheControl;
    }
  | {
      type: 'document';
      source: { type: 'base64'; media_type: 'application/pdf'; data: string };
      title?: string;
      cache_control?: CacheControl;
    };

/** A thinking block as the API gave it; the signature lets it go back unchanged. */
export type ThinkingBlock =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string };

export type AnthropicBlock =
  | ContentBlock
  | ThinkingBlock
  | {
      type: 'tool_use';
      id: string;
      name: string;
      input: Record<string, unknown>;
      cache_control?: CacheControl;
    }
  | {
      type: 'tool_result';
      tool_use_id: string;
      content: ContentBlock[];
      is_error?: boolean;
      cache_control?: CacheControl;
    };

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

export interface AnthropicToolParam {
  name: string;
  description?: string;
  input_schema: { type: 'object'; [key: string]: unknown };
  cache_control?: CacheControl;
}

export interface AnthropicRequestBody {
  model: string;
  max_tokens: number;
  system?: Array<{ type: 'text'; text: string; cache_control?: CacheControl }>;
  messages: AnthropicMessage[];
  tools?: AnthropicToolParam[];
  temperature?: number;
  thinking?: { type: 'enabled'; budget_tokens: number };
  stream: true;
}

/** What a request adds with thinking on: the budget, and the thinking of earlier tool turns. */
export interface AnthropicThinking {
  param?: { type: 'enabled'; budget_tokens: number } | undefined;
  /** Thinking blocks by the first call id of the turn they led to. */
  blocks?: ReadonlyMap<string, ThinkingBlock[]>;
}

const EPHEMERAL: CacheControl = { type: 'ephemeral' };
const IMAGE_TYPES = new Set<string>(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

export function toAnthropicBody(
  request: ModelRequest,
  model: string,
  maxTokens: number,
  thinking: AnthropicThinking = {},
): AnthropicRequestBody {
  const system = systemText(request.messages);
  const messages = joinRoles(
    request.messages.flatMap((message) => {
      const converted = toAnthropicMessage(message, thinking.blocks);
      return converted ? [converted] : [];
    }),
  );
  markCacheBreakpoints(messages);
  const tools = (request.tools ?? []).map(toAnthropicTool);
  const lastTool = tools.at(-1);
  if (lastTool) lastTool.cache_control = EPHEMERAL;
  return {
    model,
    max_tokens: maxTokens,
    ...(system ? { system: [{ type: 'text', text: system, cache_control: EPHEMERAL }] } : {}),
    messages,
    ...(tools.length > 0 ? { tools } : {}),
    // Thinking takes no temperature of its own.
    ...(request.temperature !== undefined && !thinking.param
      ? { temperature: request.temperature }
      : {}),
    ...(thinking.param ? { thinking: thinking.param } : {}),
    stream: true,
  };
}

function toAnthropicTool(tool: ChatTool): AnthropicToolParam {
  const fn = (tool as Extract<ChatTool, { type: 'function' }>).function;
  return {
    name: fn.name,
    ...(fn.description ? { description: fn.description } : {}),
    input_schema: {
      type: 'object',
      ...(fn.parameters ?? {}),
    } as AnthropicToolParam['input_schema'],
  };
}

function toAnthropicMessage(
  message: ChatMessage,
  thinking: ReadonlyMap<string, ThinkingBlock[]> | undefined,
): AnthropicMessage | undefined {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: blocksOf(contentPieces(message.content)) };
    case 'assistant': {
      const first = message.tool_calls?.[0];
      const content: AnthropicBlock[] = [
        ...((first && thinking?.get(first.id)) ?? []),
        ...blocksOf(contentPieces(message.content)),
      ];
      for (const call of message.tool_calls ?? []) {
        if (call.type !== 'function') continue;
        content.push({
          type: 'tool_use',
          id: call.id,
          name: call.function.name,
          input: argumentsObject(call.function.arguments),
        });
      }
      return { role: 'assistant', content };
    }
    case 'tool': {
      const content = blocksOf(contentPieces(message.content));
      const isError =
        content.length === 1 && /^Error: /.test((content[0] as { text?: string }).text ?? '');
      return {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: message.tool_call_id,
            content: content.length > 0 ? content : [{ type: 'text', text: '(no output)' }],
            ...(isError ? { is_error: true } : {}),
          },
        ],
      };
    }
    default:
      return undefined;
  }
}

function blocksOf(pieces: ContentPiece[]): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  for (const piece of pieces) {
    if (piece.kind === 'text') {
      if (piece.text.trim()) blocks.push({ type: 'text', text: piece.text });
    } else if (piece.kind === 'url') {
      blocks.push({ type: 'image', source: { type: 'url', url: piece.url } });
    } else if (IMAGE_TYPES.has(piece.mimeType)) {
      blocks.push({
        type: 'image',
        source: { type: 'base64', media_type: piece.mimeType as ImageType, data: piece.data },
      });
    } else if (piece.mimeType === 'application/pdf') {
      blocks.push({
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: piece.data },
        ...(piece.filename ? { title: piece.filename } : {}),
      });
    } else {
      blocks.push({
        type: 'text',
        text: `[${piece.filename ?? 'an attachment'} (${piece.mimeType}) was left out: Anthropic Messages does not take it.]`,
      });
    }
  }
  return blocks;
}

/**
 * Consecutive messages of one role as one (tool results and the media after them, say):
 * tool_result blocks first, as the API requires; an empty message gets a placeholder.
 */
function joinRoles(messages: AnthropicMessage[]): AnthropicMessage[] {
  const joined: AnthropicMessage[] = [];
  for (const message of messages) {
    const last = joined.at(-1);
    if (last && last.role === message.role) last.content.push(...message.content);
    else joined.push({ role: message.role, content: [...message.content] });
  }
  for (const message of joined) {
    message.content.sort(
      (a, b) => Number(b.type === 'tool_result') - Number(a.type === 'tool_result'),
    );
    if (message.content.length === 0) message.content.push({ type: 'text', text: '(empty)' });
  }
  return joined;
}

/** Breakpoints on the last block of the last two user messages (the API allows four in all). */
function markCacheBreakpoints(messages: AnthropicMessage[]): void {
  let marked = 0;
  for (let index = messages.length - 1; index >= 0 && marked < 2; index--) {
    const message = messages[index]!;
    if (message.role !== 'user') continue;
    const last = message.content.at(-1);
    // Thinking blocks (only ever in assistant turns) take no breakpoint.
    if (last && last.type !== 'thinking' && last.type !== 'redacted_thinking') {
      last.cache_control = EPHEMERAL;
      marked++;
    }
  }
}
