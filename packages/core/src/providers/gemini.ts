/**
 * Gemini (`@google/genai`, the Gemini API and Vertex AI): declarations become one tool with
 * `functionDeclarations` carrying `parametersJsonSchema`, and one model turn's results
 * become one `user` content: a `functionResponse` per call, in order, with the images,
 * PDFs and text files it returned inside `functionResponse.parts`, followed by any audio
 * or video Gemini takes only as ordinary parts.
 */
import type { FunctionDeclaration } from '../contract/content.js';
import type { Schema } from '../utils/json-schema.js';
import { type DeclarationOptions, prepareDeclarations, type ToolNameMap } from './declarations.js';
import { type MediaPolicy, prepareCallMedia } from './media.js';
import {
  collectToolOutputs,
  type ResultOptions,
  resolveModalities,
  type ToolResponseBatch,
} from './tool-results.js';

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parametersJsonSchema: Schema;
}

export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

export interface GeminiBlob {
  mimeType: string;
  data: string;
  displayName?: string;
}

export interface GeminiFunctionResponsePart {
  inlineData: GeminiBlob;
}

export interface GeminiPart {
  text?: string;
  inlineData?: GeminiBlob;
  functionResponse?: {
    id?: string;
    name: string;
    response: Record<string, unknown>;
    parts?: GeminiFunctionResponsePart[];
  };
}

export interface GeminiContent {
  role: 'user';
  parts: GeminiPart[];
}

export interface GeminiResultOptions extends ResultOptions {
  /** The names sent with the declarations (`toolNameMap(declarations, 'gemini')`). */
  names?: ToolNameMap;
}

export const GEMINI_MEDIA: MediaPolicy = {
  label: 'Gemini',
  images: new Set(['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif']),
  audio: new Set([
    'audio/wav',
    'audio/x-wav',
    'audio/mpeg',
    'audio/mp3',
    'audio/aiff',
    'audio/aac',
    'audio/ogg',
    'audio/flac',
  ]),
  video: new Set([
    'video/mp4',
    'video/mpeg',
    'video/mov',
    'video/quicktime',
    'video/avi',
    'video/x-flv',
    'video/mpg',
    'video/webm',
    'video/wmv',
    'video/3gpp',
  ]),
  documents: new Set(['application/pdf']),
};

/** What `functionResponse.parts` carries; other media follows as ordinary parts. */
const IN_FUNCTION_RESPONSE = new Set(['image/png', 'image/jpeg', 'image/webp', 'application/pdf']);

/** The Gemini `tools` entry for the declarations. */
export function toGeminiTools(
  declarations: readonly FunctionDeclaration[],
  options: DeclarationOptions = {},
): GeminiTool[] {
  const prepared = prepareDeclarations(declarations, 'gemini', options);
  return [
    {
      functionDeclarations: prepared.map((declaration) => ({
        name: declaration.name,
        ...(declaration.description ? { description: declaration.description } : {}),
        parametersJsonSchema: declaration.parameters,
      })),
    },
  ];
}

/** The one `user` content answering a turn's function calls. */
export function toGeminiFunctionResponses(
  batch: ToolResponseBatch,
  options: GeminiResultOptions = {},
): GeminiContent {
  const modalities = resolveModalities(options);
  const responses: GeminiPart[] = [];
  const following: GeminiPart[] = [];
  for (const output of collectToolOutputs(batch)) {
    const { source, files, notes } = prepareCallMedia(output, GEMINI_MEDIA, modalities);
    const inside: GeminiFunctionResponsePart[] = [];
    for (const media of files) {
      const blob = { mimeType: media.mimeType, data: media.data, displayName: media.filename };
      if (IN_FUNCTION_RESPONSE.has(media.mimeType)) inside.push({ inlineData: blob });
      else {
        following.push({ text: `${media.filename} from ${source}:` }, { inlineData: blob });
        notes.push(`(${media.filename} follows this response.)`);
      }
    }
    responses.push({
      functionResponse: {
        ...(output.callId ? { id: output.callId } : {}),
        name: options.names?.toProvider(output.name) ?? output.name,
        response: withNotes(output.response, notes, output.isError),
        ...(inside.length > 0 ? { parts: inside } : {}),
      },
    });
  }
  return { role: 'user', parts: [...responses, ...following] };
}

function withNotes(
  response: Record<string, unknown>,
  notes: string[],
  isError: boolean,
): Record<string, unknown> {
  if (notes.length === 0) return response;
  const key = isError ? 'error' : 'output';
  const existing = typeof response[key] === 'string' ? (response[key] as string) : '';
  return { ...response, [key]: [existing, ...notes].filter(Boolean).join('\n') };
}
