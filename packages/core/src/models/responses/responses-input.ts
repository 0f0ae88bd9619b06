/**
 * The conversation as OpenAI Responses input items: the system prompt as `instructions`,
 * messages with `input_text`/`input_image`/`input_file` content, the model's calls as
 * `function_call` items and results as `function_call_output` items. Nothing is stored on
 * the server (`store: false`): every request carries the whole conversation, as with the
 * other APIs, and the encrypted reasoning items of a turn that called tools go back just
 * before its calls (a reasoning model otherwise loses its reasoning after every call).
 */
import type { ChatTool, ModelRequest } from '../model-types.js';
import {
  type ContentPiece,
  contentPieces,
  contentText,
  systemText,
} from '../wire/chat-messages.js';

type InputContent =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' }
  | { type: 'input_file'; filename: string; file_data: string };

/** A reasoning item as the API gave it, its content encrypted (nothing is stored there). */
export interface ReasoningItem {
  type: 'reasoning';
  id: string;
  summary: Array<{ type: 'summary_text'; text: string }>;
  encrypted_content?: string;
}

export type ResponsesInputItem =
  | ReasoningItem
  | { type: 'message'; role: 'user'; content: InputContent[] }
  | { type: 'message'; role: 'assistant'; content: string }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string };

export interface ResponsesRequestBody {
  model: string;
  instructions?: string;
  input: ResponsesInputItem[];
  tools?: Array<{
    type: 'function';
    name: string;
    description?: string;
    parameters: Record<string, unknown> | null;
    strict: boolean;
  }>;
  max_output_tokens: number;
  temperature?: number;
  include?: Array<'reasoning.encrypted_content'>;
  reasoning?: { effort: 'low' | 'medium' | 'high'; summary: 'auto' };
  store: false;
  stream: true;
}

export function toResponsesBody(
  request: ModelRequest,
  model: string,
  maxOutputTokens: number,
  /** Reasoning items by the first call id of their turn, and whether to ask for them. */
  kept: {
    reasoning?: ReadonlyMap<string, ReasoningItem[]>;
    include?: boolean;
    /** The reasoning effort asked for (settings model.thinking), with its summaries shown. */
    effort?: 'low' | 'medium' | 'high' | undefined;
  } = {},
): ResponsesRequestBody {
  const input: ResponsesInputItem[] = [];
  for (const message of request.messages) {
    if (message.role === 'user') {
      input.push({
        type: 'message',
        role: 'user',
        content: inputContent(contentPieces(message.content)),
      });
    } else if (message.role === 'assistant') {
      const text = contentText(message.content);
      const first = message.tool_calls?.[0];
      input.push(...((first && kept.reasoning?.get(first.id)) ?? []));
      if (text) input.push({ type: 'message', role: 'assistant', content: text });
      for (const call of message.tool_calls ?? []) {
        if (call.type !== 'function') continue;
        input.push({
          type: 'function_call',
          call_id: call.id,
          name: call.function.name,
          arguments: call.function.arguments || '{}',
        });
      }
    } else if (message.role === 'tool') {
      input.push({
        type: 'function_call_output',
        call_id: message.tool_call_id,
        output: contentText(message.content) || '(no output)',
      });
    }
  }
  const instructions = systemText(request.messages);
  const tools = (request.tools ?? []).map((tool) => {
    const fn = (tool as Extract<ChatTool, { type: 'function' }>).function;
    return {
      type: 'function' as const,
      name: fn.name,
      ...(fn.description ? { description: fn.description } : {}),
      parameters: (fn.parameters as Record<string, unknown> | undefined) ?? null,
      strict: false,
    };
  });
  return {
    model,
    ...(instructions ? { instructions } : {}),
    input,
    ...(tools.length > 0 ? { tools } : {}),
    max_output_tokens: maxOutputTokens,
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(kept.include ? { include: ['reasoning.encrypted_content' as const] } : {}),
    ...(kept.effort ? { reasoning: { effort: kept.effort, summary: 'auto' as const } } : {}),
    store: false,
    stream: true,
  };
}

function inputContent(pieces: ContentPiece[]): InputContent[] {
  const content = pieces.map((piece, index): InputContent => {
    if (piece.kind === 'text') return { type: 'input_text', text: piece.text };
    if (piece.kind === 'url') return { type: 'input_image', image_url: piece.url, detail: 'auto' };
    const dataUrl = `data:${piece.mimeType};base64,${piece.data}`;
    if (piece.mimeType.startsWith('image/'))
      return { type: 'input_image', image_url: dataUrl, detail: 'auto' };
    return {
      type: 'input_file',
      filename: piece.filename ?? `attachment-${index + 1}`,
      file_data: dataUrl,
    };
  });
  return content.length > 0 ? content : [{ type: 'input_text', text: '' }];
}
