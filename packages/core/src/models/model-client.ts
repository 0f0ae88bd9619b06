/**
 * The model client: one object the agent loop, compression, subagents and side requests
 * share, talking to the configured model in its own API (Chat Completions, Anthropic
 * Messages, Gemini, OpenAI Responses: one WireClient each, in chat/, anthropic/, gemini/,
 * responses/). It streams the answer, retries what is worth retrying, reports token usage
 * and turns every failure into one ModelError, the same way for every family; `switchTo`
 * moves the whole session to another configured model.
 *
 * It owns the HTTP exchange only: it knows nothing of tools, the conversation or the
 * person. The agent loop (../agent) builds the messages (Chat Completions shapes, which
 * each wire client converts); the provider adapter converts declarations and results.
 */
import OpenAI from 'openai';
import { AnthropicClient } from './anthropic/anthropic-client.js';
import { afterRetries, httpModelError, waitTooLong } from './api-errors.js';
import { ChatCompletionsClient } from './chat/chat-client.js';
import type { ModelEndpoint } from './endpoint.js';
import { GeminiClient } from './gemini/gemini-client.js';
import { isRetryable, ModelError, type ModelErrorKind } from './model-errors.js';
import type { ModelRequest, ModelResponse, ModelStreamEvent } from './model-types.js';
import { errorDetail } from './request-options.js';
import { ResponsesClient } from './responses/responses-client.js';
import { DEFAULT_RETRY_OPTIONS, type RetryOptions, retryDelay, sleep } from './retry-policy.js';
import { HttpStatusError, NoAnswerInTime, StreamErrorEvent } from './wire/http-stream.js';
import type { WireClient } from './wire/wire-client.js';

export interface ModelClientOptions {
  /** Stream answers (default). Off: one JSON response per request (Chat Completions only). */
  stream?: boolean;
  retry?: Partial<RetryOptions>;
  /** Extra headers for every request. */
  headers?: Record<string, string>;
}

export interface GenerateOptions {
  signal: AbortSignal;
  onEvent?: (event: ModelStreamEvent) => void;
}

/** The client for an endpoint's API family. */
export function wireClientFor(
  endpoint: ModelEndpoint,
  options: ModelClientOptions = {},
): WireClient {
  const headers = { ...endpoint.headers, ...options.headers };
  const extra = Object.keys(headers).length > 0 ? headers : undefined;
  switch (endpoint.provider ?? 'openai') {
    case 'anthropic':
      return new AnthropicClient(endpoint, extra);
    case 'gemini':
      return new GeminiClient(endpoint, extra);
    case 'openai-responses':
      return new ResponsesClient(endpoint, extra);
    default:
      return new ChatCompletionsClient(endpoint, options.stream ?? true, extra);
  }
}

export class ModelClient {
  private current: ModelEndpoint;
  private wire: WireClient;
  private retry: RetryOptions;
  /** Set once the server was asked for its context window. */
  private contextWindowLearned: Promise<void> | undefined;

  constructor(
    endpoint: ModelEndpoint,
    private readonly options: ModelClientOptions = {},
  ) {
    this.current = endpoint;
    this.wire = wireClientFor(endpoint, options);
    this.retry = this.retryFor(endpoint);
  }

  get endpoint(): ModelEndpoint {
    return this.current;
  }

  get model(): string {
    return this.current.model;
  }

  /** Talks to another model from the next request on; the conversation stays the caller's. */
  switchTo(endpoint: ModelEndpoint): void {
    this.current = endpoint;
    this.wire = wireClientFor(endpoint, this.options);
    this.retry = this.retryFor(endpoint);
    this.contextWindowLearned = undefined;
  }

  private retryFor(endpoint: ModelEndpoint): RetryOptions {
    return { ...DEFAULT_RETRY_OPTIONS, maxRetries: endpoint.maxRetries, ...this.options.retry };
  }

  /**
   * Asks the server for the model's context window once (unless settings gave it) and
   * keeps it in `endpoint.contextWindow`; every request waits for this first. Never rejects.
   */
  learnContextWindow(signal?: AbortSignal): Promise<void> {
    const source = this.current.contextWindowSource;
    if (source !== 'name' && source !== 'default') return Promise.resolve();
    const { wire, current } = this;
    if (!wire.askContextWindow) return Promise.resolve();
    this.contextWindowLearned ??= wire
      .askContextWindow(signal)
      .catch(() => undefined)
      .then((tokens) => {
        if (current !== this.current) return;
        if (tokens) this.adoptContextWindow(tokens);
        // A cancelled question is asked again with the next request.
        else if (signal?.aborted) this.contextWindowLearned = undefined;
      });
    return this.contextWindowLearned;
  }

  /** The server said its context size (a probe, or an error naming it): the guess gives way. */
  private adoptContextWindow(tokens: number): void {
    if (this.current.contextWindowSource === 'settings') return;
    this.current.contextWindow = tokens;
    this.current.contextWindowSource = 'server';
  }

  /**
   * Sends the request, retrying transient failures (waiting as long as the server asked,
   * up to the cap); rejects with one ModelError, which carries the text that had arrived
   * of an answer that broke off.
   */
  async generate(request: ModelRequest, options: GenerateOptions): Promise<ModelResponse> {
    await this.learnContextWindow(options.signal);
    const wire = this.wire;
    let partial = '';
    const attemptOptions: GenerateOptions = {
      ...options,
      onEvent: (event) => {
        if (event.type === 'text') partial += event.text;
        options.onEvent?.(event);
      },
    };
    for (let attempt = 1; ; attempt++) {
      partial = '';
      try {
        return await this.attemptWithoutRejectedOptions(wire, request, attemptOptions);
      } catch (caught) {
        const error = this.toModelError(caught, options.signal, attempt, wire).withPartialText(
          partial,
        );
        if (error.kind === 'context_exceeded' && error.contextSize)
          this.adoptContextWindow(error.contextSize);
        const retriesLeft = attempt <= this.retry.maxRetries;
        if (!isRetryable(error.kind, error.status, error.details)) throw error;
        if (!retriesLeft) throw afterRetries(error);
        const asked = error.details.retryAfterMs;
        if (asked !== undefined && asked > this.retry.maxDelayMs)
          throw waitTooLong(error, asked, this.retry.maxDelayMs);
        const delayMs = retryDelay(attempt, asked, this.retry);
        const reason =
          asked !== undefined
            ? `${error.message} The server asked to wait ${(asked / 1000).toFixed(1)} s.`
            : error.message;
        options.onEvent?.({ type: 'retry', attempt, delayMs, reason });
        try {
          await sleep(delayMs, options.signal);
        } catch {
          throw this.cancelled(attempt);
        }
      }
    }
  }

  /** One attempt, made again while the server refuses an optional part the client can drop. */
  private async attemptWithoutRejectedOptions(
    wire: WireClient,
    request: ModelRequest,
    options: GenerateOptions,
  ): Promise<ModelResponse> {
    for (let adapted = 0; ; adapted++) {
      try {
        return await wire.attempt(request, options);
      } catch (caught) {
        if (adapted >= 3 || options.signal.aborted || !wire.adaptTo?.(caught)) throw caught;
      }
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
    return `${this.current.baseUrl} (model ${this.current.model})`;
  }

  private toModelError(
    caught: unknown,
    signal: AbortSignal,
    attempts: number,
    wire: WireClient,
  ): ModelError {
    if (caught instanceof ModelError) return caught;
    if (signal.aborted) return this.cancelled(attempts);
    const where = this.where();
    const make = (message: string, kind: ModelErrorKind, status?: number) =>
      new ModelError(message, kind, where, status, attempts);
    const seconds = Math.round(this.current.timeoutMs / 1000);
    if (caught instanceof NoAnswerInTime) {
      return caught.started
        ? make(`${where} stopped sending its answer for ${seconds} s.`, 'timeout')
        : make(`${where} did not answer within ${seconds} s.`, 'timeout');
    }
    if (caught instanceof OpenAI.APIConnectionTimeoutError) {
      return make(`${where} did not answer within ${seconds} s.`, 'timeout');
    }
    if (caught instanceof OpenAI.APIConnectionError) {
      const cause = (caught.cause as Error | undefined)?.message ?? caught.message;
      return make(`Could not reach ${where}: ${cause}.`, 'network');
    }
    const family = this.current.provider;
    if (caught instanceof HttpStatusError) {
      const { status, detail, body, headers } = caught;
      return httpModelError(
        { status, detail, body, headers, family },
        where,
        attempts,
        wire.keyHint,
      );
    }
    if (caught instanceof StreamErrorEvent) {
      // An error the API reported inside its answer: an API error, not a broken connection.
      const { detail, body } = caught;
      const status = caught.status ?? 500;
      return httpModelError({ status, detail, body, family }, where, attempts, wire.keyHint);
    }
    if (caught instanceof TypeError && caught.message === 'fetch failed') {
      const cause = (caught.cause as Error | undefined)?.message ?? caught.message;
      return make(`Could not reach ${where}: ${cause}.`, 'network');
    }
    if (caught instanceof OpenAI.APIError) {
      // An error inside a stream has no HTTP status; llama-server's `code` stands for one.
      const code = (caught.error as { code?: unknown } | undefined)?.code;
      const status = caught.status ?? (typeof code === 'number' ? code : undefined);
      if (status !== undefined) {
        const { headers } = caught;
        const answer = { status, detail: errorDetail(caught), body: caught.error, headers, family };
        return httpModelError(answer, where, attempts, wire.keyHint);
      }
    }
    const message = caught instanceof Error ? caught.message : String(caught);
    // A connection reset in the middle of a stream surfaces as a plain error.
    return make(`The answer from ${where} broke off: ${message}`, 'network');
  }
}
