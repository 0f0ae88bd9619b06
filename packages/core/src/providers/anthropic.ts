/**
 * Anthropic Messages: declarations become tools with `input_schema`, and one model turn's
 * results become one `user` message of `tool_result` blocks, one per call in order, each
 * carrying its text, images and PDFs (as `document` blocks named after the file).
 */
import type { FunctionDeclaration } from '../contract/content.js';
import type { Schema } from '../utils/json-schema.js';
import { type DeclarationOptions, prepareDeclarations } from './declarations.js';
import { type MediaPolicy, prepareCallMedia } from './media.js';
import {
  collectToolOutputs,
  type ResultOptions,
  resolveModalities,
  type ToolResponseBatch,
} from './tool-results.js';

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: Schema & { type: 'object' };
}

type AnthropicImageType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

export type AnthropicToolResultContent =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: AnthropicImageType; data: string } }
  | {
      type: 'document';
      title: string;
      source: { type: 'base64'; media_type: 'application/pdf'; data: string };
    };

export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: AnthropicToolResultContent[];
  is_error?: boolean;
}

export interface AnthropicToolResultMessage {
  role: 'user';
  content: AnthropicToolResultBlock[];
}

export const ANTHROPIC_MEDIA: MediaPolicy = {
  label: 'Anthropic Messages',
  images: new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']),
  audio: new Set(),
  video: new Set(),
  documents: new Set(['application/pdf']),
};

/** Anthropic `tools` for the declarations. */
export function toAnthropicTools(
  declarations: readonly FunctionDeclaration[],
  options: DeclarationOptions = {},
): AnthropicTool[] {
  return prepareDeclarations(declarations, 'anthropic', options).map((declaration) => ({
    name: declaration.name,
    ...(declaration.description ? { description: declaration.description } : {}),
    input_schema: { ...declaration.parameters, type: 'object' },
  }));
}

/** The one `user` message answering a turn's `tool_use` blocks. */
export function toAnthropicToolResults(
  batch: ToolResponseBatch,
  options: ResultOptions = {},
): AnthropicToolResultMessage {
  const modalities = resolveModalities(options);
  const content = collectToolOutputs(batch).map((output): AnthropicToolResultBlock => {
    const { files, notes } = prepareCallMedia(output, ANTHROPIC_MEDIA, modalities);
    const texts = [output.text, ...notes];
    const blocks: AnthropicToolResultContent[] = [];
    for (const media of files) {
      if (media.kind === 'image')
        blocks.push({
          type: 'image',
          source: {
            type: 'base64',
            media_type: media.mimeType as AnthropicImageType,
            data: media.data,
          },
        });
      else if (media.kind === 'document')
        blocks.push({
          type: 'document',
          title: media.filename,
          source: { type: 'base64', media_type: 'application/pdf', data: media.data },
        });
    }
    const text = texts.filter(Boolean).join('\n');
    return {
      type: 'tool_result',
      tool_use_id: output.callId,
      content: [{ type: 'text', text: text || '(no output)' }, ...blocks],
      ...(output.isError ? { is_error: true } : {}),
    };
  });
  return { role: 'user', content };
}
