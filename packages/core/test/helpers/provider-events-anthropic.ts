/** Anthropic Messages stream events for a script step, typed with @anthropic-ai/sdk. */

import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { ErrorResponse } from '@anthropic-ai/sdk/resources/shared';
import type { AnswerStep, SseEvent, StreamErrorStep } from './provider-servers.js';

const ERROR_TYPES: Record<number, ErrorResponse['error']['type']> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export function anthropicError(status: number, message: string): ErrorResponse {
  return {
    type: 'error',
    error: { type: ERROR_TYPES[status] ?? 'api_error', message },
    request_id: 'req_test',
  };
}

const sse = (event: RawMessageStreamEvent): SseEvent => ({ event: event.type, data: event });

export function anthropicEvents(step: AnswerStep | StreamErrorStep): SseEvent[] {
  const events: SseEvent[] = [];
  const usage = 'usage' in step ? step.usage : undefined;
  events.push(
    sse({
      type: 'message_start',
      message: {
        id: 'msg_test',
        type: 'message',
        role: 'assistant',
        model: 'claude-scripted',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        container: null,
        stop_details: null,
        diagnostics: null,
        usage: {
          input_tokens: usage?.input ?? 10,
          output_tokens: 1,
          cache_read_input_tokens: usage?.cacheRead ?? null,
          cache_creation_input_tokens: usage?.cacheWrite ?? null,
          cache_creation: null,
          server_tool_use: null,
          service_tier: null,
          inference_geo: null,
          output_tokens_details: null,
          speed: null,
        },
      },
    }),
  );
  let index = 0;
  if ('streamError' in step) {
    if (step.textBefore) events.push(...textBlock(index++, step.textBefore));
    const error = anthropicError(step.streamError.status, step.streamError.message);
    events.push({ event: 'error', data: error });
    return events;
  }
  if (step.thinking) {
    events.push(
      sse({
        type: 'content_block_start',
        index,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      }),
      sse({
        type: 'content_block_delta',
        index,
        delta: { type: 'thinking_delta', thinking: step.thinking },
      }),
      sse({
        type: 'content_block_delta',
        index,
        delta: { type: 'signature_delta', signature: 'sig-1' },
      }),
      sse({ type: 'content_block_stop', index }),
    );
    index++;
  }
  if (step.text) events.push(...textBlock(index++, step.text));
  for (const call of step.toolCalls ?? []) {
    const json = JSON.stringify(call.args);
    const half = Math.floor(json.length / 2);
    events.push(
      sse({
        type: 'content_block_start',
        index,
        content_block: {
          type: 'tool_use',
          id: call.id ?? `toolu_${index}`,
          name: call.name,
          input: {},
          caller: { type: 'direct' },
        },
      }),
      sse({
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: json.slice(0, half) },
      }),
      sse({
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: json.slice(half) },
      }),
      sse({ type: 'content_block_stop', index }),
    );
    index++;
  }
  events.push(
    sse({
      type: 'message_delta',
      delta: {
        stop_reason: step.cutOff ? 'max_tokens' : step.toolCalls?.length ? 'tool_use' : 'end_turn',
        stop_sequence: null,
        container: null,
        stop_details: null,
      },
      usage: {
        output_tokens: usage?.output ?? 5,
        input_tokens: null,
        cache_creation_input_tokens: null,
        cache_read_input_tokens: null,
        server_tool_use: null,
        output_tokens_details: null,
      },
    }),
    sse({ type: 'message_stop' }),
  );
  return events;
}

function textBlock(index: number, text: string): SseEvent[] {
  const middle = Math.ceil(text.length / 2);
  return [
    sse({
      type: 'content_block_start',
      index,
      content_block: { type: 'text', text: '', citations: null },
    }),
    sse({
      type: 'content_block_delta',
      index,
      delta: { type: 'text_delta', text: text.slice(0, middle) },
    }),
    sse({
      type: 'content_block_delta',
      index,
      delta: { type: 'text_delta', text: text.slice(middle) },
    }),
    sse({ type: 'content_block_stop', index }),
  ];
}
