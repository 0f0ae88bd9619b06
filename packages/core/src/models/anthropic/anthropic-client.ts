/**
 * Anthropic Messages (api.anthropic.com, and the Anthropic-compatible endpoints of DeepSeek,
 * Moonshot, llama.cpp and others), spoken with fetch: `POST /v1/messages` streamed as
 * server-sent events, read into the same ModelResponse as every other family. Text,
 * `tool_use` blocks (their input arriving as JSON fragments) and `thinking` blocks are
 * kept apart; usage counts the whole prompt, including what was read from and written to
 * the prompt cache, whose breakpoints anthropic-messages.ts sets.
 */
import type { ModelEndpoint } from '../endpoint.js';
import type { ModelRequest, ModelResponse } from '../model-types.js';
import { RequestOptions } from '../request-options.js';
import { StreamAssembler } from '../stream-assembler.js';
import { anthropicThinking } from '../thinking.js';
import { estimateUsage } from '../usage-estimate.js';
import { postEventStream } from '../wire/http-stream.js';
import type { AttemptOptions, WireClient } from '../wire/wire-client.js';
import { type ThinkingBlock, toAnthropicBody } from './anthropic-messages.js';

export const ANTHROPIC_VERSION = '2023-06-01';

/** The HTTP status each of Anthropic's error types stands for (in-stream errors carry none). */
const ERROR_STATUS: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  billing_error: 402,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

const STOP_REASONS: Readonly<Record<string, string>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  refusal: 'content_filter',
  pause_turn: 'stop',
  model_context_window_exceeded: 'length',
};

interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

/** The stream events this reads (the rest, `ping` and `content_block_stop`, need nothing). */
type AnthropicEvent =
  | { type: 'message_start'; message: { model?: string; usage?: AnthropicUsage } }
  | {
      type: 'content_block_start';
      index: number;
      content_block: {
        type: string;
        id?: string;
        name?: string;
        text?: string;
        thinking?: string;
        signature?: string;
        data?: string;
        input?: unknown;
      };
    }
  | {
      type: 'content_block_delta';
      index: number;
      delta: {
        type: string;
        text?: string;
        partial_json?: string;
        thinking?: string;
        signature?: string;
      };
    }
  | { type: 'content_block_stop'; index: number }
  | { type: 'message_delta'; delta: { stop_reason?: string | null }; usage?: AnthropicUsage }
  | { type: 'message_stop' };

export class AnthropicClient implements WireClient {
  readonly keyHint = "ANTHROPIC_API_KEY or the model's key in settings";
  private readonly requestOptions: RequestOptions;
  /** Thinking blocks by the first call id of the turn they led to, sent back with it. */
  private readonly thinkingBlocks = new Map<string, ThinkingBlock[]>();

  constructor(
    private readonly endpoint: ModelEndpoint,
    private readonly headers: Record<string, string> = {},
  ) {
    this.requestOptions = new RequestOptions(endpoint);
  }

  adaptTo(caught: unknown): boolean {
    return this.requestOptions.adaptTo(caught, false);
  }

  /** `…/v1/messages` whether the address given ends in /v1 or not. */
  private url(): string {
    const base = this.endpoint.baseUrl.replace(/\/+$/, '');
    return /\/v1$/.test(base) ? `${base}/messages` : `${base}/v1/messages`;
  }

  async attempt(request: ModelRequest, options: AttemptOptions): Promise<ModelResponse> {
    const model = request.model ?? this.endpoint.model;
    const maxTokens = this.requestOptions.outputTokens(request);
    const body = toAnthropicBody(request, model, maxTokens, {
      param: anthropicThinking(this.requestOptions.thinking(), maxTokens),
      blocks: this.thinkingBlocks,
    });
    /** This answer's thinking blocks by block index, in order. */
    const thinking = new Map<number, ThinkingBlock>();
    const callIds: string[] = [];
    const assembler = new StreamAssembler(options.onEvent);
    /**
     * Tool-use blocks by their block index, with whether input JSON arrived for them and the
     * input the block started with (the API starts with `{}`; some gateways give it whole).
     */
    const toolBlocks = new Map<number, { call: number; gotInput: boolean; startInput: unknown }>();
    let usage: AnthropicUsage = {};
    const events = postEventStream({
      url: this.url(),
      headers: {
        'x-api-key': this.endpoint.apiKey,
        'anthropic-version': ANTHROPIC_VERSION,
        accept: 'text/event-stream',
        ...this.headers,
      },
      body,
      signal: options.signal,
      timeoutMs: this.endpoint.timeoutMs,
      statusOf: (error) => ERROR_STATUS[String(error.type)],
    });
    let stopped = false;
    for await (const data of events) {
      const event = data as AnthropicEvent;
      switch (event.type) {
        case 'message_start':
          if (event.message.model) assembler.setModel(event.message.model);
          usage = { ...event.message.usage };
          break;
        case 'content_block_start': {
          const block = event.content_block;
          if (block.type === 'tool_use') {
            const call = toolBlocks.size;
            if (block.id) callIds.push(block.id);
            toolBlocks.set(event.index, { call, gotInput: false, startInput: block.input });
            assembler.addDelta({
              tool_calls: [
                { index: call, id: block.id ?? null, function: { name: block.name ?? '' } },
              ],
            });
          } else if (block.type === 'text' && block.text) {
            assembler.addDelta({ content: block.text });
          } else if (block.type === 'thinking') {
            thinking.set(event.index, {
              type: 'thinking',
              thinking: block.thinking ?? '',
              signature: block.signature ?? '',
            });
            if (block.thinking) assembler.addDelta({ reasoning_content: block.thinking });
          } else if (block.type === 'redacted_thinking' && block.data) {
            thinking.set(event.index, { type: 'redacted_thinking', data: block.data });
          }
          break;
        }
        case 'content_block_delta': {
          const delta = event.delta;
          if (delta.type === 'text_delta' && delta.text)
            assembler.addDelta({ content: delta.text });
          else if (delta.type === 'thinking_delta' && delta.thinking) {
            const block = thinking.get(event.index);
            if (block?.type === 'thinking') block.thinking += delta.thinking;
            assembler.addDelta({ reasoning_content: delta.thinking });
          } else if (delta.type === 'signature_delta' && delta.signature) {
            const block = thinking.get(event.index);
            if (block?.type === 'thinking') block.signature += delta.signature;
          } else if (delta.type === 'input_json_delta') {
            const block = toolBlocks.get(event.index);
            if (block && delta.partial_json) {
              block.gotInput = true;
              assembler.addDelta({
                tool_calls: [{ index: block.call, function: { arguments: delta.partial_json } }],
              });
            }
          }
          break;
        }
        case 'content_block_stop': {
          const block = toolBlocks.get(event.index);
          // A tool called without input streams no JSON at all; a gateway may have given it whole.
          if (block && !block.gotInput)
            assembler.addDelta({
              tool_calls: [
                { index: block.call, function: { arguments: wholeInput(block.startInput) } },
              ],
            });
          break;
        }
        case 'message_delta':
          if (event.delta.stop_reason)
            assembler.setFinishReason(
              STOP_REASONS[event.delta.stop_reason] ?? event.delta.stop_reason,
            );
          if (event.delta.stop_reason === 'refusal')
            assembler.setStop({ kind: 'refusal', reason: 'refusal' });
          usage = { ...usage, ...definedOnly(event.usage ?? {}) };
          break;
        case 'message_stop':
          stopped = true;
          break;
      }
    }
    if (!stopped || !assembler.finished) {
      throw new Error('the stream ended before the answer was complete (no message_stop)');
    }
    const signed = [...thinking.values()].filter(
      (block) => block.type === 'redacted_thinking' || block.signature,
    );
    if (callIds[0] && signed.length > 0) this.thinkingBlocks.set(callIds[0], signed);
    if (usage.input_tokens !== undefined && usage.input_tokens !== null) {
      const read = usage.cache_read_input_tokens ?? 0;
      const written = usage.cache_creation_input_tokens ?? 0;
      assembler.setReportedUsage({
        inputTokens: usage.input_tokens + read + written,
        outputTokens: usage.output_tokens ?? 0,
        ...(read > 0 ? { cachedInputTokens: read } : {}),
        ...(written > 0 ? { cacheCreationInputTokens: written } : {}),
      });
    }
    return assembler.finish(model, (response) => estimateUsage(request, response));
  }
}

/** The JSON text of a tool input a block started with (`{}` when it gave none). */
function wholeInput(input: unknown): string {
  return input && typeof input === 'object' && !Array.isArray(input) ? JSON.stringify(input) : '{}';
}

function definedOnly(usage: AnthropicUsage): AnthropicUsage {
  return Object.fromEntries(
    Object.entries(usage).filter(([, value]) => value !== undefined && value !== null),
  ) as AnthropicUsage;
}
