/**
 * OpenAI's Responses API (`POST /responses`, streamed), spoken with fetch: text deltas,
 * reasoning deltas (`reasoning_text` and `reasoning_summary_text`) and `function_call`
 * items, whose arguments stream by output index, read into one ModelResponse; usage and
 * the end of the answer come with `response.completed` (or `response.incomplete`).
 * Nothing is stored on the server, so the reasoning items of a turn that called tools are
 * asked for encrypted (`include: ['reasoning.encrypted_content']`) and kept here by the
 * turn's first call id, to go back with those calls. A refusal's text is the answer's text,
 * marked as a refusal; an `error` event or a `response.failed` is an API error with the
 * status its code stands for (only a server error or a rate limit is worth another try).
 */
import { learnContextWindow } from '../context-window.js';
import type { ModelEndpoint } from '../endpoint.js';
import type { ModelRequest, ModelResponse } from '../model-types.js';
import { RequestOptions } from '../request-options.js';
import { StreamAssembler } from '../stream-assembler.js';
import { estimateUsage } from '../usage-estimate.js';
import { HttpStatusError, postEventStream, StreamErrorEvent } from '../wire/http-stream.js';
import type { AttemptOptions, WireClient } from '../wire/wire-client.js';
import { type ReasoningItem, toResponsesBody } from './responses-input.js';

/** The status each error code stands for; the rest (invalid_prompt, image_*) name the request. */
function statusOfCode(code: unknown): number {
  if (code === 'rate_limit_exceeded') return 429;
  if (code === 'server_error' || code === null || code === undefined) return 500;
  if (code === 'vector_store_timeout') return 504;
  return 400;
}

interface ResponseObject {
  model?: string;
  status?: string;
  incomplete_details?: { reason?: string } | null;
  error?: { code?: string; message?: string } | null;
  usage?: {
    input_tokens?: number;
    output_tokens?: number;
    input_tokens_details?: { cached_tokens?: number };
  } | null;
}

type ResponsesEvent =
  | { type: 'response.created' | 'response.in_progress'; response: ResponseObject }
  | { type: 'response.output_text.delta'; delta: string }
  | {
      type: 'response.reasoning_text.delta' | 'response.reasoning_summary_text.delta';
      delta: string;
    }
  | { type: 'response.refusal.delta'; delta: string }
  | {
      type: 'response.output_item.added' | 'response.output_item.done';
      output_index: number;
      item: {
        type: string;
        call_id?: string;
        name?: string;
        arguments?: string;
        id?: string;
        summary?: unknown[];
        encrypted_content?: string | null;
      };
    }
  | { type: 'response.function_call_arguments.delta'; output_index: number; delta: string }
  | {
      type: 'response.completed' | 'response.incomplete' | 'response.failed';
      response: ResponseObject;
    };

export class ResponsesClient implements WireClient {
  readonly keyHint = "OPENAI_API_KEY or the model's key in settings";
  private readonly requestOptions: RequestOptions;
  /** The reasoning items of a turn that called tools, by the turn's first call id. */
  private readonly reasoning = new Map<string, ReasoningItem[]>();
  /** Ask for encrypted reasoning (off once the server refuses the `include`). */
  private askForReasoning = true;

  constructor(
    private readonly endpoint: ModelEndpoint,
    private readonly headers: Record<string, string> = {},
  ) {
    this.requestOptions = new RequestOptions(endpoint);
  }

  adaptTo(caught: unknown): boolean {
    if (
      this.askForReasoning &&
      caught instanceof HttpStatusError &&
      caught.status === 400 &&
      /encrypted_content|\binclude\b/.test(`${caught.detail} ${JSON.stringify(caught.body)}`)
    ) {
      this.askForReasoning = false;
      return true;
    }
    return this.requestOptions.adaptTo(caught, false);
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
    const model = request.model ?? this.endpoint.model;
    const body = toResponsesBody(request, model, this.requestOptions.outputTokens(request), {
      reasoning: this.reasoning,
      include: this.askForReasoning,
      effort: this.requestOptions.thinking(),
    });
    const reasoningItems: ReasoningItem[] = [];
    const callIds: string[] = [];
    let refused = false;
    const assembler = new StreamAssembler(options.onEvent);
    /** Function-call items by output index, as the model's call number. */
    const calls = new Map<number, { index: number; gotArguments: boolean }>();
    const events = postEventStream({
      url: `${this.endpoint.baseUrl.replace(/\/+$/, '')}/responses`,
      headers: { authorization: `Bearer ${this.endpoint.apiKey}`, ...this.headers },
      body,
      signal: options.signal,
      timeoutMs: this.endpoint.timeoutMs,
      statusOf: (error) => statusOfCode(error.code),
    });
    let ended: ResponseObject | undefined;
    for await (const data of events) {
      const event = data as ResponsesEvent;
      switch (event.type) {
        case 'response.output_text.delta':
          assembler.addDelta({ content: event.delta });
          break;
        case 'response.reasoning_text.delta':
        case 'response.reasoning_summary_text.delta':
          assembler.addDelta({ reasoning_content: event.delta });
          break;
        case 'response.refusal.delta':
          refused = true;
          assembler.addDelta({ content: event.delta });
          break;
        case 'response.output_item.added':
          if (event.item.type === 'function_call') {
            if (event.item.call_id) callIds.push(event.item.call_id);
            const call = { index: calls.size, gotArguments: false };
            calls.set(event.output_index, call);
            assembler.addDelta({
              tool_calls: [
                {
                  index: call.index,
                  id: event.item.call_id ?? null,
                  function: { name: event.item.name ?? '' },
                },
              ],
            });
          }
          break;
        case 'response.function_call_arguments.delta': {
          const call = calls.get(event.output_index);
          if (call && event.delta) {
            call.gotArguments = true;
            assembler.addDelta({
              tool_calls: [{ index: call.index, function: { arguments: event.delta } }],
            });
          }
          break;
        }
        case 'response.output_item.done': {
          const { id, summary, encrypted_content } = event.item;
          if (event.item.type === 'reasoning' && id)
            reasoningItems.push({
              type: 'reasoning',
              id,
              summary: (summary ?? []) as ReasoningItem['summary'],
              ...(encrypted_content ? { encrypted_content } : {}),
            });
          // Servers that stream no argument deltas send them whole here.
          const call = calls.get(event.output_index);
          if (call && !call.gotArguments) {
            call.gotArguments = true;
            assembler.addDelta({
              tool_calls: [
                { index: call.index, function: { arguments: event.item.arguments || '{}' } },
              ],
            });
          }
          break;
        }
        case 'response.completed':
        case 'response.incomplete':
          ended = event.response;
          if (event.response.incomplete_details?.reason === 'content_filter')
            assembler.setStop({ kind: 'safety', reason: 'content_filter' });
          break;
        case 'response.failed': {
          const error = event.response.error;
          throw new StreamErrorEvent(
            error?.message ?? 'the response failed',
            error,
            statusOfCode(error?.code),
          );
        }
      }
    }
    if (!ended)
      throw new Error('the stream ended before the answer was complete (no response.completed)');
    if (ended.model) assembler.setModel(ended.model);
    const firstCall = callIds[0];
    if (firstCall && reasoningItems.some((item) => item.encrypted_content))
      this.reasoning.set(firstCall, reasoningItems);
    if (refused) assembler.setStop({ kind: 'refusal', reason: 'refusal' });
    const reason = ended.incomplete_details?.reason;
    assembler.setFinishReason(
      reason === 'max_output_tokens'
        ? 'length'
        : reason === 'content_filter' || refused
          ? 'content_filter'
          : calls.size > 0
            ? 'tool_calls'
            : 'stop',
    );
    const usage = ended.usage;
    if (usage?.input_tokens !== undefined) {
      const cached = usage.input_tokens_details?.cached_tokens ?? 0;
      assembler.setReportedUsage({
        inputTokens: usage.input_tokens,
        outputTokens: usage.output_tokens ?? 0,
        ...(cached > 0 ? { cachedInputTokens: cached } : {}),
      });
    }
    return assembler.finish(model, (response) => estimateUsage(request, response));
  }
}
