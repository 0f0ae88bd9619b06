/**
 * The bottom of the library (`contract/`): the shapes every layer shares and nothing else,
 * so utils, trust, config, permissions, hooks and the tools can all import them without
 * importing each other: content (this file), tool errors, a tool's kind, displays and
 * the questions a call puts to the person (tool-shapes.ts), the page extractor's
 * signature, and the settings' types with their defaults, hook events and older names
 * (settings-types.ts). It imports nothing from toolhost.
 *
 * Content types with the same structure as the Gemini API's, so a declaration or a
 * response built here can be handed to that API unchanged. Only the fields toolhost
 * reads or writes are declared; everything is optional exactly where Gemini's is.
 */

/** Raw bytes carried inline, base64-encoded. */
export interface Blob {
  mimeType?: string;
  data?: string;
  displayName?: string;
}

/** A reference to content stored elsewhere (a URI the model can fetch). */
export interface FileData {
  mimeType?: string;
  fileUri?: string;
  displayName?: string;
}

export interface FunctionCall {
  id?: string;
  name?: string;
  args?: Record<string, unknown>;
}

export interface FunctionResponse {
  id?: string;
  name?: string;
  response?: Record<string, unknown>;
}

export interface Part {
  text?: string;
  thought?: boolean;
  inlineData?: Blob;
  fileData?: FileData;
  functionCall?: FunctionCall;
  functionResponse?: FunctionResponse;
}

export type PartUnion = Part | string;
export type PartListUnion = PartUnion[] | PartUnion;

export interface FunctionDeclaration {
  name?: string;
  description?: string;
  /** Gemini's OpenAPI-subset schema; toolhost fills `parametersJsonSchema` instead. */
  parameters?: unknown;
  parametersJsonSchema?: unknown;
}

/** Normalises any `PartListUnion` to an array of `Part` objects. */
export function toParts(content: PartListUnion): Part[] {
  const list = Array.isArray(content) ? content : [content];
  return list.map((part) => (typeof part === 'string' ? { text: part } : part));
}

/** The text parts of a `PartListUnion`, joined by newlines. */
export function partsToText(content: PartListUnion): string {
  return toParts(content)
    .map((part) => part.text)
    .filter((text): text is string => typeof text === 'string')
    .join('\n');
}
