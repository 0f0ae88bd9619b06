/**
 * The model client: sends Chat Completions requests to one OpenAI-compatible endpoint
 * (vLLM, Ollama, llama.cpp, DashScope, OpenRouter, OpenAI) through the `openai` package,
 * streams the answer, retries what is worth retrying and reports token usage.
 *
 * It owns the HTTP exchange only: it knows nothing of tools, the conversation or the
 * person. The agent loop (../agent) builds the messages; the provider adapter converts
 * declarations and results. Retries are its own (the SDK's are off) so that a stalled
 * stream is retried too and a front end hears about every wait.
 */
import OpenAI from 'openai';
import { afterRetries, httpModelError } from './api-errors.js';
import { learnContextWindow } from './context-window.js';
import type { ModelEndpoint } from './endpoint.js';
import { isRetryable, ModelError, type ModelErrorKind } from './model-errors.js';
import type { ModelRequest, ModelResponse, ModelStreamEvent } from './model-types.js';
import { errorDetail, RequestOptions } from './request-options.js';
import {
  DEFAULT_RETRY_OPTIONS,
  parseRetryAfter,
  type RetryOptions,
  retryDelay,
  sleep,
} from './retry-policy.js';
import { fetchWithStreamErrors } from './sse-errors.js';
import { StreamAssembler } from './stream-assembler.js';
import { estimateJsonTokens, estimateTokens, type TokenUsage } from './token-usage.js';

export interface ModelClientOptions {
  /** Stream answers (default). Off: one JSON response per request. */
  stream?: boolean;
  retry?: Partial<RetryOptions>;
  /** Extra headers for every request. */
  headers?: Record<string, string>;
}

export interface GenerateOptions {
  signal: AbortSignal;
  onEvent?: (event: ModelStreamEvent) => void;
}

/** Marks an attempt aborted because the stream went quiet for too long. */
class StallTimeout extends Error {}

export class ModelClient {
  readonly endpoint: ModelEndpoint;
  private readonly client: OpenAI;
  private readonly stream: boolean;
  private readonly retry: RetryOptions;
  /** What the session learned about optional request fields (usage, answer length). */
  private readonly requestOptions: RequestOptions;
  /** Set once the server was asked for its context window. */
  private contextWindowLearned: Promise<void> | undefined;

  constructor(endpoint: ModelEndpoint, options: ModelClientOptions = {}) {
    this.endpoint = endpoint;
    this.stream = options.stream ?? true;
    this.retry = { ...DEFAULT_RETRY_OPTIONS, maxRetries: endpoint.maxRetries, ...options.retry };
    this.requestOptions = new RequestOptions(endpoint);
    this.client = new OpenAI({
      baseURL: endpoint.baseUrl,
      apiKey: endpoint.apiKey,
      maxRetries: 0,
      timeout: endpoint.timeoutMs,
      fetch: fetchWithStreamErrors(),
      ...(options.headers ? { defaultHeaders: options.headers } : {}),
    });
  }

  get model(): string {
    return this.endpoint.model;
  }

  /**
   * Asks the server for the model's context window once (unless settings gave it) and
   * keeps it in `endpoint.contextWindow`; every request waits for this first. Never rejects.
   */
  learnContextWindow(signal?: AbortSignal): Promise<void> {
    const source = this.endpoint.contextWindowSource;
    if (source !== 'name' && source !== 'default') return Promise.resolve();
    this.contextWindowLearned ??= learnContextWindow({
      baseUrl: this.endpoint.baseUrl,
      model: this.endpoint.model,
      apiKey: this.endpoint.apiKey,
      ...(signal ? { signal } : {}),
    }).then((learned) => {
      if (learned) this.adoptContextWindow(learned.tokens);
      // A cancelled question is asked again with the next request.
      else if (signal?.aborted) this.contextWindowLearned = undefined;
    });
    return this.contextWindowLearned;
  }

  /** The server said its context size (a probe, or an error naming it): the guess gives way. */
  private adoptContextWindow(tokens: number): void {
    if (this.endpoint.contextWindowSource === 'settings') return;
    this.endpoint.contextWindow = tokens;
    this.endpoint.contextWindowSource = 'server';
  }

  /** Sends the request, retrying transient failures; rejects with one ModelError. */
  async generate(request: ModelRequest, options: GenerateOptions): Promise<ModelResponse> {
    await this.learnContextWindow(options.signal);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attemptWithoutRejectedOptions(request, options);
      } catch (caught) {
        const error = this.toModelError(caught, options.signal, attempt);
        if (error.kind === 'context_exceeded' && error.contextSize)
          this.adoptContextWindow(error.contextSize);
        const retriesLeft = attempt <= this.retry.maxRetries;
        if (!isRetryable(error.kind, error.status)) throw error;
        if (!retriesLeft) throw afterRetries(error);
        const headers = caught instanceof OpenAI.APIError ? caught.headers : undefined;
        const delayMs = retryDelay(attempt, parseRetryAfter(headers), this.retry);
        options.onEvent?.({ type: 'retry', attempt, delayMs, reason: error.message });
        try {
          await sleep(delayMs, options.signal);
        } catch {
          throw this.cancelled(attempt);
        }
      }
    }
  }

  /**
   * One attempt, made again while the server refuses an optional field it names
   * (`stream_options`, the answer length) and the session adapts to it.
   */
  private async attemptWithoutRejectedOptions(
    request: ModelRequest,
    options: GenerateOptions,
  ): Promise<ModelResponse> {
    for (let adapted = 0; ; adapted++) {
      try {
        return await this.attempt(request, options);
      } catch (caught) {
        if (adapted >= 3 || !this.requestOptions.adaptTo(caught, this.stream)) throw caught;
      }
    }
  }

  private async attempt(request: ModelRequest, options: GenerateOptions): Promise<ModelResponse> {
    const controller = new AbortController();
    const forward = () => controller.abort(options.signal.reason);
    if (options.signal.aborted) forward();
    options.signal.addEventListener('abort', forward, { once: true });
    const assembler = new StreamAssembler(options.onEvent);
    const body = {
      model: request.model ?? this.endpoint.model,
      messages: request.messages,
      ...(request.tools && request.tools.length > 0 ? { tools: request.tools } : {}),
      ...this.requestOptions.lengthField(request),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    };
    try {
      if (!this.stream) {
        const response = await this.client.chat.completions.create(
          { ...body, stream: false },
          { signal: controller.signal },
        );
        assembler.addMessage(response);
      } else {
        const stream = await this.client.chat.completions.create(
          {
            ...body,
            stream: true,
            ...(this.requestOptions.askForUsage ? { stream_options: { include_usage: true } } : {}),
          },
          { signal: controller.signal },
        );
        await this.readStream(stream, assembler, controller);
      }
      return assembler.finish(body.model, (response) => estimateUsage(request, response));
    } finally {
      options.signal.removeEventListener('abort', forward);
    }
  }

  /** Reads the chunks, aborting the attempt when none arrives within the time limit. */
  private async readStream(
    stream: AsyncIterable<Parameters<StreamAssembler['addChunk']>[0]>,
    assembler: StreamAssembler,
    controller: AbortController,
  ): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () => controller.abort(new StallTimeout('the stream stalled')),
        this.endpoint.timeoutMs,
      );
    };
    arm();
    try {
      for await (const chunk of stream) {
        arm();
        assembler.addChunk(chunk);
      }
    } catch (error) {
      if (controller.signal.reason instanceof StallTimeout) throw controller.signal.reason;
      throw error;
    } finally {
      clearTimeout(timer);
    }
    if (controller.signal.reason instanceof StallTimeout) throw controller.signal.reason;
    if (!assembler.finished) {
      throw new Error('the stream ended before the answer was complete (no finish_reason)');
    }
  }

  private cancelled(attempts: number): ModelError {
    return new ModelError(
      'The request was cancelled.',
      'cancelled',
      this.where(),
      undefined,
      attempts,
    );
  }

  private where(): string {
    return `${this.endpoint.baseUrl} (model ${this.endpoint.model})`;
  }

  private toModelError(caught: unknown, signal: AbortSignal, attempts: number): ModelError {
    if (caught instanceof ModelError) return caught;
    if (signal.aborted) return this.cancelled(attempts);
    const where = this.where();
    const make = (message: string, kind: ModelErrorKind, status?: number) =>
      new ModelError(message, kind, where, status, attempts);
    const seconds = Math.round(this.endpoint.timeoutMs / 1000);
    if (caught instanceof StallTimeout) {
      return make(`${where} stopped sending its answer for ${seconds} s.`, 'timeout');
    }
    if (caught instanceof OpenAI.APIConnectionTimeoutError) {
      return make(`${where} did not answer within ${seconds} s.`, 'timeout');
    }
    if (caught instanceof OpenAI.APIConnectionError) {
      const cause = (caught.cause as Error | undefined)?.message ?? caught.message;
      return make(`Could not reach ${where}: ${cause}.`, 'network');
    }
    if (caught instanceof OpenAI.APIError) {
      // An error inside a stream has no HTTP status; llama-server's `code` stands for one.
      const code = (caught.error as { code?: unknown } | undefined)?.code;
      const status = caught.status ?? (typeof code === 'number' ? code : undefined);
      if (status !== undefined) {
        return httpModelError(status, errorDetail(caught), caught.error, where, attempts);
      }
    }
    const message = caught instanceof Error ? caught.message : String(caught);
    // A connection reset in the middle of a stream surfaces as a plain error.
    return make(`The answer from ${where} broke off: ${message}`, 'network');
  }
}

/** Usage when the endpoint reports none: estimated from the request and the answer. */
function estimateUsage(request: ModelRequest, response: ModelResponse): TokenUsage {
  return {
    inputTokens: estimateJsonTokens(request.messages) + estimateJsonTokens(request.tools ?? []),
    outputTokens:
      estimateTokens(response.text) +
      estimateTokens(response.thinking) +
      estimateJsonTokens(response.toolCalls),
    estimated: true,
  };
}
