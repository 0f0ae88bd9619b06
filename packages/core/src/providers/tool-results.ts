/**
 * The shared half of every adapter's "results back": a model turn's completed calls (or
 * the response parts they produced) read as one output per call, with its text, whether
 * it failed, and its media parts in order.
 */
import type { Part } from '../contract/content.js';
import type { CompletedToolCall } from '../scheduler/tool-call-types.js';
import { type Modality, modelModalities } from './modalities.js';

/** A batch: the scheduler's completed calls, or their `responseParts` in order. */
export type ToolResponseBatch = readonly CompletedToolCall[] | readonly Part[];

export interface ToolOutput {
  callId: string;
  /** The tool's name as the registry knows it. */
  name: string;
  /** Everything textual, failures starting with a single `Error: `. */
  text: string;
  isError: boolean;
  /** The function response as the scheduler built it (`{ output }`, `{ error }`, ...). */
  response: Record<string, unknown>;
  /** `inlineData` and `fileData` parts, in order. */
  media: Part[];
}

export interface ResultOptions {
  /** The model's name, for its default modalities (see modalities.ts). */
  model?: string;
  /** What the model takes (`model.modalities`); overrides the model's default. */
  modalities?: readonly string[];
}

export function collectToolOutputs(batch: ToolResponseBatch): ToolOutput[] {
  const parts: Part[] = [];
  for (const item of batch) {
    if (isCompletedCall(item)) parts.push(...item.response.responseParts);
    else parts.push(item);
  }
  const outputs: ToolOutput[] = [];
  for (const part of parts) {
    if (part.functionResponse) {
      const response = part.functionResponse.response ?? {};
      const isError = typeof response.error === 'string' && response.output === undefined;
      outputs.push({
        callId: part.functionResponse.id ?? '',
        name: part.functionResponse.name ?? '',
        text: responseText(response),
        isError,
        response,
        media: [],
      });
      continue;
    }
    const current = outputs[outputs.length - 1];
    if (!current) continue; // parts before any response belong to no call
    if (part.inlineData || part.fileData) current.media.push(part);
    else if (typeof part.text === 'string' && part.text !== '')
      current.text = current.text ? `${current.text}\n${part.text}` : part.text;
  }
  return outputs;
}

/** `Error: ` once, however many the message already carried. */
export function errorText(message: string): string {
  return `Error: ${message.replace(/^(\s*Error:\s*)+/i, '')}`;
}

export function resolveModalities(options: ResultOptions): ReadonlySet<Modality> | undefined {
  return modelModalities(options.model, options.modalities);
}

function responseText(response: Record<string, unknown>): string {
  const keys = Object.keys(response);
  if (keys.length === 1 && typeof response.output === 'string') return response.output;
  if (keys.length === 1 && typeof response.error === 'string') return errorText(response.error);
  if (keys.length === 0) return '';
  return JSON.stringify(response);
}

function isCompletedCall(item: CompletedToolCall | Part): item is CompletedToolCall {
  return 'request' in item && 'response' in item && 'status' in item;
}
