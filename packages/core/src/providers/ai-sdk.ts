/**
 * The Vercel AI SDK (`ai`): toolhost's tools as AI SDK tools. Each tool's schema goes
 * through the caller's `jsonSchema()` (so this package needs no `ai` at run time),
 * `needsApproval` asks the scheduler whether the call would need the person's approval
 * (the AI SDK then collects it), `execute` runs the call through the scheduler, and
 * `toModelOutput` gives the model its content (text, images, files) while the display
 * for the person stays in the execute result.
 */
import type { Config } from '../config/config.js';
import type { Part } from '../contract/content.js';
import {
  CoreToolScheduler,
  type CoreToolSchedulerOptions,
} from '../scheduler/core-tool-scheduler.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { ToolConfirmationOutcome, type ToolResultDisplay } from '../tools/tools.js';
import type { Schema } from '../utils/json-schema.js';
import { type DeclarationOptions, prepareDeclarations } from './declarations.js';
import { type MediaPolicy, prepareCallMedia } from './media.js';
import { collectToolOutputs, type ResultOptions, resolveModalities } from './tool-results.js';

/** What `execute` returns: the model's content and the person's display, apart. */
export interface AISDKToolOutput {
  status: 'success' | 'error' | 'cancelled';
  /** Exactly what the model receives (a functionResponse part, then media). */
  responseParts: Part[];
  /** What the person sees. */
  display: ToolResultDisplay | undefined;
}

export type AISDKModelOutput =
  | { type: 'error-text'; value: string }
  | {
      type: 'content';
      value: (
        | { type: 'text'; text: string }
        | { type: 'image-data'; data: string; mediaType: string }
        | { type: 'file-data'; data: string; mediaType: string; filename?: string }
      )[];
    };

export interface AISDKTool<S> {
  description?: string;
  inputSchema: S;
  needsApproval: (input: unknown, options: { toolCallId: string }) => Promise<boolean>;
  execute: (
    input: unknown,
    options: { toolCallId: string; abortSignal?: AbortSignal },
  ) => Promise<AISDKToolOutput>;
  toModelOutput: (options: { toolCallId: string; output: AISDKToolOutput }) => AISDKModelOutput;
}

export interface AISDKToolsOptions<S> extends DeclarationOptions, ResultOptions {
  config: Config;
  registry: ToolRegistry;
  /** `jsonSchema` from the `ai` package. */
  jsonSchema(schema: Schema): S;
  /** More scheduler hooks (`onToolCallsUpdate`, `outputUpdateHandler`) for these calls. */
  scheduler?: Omit<
    Partial<CoreToolSchedulerOptions>,
    'config' | 'toolRegistry' | 'onConfirmationRequest'
  >;
}

export const AI_SDK_MEDIA: MediaPolicy = {
  label: 'the AI SDK',
  images: new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
  audio: new Set(['audio/wav', 'audio/x-wav', 'audio/mpeg', 'audio/mp3']),
  video: new Set(),
  documents: new Set(['application/pdf']),
};

/**
 * The registry's active tools as an AI SDK tool set, keyed by names valid for any
 * provider. Keep one tool set for a conversation: a call the person approved through
 * the AI SDK runs; any other call that turns out to need approval is refused.
 */
export function toAISDKTools<S>(options: AISDKToolsOptions<S>): Record<string, AISDKTool<S>> {
  const { config, registry } = options;
  const declarations = registry.getFunctionDeclarations();
  const approved = new Set<string>();
  const modalities = resolveModalities(options);
  const checker = new CoreToolScheduler({ config, toolRegistry: registry });
  const tools: Record<string, AISDKTool<S>> = {};
  for (const declaration of prepareDeclarations(declarations, 'ai-sdk', options)) {
    const call = (input: unknown, toolCallId: string) => ({
      id: toolCallId,
      name: declaration.toolName,
      args: (input ?? {}) as Record<string, unknown>,
    });
    tools[declaration.name] = {
      ...(declaration.description ? { description: declaration.description } : {}),
      inputSchema: options.jsonSchema(declaration.parameters),
      needsApproval: async (input, { toolCallId }) => {
        const needs = await checker.needsApproval(
          call(input, toolCallId),
          new AbortController().signal,
        );
        if (needs) approved.add(toolCallId);
        return needs;
      },
      execute: async (input, { toolCallId, abortSignal }) => {
        const scheduler = new CoreToolScheduler({
          ...options.scheduler,
          config,
          toolRegistry: registry,
          // The AI SDK only executes a call that needed approval once the person gave it.
          onConfirmationRequest: async (waiting) => ({
            outcome: approved.delete(waiting.request.callId)
              ? ToolConfirmationOutcome.ProceedOnce
              : ToolConfirmationOutcome.Cancel,
          }),
        });
        const [done] = await scheduler.schedule(
          call(input, toolCallId),
          abortSignal ?? new AbortController().signal,
        );
        return {
          status: done?.status ?? 'error',
          responseParts: done?.response.responseParts ?? [],
          display: done?.response.resultDisplay,
        };
      },
      toModelOutput: ({ output }) => toAISDKModelOutput(output, { modalities }),
    };
  }
  return tools;
}

/** The model's side of an execute result, in the AI SDK's tool output format. */
export function toAISDKModelOutput(
  output: AISDKToolOutput,
  options: { modalities?: ReturnType<typeof resolveModalities> } = {},
): AISDKModelOutput {
  const [result] = collectToolOutputs(output.responseParts);
  if (!result) return { type: 'error-text', value: 'Error: the call produced no result.' };
  const { files, notes } = prepareCallMedia(result, AI_SDK_MEDIA, options.modalities);
  const texts = [result.text, ...notes];
  const media: Extract<AISDKModelOutput, { type: 'content' }>['value'] = files.map((file) =>
    file.kind === 'image'
      ? { type: 'image-data', data: file.data, mediaType: file.mimeType }
      : { type: 'file-data', data: file.data, mediaType: file.mimeType, filename: file.filename },
  );
  const text = texts.filter(Boolean).join('\n');
  if (result.isError && media.length === 0) return { type: 'error-text', value: text };
  return { type: 'content', value: [{ type: 'text', text }, ...media] };
}
