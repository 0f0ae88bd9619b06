/**
 * OpenAI Chat Completions (and every OpenAI-compatible endpoint): declarations become
 * `tools`, plain or `strict`, and one model turn's results become one valid message
 * sequence: a `tool` message per call, in the calls' order, right after the assistant
 * message, then, when there is media a `tool` message cannot carry, one `user` message
 * with all of it, each item labelled with its call.
 */
import type {
  ChatCompletionContentPart,
  ChatCompletionFunctionTool,
  ChatCompletionToolMessageParam,
  ChatCompletionUserMessageParam,
} from 'openai/resources/chat/completions';
import type { FunctionDeclaration, Part } from '../contract/content.js';
import { type DeclarationOptions, prepareDeclarations } from './declarations.js';
import { type MediaPolicy, prepareCallMedia, prepareMedia } from './media.js';
import {
  collectToolOutputs,
  type ResultOptions,
  resolveModalities,
  type ToolResponseBatch,
} from './tool-results.js';

export type OpenAIFunctionTool = ChatCompletionFunctionTool;
export type OpenAIContentPart = ChatCompletionContentPart;
export type OpenAIToolResponseMessage =
  | ChatCompletionToolMessageParam
  | ChatCompletionUserMessageParam;

export interface OpenAIToolsOptions extends DeclarationOptions {
  /**
   * `strict: true` on every tool whose schema strict mode can express (closed objects,
   * every property required, optional ones nullable); the others are sent non-strict.
   * Use it with OpenAI itself; many compatible servers ignore it. Default false.
   */
  strict?: boolean;
}

/** What Chat Completions takes in a user message. */
export const OPENAI_CHAT_MEDIA: MediaPolicy = {
  label: 'OpenAI Chat Completions',
  images: new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
  audio: new Set(['audio/wav', 'audio/x-wav', 'audio/mpeg', 'audio/mp3']),
  video: new Set(),
  documents: new Set(['application/pdf']),
};

/**
 * Chat Completions `tools` for the declarations: names valid and unique for OpenAI,
 * descriptions within 1,024 characters, schemas in the subset compatible endpoints take.
 * Map the names models call back with `toolNameMap(declarations, 'openai-chat')`.
 */
export function toOpenAITools(
  declarations: readonly FunctionDeclaration[],
  options: OpenAIToolsOptions = {},
): OpenAIFunctionTool[] {
  const provider = options.strict ? 'openai-chat-strict' : 'openai-chat';
  return prepareDeclarations(declarations, provider, options).map((declaration) => ({
    type: 'function',
    function: {
      name: declaration.name,
      ...(declaration.description ? { description: declaration.description } : {}),
      parameters: declaration.parameters,
      ...(options.strict ? { strict: declaration.strict } : {}),
    },
  }));
}

/**
 * The messages that answer one assistant message's tool calls: pass every completed call
 * of the turn (or all their `responseParts`) at once. A `tool` message per call carries
 * its text; images, audio and PDFs follow together in one `user` message.
 */
export function toOpenAIToolMessages(
  batch: ToolResponseBatch,
  options: ResultOptions = {},
): OpenAIToolResponseMessage[] {
  const modalities = resolveModalities(options);
  const messages: OpenAIToolResponseMessage[] = [];
  const attachments: ChatCompletionContentPart[] = [];
  for (const output of collectToolOutputs(batch)) {
    const { source, files, notes } = prepareCallMedia(output, OPENAI_CHAT_MEDIA, modalities);
    const texts = [output.text, ...notes];
    for (const media of files) {
      const content = toContentPart(media.kind, media.mimeType, media.data, media.filename);
      if (!content) continue;
      attachments.push({ type: 'text', text: `${media.filename} from ${source}:` }, content);
      texts.push(`(${media.filename} follows in the next user message.)`);
    }
    messages.push({
      role: 'tool',
      tool_call_id: output.callId,
      content: texts.filter(Boolean).join('\n'),
    });
  }
  if (attachments.length > 0) messages.push({ role: 'user', content: attachments });
  return messages;
}

/**
 * The person's turn as one `user` message: text alone stays a string; with attached
 * files (inline images, PDFs, audio) it becomes content parts in the prompt's order, each
 * file a data URL as Chat Completions takes it, or a placeholder saying why it was left out.
 */
export function toOpenAIUserMessage(
  parts: readonly Part[],
  options: ResultOptions = {},
): ChatCompletionUserMessageParam {
  const modalities = resolveModalities(options);
  const content: ChatCompletionContentPart[] = [];
  const addText = (text: string) => {
    const last = content.at(-1);
    if (last?.type === 'text') last.text = `${last.text}\n${text}`;
    else content.push({ type: 'text', text });
  };
  for (const [index, part] of parts.entries()) {
    if (typeof part.text === 'string') {
      if (part.text !== '') addText(part.text);
      continue;
    }
    const media = prepareMedia(part, OPENAI_CHAT_MEDIA, {
      source: 'the prompt',
      fallbackName: `attachment-${index + 1}`,
      ...(modalities ? { modalities } : {}),
    });
    if (!media) continue;
    if (media.kind === 'text') {
      addText(media.text);
      continue;
    }
    const converted = toContentPart(media.kind, media.mimeType, media.data, media.filename);
    if (converted) content.push(converted);
    else
      addText(
        `[${media.filename} (${media.mimeType}) was left out: ${OPENAI_CHAT_MEDIA.label} does not take it.]`,
      );
  }
  const only = content[0];
  if (content.length === 1 && only?.type === 'text') return { role: 'user', content: only.text };
  return { role: 'user', content };
}

function toContentPart(
  kind: 'image' | 'audio' | 'video' | 'document',
  mimeType: string,
  data: string,
  filename: string,
): ChatCompletionContentPart | undefined {
  switch (kind) {
    case 'image':
      return { type: 'image_url', image_url: { url: `data:${mimeType};base64,${data}` } };
    case 'audio':
      return {
        type: 'input_audio',
        input_audio: { data, format: mimeType.includes('wav') ? 'wav' : 'mp3' },
      };
    case 'document':
      return { type: 'file', file: { filename, file_data: `data:${mimeType};base64,${data}` } };
    default:
      return undefined;
  }
}
