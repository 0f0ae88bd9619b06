/**
 * The OpenAI Responses API: declarations become function tools (strict by default, as the
 * API itself defaults), and one model turn's results become `function_call_output` items,
 * one per call in order. Their output carries text, images and PDFs directly, so no extra
 * message is needed; audio, which the output cannot carry, is named in a note.
 */
import type {
  FunctionTool,
  ResponseFunctionCallOutputItem,
  ResponseInputItem,
} from 'openai/resources/responses/responses';
import type { FunctionDeclaration } from '../contract/content.js';
import { type DeclarationOptions, prepareDeclarations } from './declarations.js';
import { type MediaPolicy, prepareCallMedia } from './media.js';
import {
  collectToolOutputs,
  type ResultOptions,
  resolveModalities,
  type ToolResponseBatch,
} from './tool-results.js';

export type ResponsesFunctionCallOutput = ResponseInputItem.FunctionCallOutput;

export interface ResponsesToolsOptions extends DeclarationOptions {
  /** Strict schemas where strict mode can express them (default true, as the API's). */
  strict?: boolean;
}

export const OPENAI_RESPONSES_MEDIA: MediaPolicy = {
  label: 'OpenAI Responses',
  images: new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
  audio: new Set(),
  video: new Set(),
  documents: new Set(['application/pdf']),
};

/** Responses API function tools for the declarations. */
export function toResponsesTools(
  declarations: readonly FunctionDeclaration[],
  options: ResponsesToolsOptions = {},
): FunctionTool[] {
  const strict = options.strict ?? true;
  return prepareDeclarations(declarations, strict ? 'openai-responses' : 'openai-chat', {
    ...options,
    strict,
  }).map((declaration) => ({
    type: 'function',
    name: declaration.name,
    ...(declaration.description ? { description: declaration.description } : {}),
    parameters: declaration.parameters,
    strict: declaration.strict,
  }));
}

/** The `function_call_output` items answering one turn's calls, in the calls' order. */
export function toResponsesToolOutputs(
  batch: ToolResponseBatch,
  options: ResultOptions = {},
): ResponsesFunctionCallOutput[] {
  const modalities = resolveModalities(options);
  return collectToolOutputs(batch).map((output) => {
    const { files, notes } = prepareCallMedia(output, OPENAI_RESPONSES_MEDIA, modalities);
    const items: ResponseFunctionCallOutputItem[] = [];
    const texts = [output.text, ...notes];
    for (const media of files) {
      if (media.kind === 'image')
        items.push({
          type: 'input_image',
          image_url: `data:${media.mimeType};base64,${media.data}`,
          detail: 'auto',
        });
      else if (media.kind === 'document')
        items.push({
          type: 'input_file',
          filename: media.filename,
          file_data: `data:${media.mimeType};base64,${media.data}`,
        });
    }
    const text = texts.filter(Boolean).join('\n');
    return {
      type: 'function_call_output',
      call_id: output.callId,
      output: items.length === 0 ? text : [{ type: 'input_text', text }, ...items],
    };
  });
}
