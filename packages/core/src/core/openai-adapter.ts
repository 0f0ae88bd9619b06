/**
 * Adapters between toolhost's Gemini-shaped content and OpenAI chat completions: tool
 * declarations become `tools`, function responses become `tool` messages. A `tool` message
 * carries only text, so images, audio and PDFs go in a user message right after, labelled
 * with the call they belong to.
 */
import type { FunctionDeclaration, Part } from './content.js';
import { sanitizeSchemaForOpenAI } from './schema-sanitizer.js';

export interface OpenAIFunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export type OpenAIContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: 'wav' | 'mp3' } }
  | { type: 'file'; file: { filename: string; file_data: string } };

export type OpenAIToolResponseMessage =
  | { role: 'tool'; tool_call_id: string; content: string }
  | { role: 'user'; content: OpenAIContentPart[] };

/**
 * OpenAI chat `tools` for the declarations. By default the schemas are sanitized for strict
 * endpoints (see schema-sanitizer.ts); pass `{ sanitize: false }` to send them as they are.
 */
export function toOpenAITools(
  declarations: FunctionDeclaration[],
  options: { sanitize?: boolean } = {},
): OpenAIFunctionTool[] {
  const sanitize = options.sanitize ?? true;
  return declarations.map((declaration) => {
    const schema = declaration.parametersJsonSchema ??
      declaration.parameters ?? { type: 'object', properties: {} };
    return {
      type: 'function',
      function: {
        name: declaration.name ?? '',
        ...(declaration.description ? { description: declaration.description } : {}),
        parameters: sanitize
          ? sanitizeSchemaForOpenAI(schema)
          : (schema as Record<string, unknown>),
      },
    };
  });
}

/**
 * The messages for a list of response parts (as the scheduler produces them: each
 * `functionResponse` followed by its media parts).
 */
export function toOpenAIToolMessages(parts: Part[]): OpenAIToolResponseMessage[] {
  const toolMessages: OpenAIToolResponseMessage[] = [];
  const attachments: OpenAIContentPart[] = [];
  let currentCall: { id: string; name: string } | undefined;
  for (const part of parts) {
    if (part.functionResponse) {
      const id = part.functionResponse.id ?? '';
      const name = part.functionResponse.name ?? '';
      currentCall = { id, name };
      toolMessages.push({
        role: 'tool',
        tool_call_id: id,
        content: responseText(part.functionResponse.response),
      });
      continue;
    }
    const media = toOpenAIMedia(part);
    if (!media) continue;
    const label = currentCall
      ? `Attachment from the ${currentCall.name} call ${currentCall.id}:`
      : 'Attachment from a tool call:';
    attachments.push({ type: 'text', text: label }, media);
  }
  if (attachments.length > 0) toolMessages.push({ role: 'user', content: attachments });
  return toolMessages;
}

function responseText(response: Record<string, unknown> | undefined): string {
  if (!response) return '';
  const keys = Object.keys(response);
  if (keys.length === 1 && typeof response.output === 'string') return response.output;
  if (keys.length === 1 && typeof response.error === 'string') return `Error: ${response.error}`;
  return JSON.stringify(response);
}

function toOpenAIMedia(part: Part): OpenAIContentPart | undefined {
  if (part.inlineData?.data) {
    const mimeType = part.inlineData.mimeType ?? 'application/octet-stream';
    const data = part.inlineData.data;
    const dataUrl = `data:${mimeType};base64,${data}`;
    if (mimeType.startsWith('image/')) return { type: 'image_url', image_url: { url: dataUrl } };
    if (mimeType === 'audio/wav' || mimeType === 'audio/x-wav') {
      return { type: 'input_audio', input_audio: { data, format: 'wav' } };
    }
    if (mimeType === 'audio/mpeg' || mimeType === 'audio/mp3') {
      return { type: 'input_audio', input_audio: { data, format: 'mp3' } };
    }
    const filename = part.inlineData.displayName ?? `attachment.${mimeType.split('/')[1] ?? 'bin'}`;
    return { type: 'file', file: { filename, file_data: dataUrl } };
  }
  if (part.fileData?.fileUri) {
    return {
      type: 'text',
      text: `File at ${part.fileData.fileUri} (${part.fileData.mimeType ?? 'unknown type'})`,
    };
  }
  return undefined;
}
