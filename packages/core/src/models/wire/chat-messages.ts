/**
 * Reading the conversation the agent loop keeps (Chat Completions messages) for the clients
 * that send it in another API's shapes: content as text and media, data URLs taken apart,
 * tool-call arguments as objects, and each call's name by its id (Gemini answers a call by
 * name, not id).
 */
import type { ChatMessage } from '../model-types.js';

export type ContentPiece =
  | { kind: 'text'; text: string }
  /** Inline data: an image, a PDF, audio. */
  | { kind: 'media'; mimeType: string; data: string; filename?: string }
  /** A file the API fetches itself (an image URL). */
  | { kind: 'url'; url: string; mimeType?: string };

/** The pieces of a message's content, in order. */
export function contentPieces(content: ChatMessage['content'] | undefined): ContentPiece[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content ? [{ kind: 'text', text: content }] : [];
  const pieces: ContentPiece[] = [];
  for (const part of content as unknown as Array<Record<string, unknown>>) {
    if (part.type === 'text' && typeof part.text === 'string') {
      pieces.push({ kind: 'text', text: part.text });
    } else if (part.type === 'refusal' && typeof part.refusal === 'string') {
      pieces.push({ kind: 'text', text: part.refusal });
    } else if (part.type === 'image_url') {
      const url = String((part.image_url as { url?: unknown } | undefined)?.url ?? '');
      pieces.push(fromUrl(url));
    } else if (part.type === 'input_audio') {
      const audio = part.input_audio as { data: string; format: string };
      pieces.push({ kind: 'media', mimeType: `audio/${audio.format}`, data: audio.data });
    } else if (part.type === 'file') {
      const file = part.file as { filename?: string; file_data?: string };
      const piece = fromUrl(file.file_data ?? '');
      if (piece.kind === 'media' && file.filename) piece.filename = file.filename;
      pieces.push(piece);
    }
  }
  return pieces;
}

function fromUrl(url: string): ContentPiece {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return match ? { kind: 'media', mimeType: match[1]!, data: match[2]! } : { kind: 'url', url };
}

/** The text of a message's content, media left out. */
export function contentText(content: ChatMessage['content'] | undefined): string {
  return contentPieces(content)
    .map((piece) => (piece.kind === 'text' ? piece.text : ''))
    .filter(Boolean)
    .join('\n');
}

/** A call's arguments as an object (the loop keeps them valid JSON; anything else is `{}`). */
export function argumentsObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text || '{}');
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** Each tool call's name by its id, over the whole conversation. */
export function callNamesById(messages: readonly ChatMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const call of message.tool_calls ?? []) {
      if (call.type === 'function') names.set(call.id, call.function.name);
    }
  }
  return names;
}

/** The system prompt: every system (or developer) message's text, in order. */
export function systemText(messages: readonly ChatMessage[]): string {
  return messages
    .filter((message) => message.role === 'system' || message.role === 'developer')
    .map((message) => contentText(message.content))
    .filter(Boolean)
    .join('\n\n');
}
