/**
 * Chat Completions through the `openai` package, for every OpenAI-compatible endpoint
 * (vLLM, Ollama, llama.cpp, DashScope, OpenRouter, OpenAI). The SDK's own retries are off:
 * the model client retries, so that a stalled stream is retried too.
 */
import OpenAI from 'openai';
import { learnContextWindow } from '../context-window.js';
import type { ModelEndpoint } from '../endpoint.js';
import type { ModelRequest, ModelResponse } from '../model-types.js';
import { RequestOptions } from '../request-options.js';
import { fetchWithStreamErrors } from '../sse-errors.js';
import { StreamAssembler } from '../stream-assembler.js';
import { estimateUsage } from '../usage-estimate.js';
import { NoAnswerInTime } from '../wire/http-stream.js';
import type { AttemptOptions, WireClient } from '../wire/wire-client.js';

export class ChatCompletionsClient implements WireClient {
  readonly keyHint = 'OPENAI_API_KEY or model.apiKey';
  private readonly client: OpenAI;
  private readonly requestOptions: RequestOptions;

  constructor(
    private readonly endpoint: ModelEndpoint,
    private readonly stream: boolean,
    headers?: Record<string, string>,
  ) {
    this.requestOptions = new RequestOptions(endpoint);
    this.client = new OpenAI({
      baseURL: endpoint.baseUrl,
      apiKey: endpoint.apiKey,
      maxRetries: 0,
      timeout: endpoint.timeoutMs,
      fetch: fetchWithStreamErrors(),
      ...(headers ? { defaultHeaders: headers } : {}),
    });
  }

  adaptTo(caught: unknown): boolean {
    return this.requestOptions.adaptTo(caught, this.stream);
  }

  async askContextWindow(signal?: AbortSignal): Promise<number | undefined> {
    const learned = await learnContextWindow({
      baseUrl: this.endpoint.baseUrl,
      model: this.endpoint.model,
      apiKey: this.endpoint.apiKey,
      ...(signal ? { signal } : {}),
    });
    return learned?.tokens;
  }

  async attempt(request: ModelRequest, options: AttemptOptions): Promise<ModelResponse> {
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
      ...(this.requestOptions.thinking()
        ? { reasoning_effort: this.requestOptions.thinking() }
        : {}),
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
      timer = setTimeout(() => controller.abort(new NoAnswerInTime(true)), this.endpoint.timeoutMs);
    };
    arm();
    try {
      for await (const chunk of stream) {
        arm();
        assembler.addChunk(chunk);
      }
    } catch (error) {
      if (controller.signal.reason instanceof NoAnswerInTime) throw controller.signal.reason;
      throw error;
    } finally {
      clearTimeout(timer);
    }
    if (controller.signal.reason instanceof NoAnswerInTime) throw controller.signal.reason;
    if (!assembler.finished) {
      throw new Error('the stream ended before the answer was complete (no finish_reason)');
    }
  }
}
