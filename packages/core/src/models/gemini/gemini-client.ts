/**
 * The Gemini API (generativelanguage.googleapis.com, or a compatible address), spoken with
 * fetch: `models/{model}:streamGenerateContent?alt=sse`, each event a whole
 * GenerateContentResponse whose parts are added to one ModelResponse: text, thoughts
 * (`thought: true`) and `functionCall` parts, which arrive whole and get an id here when
 * Gemini gives none. Thought signatures are kept by call id for the requests that follow.
 * The context window is asked of `models/{model}` (`inputTokenLimit`).
 */
import { randomUUID } from 'node:crypto';
import type { ModelEndpoint } from '../endpoint.js';
import type { ModelRequest, ModelResponse } from '../model-types.js';
import { RequestOptions } from '../request-options.js';
import { StreamAssembler } from '../stream-assembler.js';
import { GEMINI_BUDGETS } from '../thinking.js';
import { estimateUsage } from '../usage-estimate.js';
import { postEventStream } from '../wire/http-stream.js';
import type { AttemptOptions, WireClient } from '../wire/wire-client.js';
import { type GeminiPart, toGeminiBody } from './gemini-contents.js';

/** The finish reasons that mean a safety system (or a recitation check) stopped the answer. */
const SAFETY_STOP = /SAFETY|RECITATION|BLOCKLIST|PROHIBITED|SPII/;

/** Why an answer ended, in Chat Completions' words. */
function finishReasonOf(reason: string, calledTools: boolean): string {
  if (reason === 'MAX_TOKENS') return 'length';
  if (SAFETY_STOP.test(reason)) return 'content_filter';
  return calledTools ? 'tool_calls' : 'stop';
}

interface GeminiChunk {
  candidates?: Array<{
    content?: { parts?: GeminiPart[] };
    finishReason?: string;
    finishMessage?: string;
  }>;
  usageMetadata?: {
    promptTokenCount?: number;
    candidatesTokenCount?: number;
    thoughtsTokenCount?: number;
    cachedContentTokenCount?: number;
  };
  modelVersion?: string;
  promptFeedback?: { blockReason?: string; blockReasonMessage?: string };
}

export class GeminiClient implements WireClient {
  readonly keyHint = "GEMINI_API_KEY (or GOOGLE_API_KEY) or the model's key in settings";
  private readonly requestOptions: RequestOptions;
  /** Thought signatures by tool-call id, to send back with the calls. */
  private readonly signatures = new Map<string, string>();
  /** The call ids Gemini gave, sent back in functionCall.id and functionResponse.id. */
  private readonly givenIds = new Set<string>();

  constructor(
    private readonly endpoint: ModelEndpoint,
    private readonly headers: Record<string, string> = {},
  ) {
    this.requestOptions = new RequestOptions(endpoint);
  }

  adaptTo(caught: unknown): boolean {
    return this.requestOptions.adaptTo(caught, false);
  }

  /** The API root with its version (`…/v1beta` unless the address names one). */
  private root(): string {
    const base = this.endpoint.baseUrl.replace(/\/+$/, '');
    return /\/v1(beta|alpha)?\d*$/.test(base) ? base : `${base}/v1beta`;
  }

  private modelPath(model: string): string {
    return `models/${encodeURIComponent(model.replace(/^models\//, ''))}`;
  }

  async askContextWindow(signal?: AbortSignal): Promise<number | undefined> {
    const signals = [AbortSignal.timeout(3_000), ...(signal ? [signal] : [])];
    const response = await fetch(`${this.root()}/${this.modelPath(this.endpoint.model)}`, {
      headers: { 'x-goog-api-key': this.endpoint.apiKey, ...this.headers },
      signal: AbortSignal.any(signals),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    const limit = ((await response.json()) as { inputTokenLimit?: unknown }).inputTokenLimit;
    return typeof limit === 'number' && limit > 0 ? limit : undefined;
  }

  async attempt(request: ModelRequest, options: AttemptOptions): Promise<ModelResponse> {
    const model = request.model ?? this.endpoint.model;
    const thinking = this.requestOptions.thinking();
    const body = toGeminiBody(
      request,
      this.requestOptions.outputTokens(request),
      this.signatures,
      this.givenIds,
      thinking && GEMINI_BUDGETS[thinking],
    );
    const assembler = new StreamAssembler(options.onEvent);
    const events = postEventStream({
      url: `${this.root()}/${this.modelPath(model)}:streamGenerateContent?alt=sse`,
      headers: { 'x-goog-api-key': this.endpoint.apiKey, ...this.headers },
      body,
      signal: options.signal,
      timeoutMs: this.endpoint.timeoutMs,
    });
    let calls = 0;
    let finish: string | undefined;
    let blocked: { reason: string; message?: string } | undefined;
    let finishMessage: string | undefined;
    for await (const data of events) {
      const chunk = data as GeminiChunk;
      if (chunk.modelVersion) assembler.setModel(chunk.modelVersion);
      const feedback = chunk.promptFeedback;
      if (feedback?.blockReason)
        blocked = {
          reason: feedback.blockReason,
          ...(feedback.blockReasonMessage ? { message: feedback.blockReasonMessage } : {}),
        };
      const candidate = chunk.candidates?.[0];
      for (const part of candidate?.content?.parts ?? []) {
        if (part.functionCall) {
          const id = part.functionCall.id || `call_${randomUUID().slice(0, 12)}`;
          if (part.functionCall.id) this.givenIds.add(id);
          if (part.thoughtSignature) this.signatures.set(id, part.thoughtSignature);
          assembler.addDelta({
            tool_calls: [
              {
                index: calls++,
                id,
                function: { name: part.functionCall.name, arguments: part.functionCall.args ?? {} },
              },
            ],
          });
        } else if (typeof part.text === 'string' && part.text) {
          assembler.addDelta(
            part.thought ? { reasoning_content: part.text } : { content: part.text },
          );
        }
      }
      if (candidate?.finishReason) finish = candidate.finishReason;
      if (candidate?.finishMessage) finishMessage = candidate.finishMessage;
      const usage = chunk.usageMetadata;
      if (usage?.promptTokenCount !== undefined) {
        const cached = usage.cachedContentTokenCount ?? 0;
        assembler.setReportedUsage({
          inputTokens: usage.promptTokenCount,
          outputTokens: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
          ...(cached > 0 ? { cachedInputTokens: cached } : {}),
        });
      }
    }
    if (blocked && !finish) {
      finish = 'SAFETY';
      assembler.setStop({
        kind: 'safety',
        reason: blocked.reason,
        promptBlocked: true,
        ...(blocked.message ? { detail: blocked.message } : {}),
      });
    } else if (finish && SAFETY_STOP.test(finish)) {
      assembler.setStop({
        kind: 'safety',
        reason: finish,
        ...(finishMessage ? { detail: finishMessage } : {}),
      });
    }
    if (!finish)
      throw new Error('the stream ended before the answer was complete (no finishReason)');
    assembler.setFinishReason(finishReasonOf(finish, calls > 0));
    return assembler.finish(model, (response) => estimateUsage(request, response));
  }
}
