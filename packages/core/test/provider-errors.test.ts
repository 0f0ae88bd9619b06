/**
 * Each family's error answers as the APIs word them (bodies typed with the official SDKs),
 * against scripted servers on 127.0.0.1: the cause named from the structured error, a
 * request that names itself as the problem not sent again, and the wait the server asks
 * for honoured (and shown) up to the cap, past which the client stops and says so.
 */
import type { ErrorResponse } from '@anthropic-ai/sdk/resources/shared';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../src/agent/agent-events.js';
import { ModelError } from '../src/models/model-errors.js';
import type { ModelStreamEvent } from '../src/models/model-types.js';
import { responsesEvents } from './helpers/provider-events-responses.js';
import { type ProviderHarness, startProviderHarness } from './helpers/provider-harness.js';
import type { ApiFamily, ProviderStep } from './helpers/provider-servers.js';

let harness: ProviderHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});
const never = () => new AbortController().signal;

async function fails(family: ApiFamily, script: ProviderStep[]) {
  harness = await startProviderHarness(family, script);
  const events: ModelStreamEvent[] = [];
  const error = await harness.model
    .generate(
      { messages: [{ role: 'user', content: 'hi' }] },
      { signal: never(), onEvent: (event) => events.push(event) },
    )
    .catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ModelError);
  return { error: error as ModelError, events, requests: harness.server.requests.length };
}

const anthropicBody = (message: string): ErrorResponse => ({
  type: 'error',
  error: { type: 'invalid_request_error', message },
  request_id: 'req_1',
});

describe('errors named from the structured body', () => {
  it('Anthropic: tool_use without tool_result is the history, not the tools', async () => {
    const { error, requests } = await fails('anthropic', [
      {
        status: 400,
        message: '',
        body: anthropicBody(
          'messages.2: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
        ),
      },
    ]);
    expect(error.kind).toBe('history_rejected');
    expect(error.message).toMatch(/refused the conversation's order \(messages\.2\)/);
    expect(error.message).not.toMatch(/does not accept tool declarations/);
    expect(requests).toBe(1);
  });

  it('Anthropic: a refused tool name is named as such', async () => {
    const { error } = await fails('anthropic', [
      {
        status: 400,
        message: '',
        body: anthropicBody(
          "tools.3.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'",
        ),
      },
    ]);
    expect(error.kind).toBe('invalid_tool_name');
    expect(error.message).toMatch(/refused a tool's name \(tools\.3\.custom\.name\)/);
  });

  it('Gemini: the function-turn rule is the history, not the tools', async () => {
    const { error, requests } = await fails('gemini', [
      {
        status: 400,
        message:
          'Please ensure that function call turn comes immediately after a user turn or after a function response turn.',
      },
    ]);
    expect(error.kind).toBe('history_rejected');
    expect(error.message).not.toMatch(/does not accept tool declarations/);
    expect(requests).toBe(1);
  });

  it('Gemini: an invalid function name from the field violation', async () => {
    const { error } = await fails('gemini', [
      {
        status: 400,
        message: 'Invalid JSON payload received.',
        body: {
          error: {
            code: 400,
            message: 'Invalid JSON payload received.',
            status: 'INVALID_ARGUMENT',
            details: [
              {
                '@type': 'type.googleapis.com/google.rpc.BadRequest',
                fieldViolations: [
                  {
                    field: 'tools[0].function_declarations[4].name',
                    description: 'Invalid function name.',
                  },
                ],
              },
            ],
          },
        },
      },
    ]);
    expect(error.kind).toBe('invalid_tool_name');
    expect(error.message).toContain('tools[0].function_declarations[4].name');
  });

  it('Responses: a function call without its output is the history', async () => {
    const { error, requests } = await fails('responses', [
      {
        status: 400,
        message: '',
        body: {
          error: {
            message: 'No tool output found for function call call_abc.',
            type: 'invalid_request_error',
            param: 'input',
            code: null,
          },
        },
      },
    ]);
    expect(error.kind).toBe('history_rejected');
    expect(requests).toBe(1);
  });

  it('Responses: a response.failed for invalid_prompt is not retried', async () => {
    const base = responsesEvents({ text: 'x' }).map((sse) => sse.data as ResponseStreamEvent);
    const created = base[0]! as Extract<ResponseStreamEvent, { type: 'response.created' }>;
    const failed: ResponseStreamEvent = {
      type: 'response.failed',
      sequence_number: 1,
      response: {
        ...created.response,
        status: 'failed',
        error: { code: 'invalid_prompt', message: 'Invalid prompt: flagged.' },
      },
    };
    const { error, requests } = await fails('responses', [
      { events: [created, failed].map((data) => ({ event: data.type, data })) },
    ]);
    expect(error.kind).toBe('invalid_request');
    expect(error.message).toMatch(/\(invalid_prompt\).*Invalid prompt: flagged\./);
    expect(error.message).not.toMatch(/overloaded/);
    expect(requests).toBe(1);
  });

  it('Responses: an error event is an API error, retried as its code allows', async () => {
    const { error, events, requests } = await fails('responses', [
      { streamError: { status: 429, message: 'Rate limit reached for requests.' } },
      { streamError: { status: 429, message: 'Rate limit reached for requests.' } },
      { streamError: { status: 429, message: 'Rate limit reached for requests.' } },
    ]);
    expect(error).toMatchObject({ kind: 'http', status: 429 });
    expect(error.message).toMatch(/Rate limit reached.*keeps limiting the rate/);
    expect(error.message).not.toMatch(/reachable|broke off/);
    expect(events.filter((event) => event.type === 'retry')).toHaveLength(2);
    expect(requests).toBe(3);
  });
});

describe('retry delays the server asks for', () => {
  const geminiQuota = (retryDelay: string) => ({
    error: {
      code: 429,
      message: 'You exceeded your current quota.',
      status: 'RESOURCE_EXHAUSTED',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
          violations: [{ quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier' }],
        },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay },
      ],
    },
  });

  it('Gemini: waits the RetryInfo delay in a 429 body, and shows it', async () => {
    harness = await startProviderHarness('gemini', [
      { status: 429, message: '', body: geminiQuota('1s') },
      { text: 'Now it works.' },
    ]);
    const result = await harness.loop().run('hi', never());
    expect(result).toMatchObject({ status: 'success', text: 'Now it works.' });
    const retry = harness.events.find(
      (event): event is Extract<AgentEvent, { type: 'retry' }> => event.type === 'retry',
    );
    expect(retry).toMatchObject({ delayMs: 1000 });
    expect(retry?.reason).toMatch(/asked to wait 1\.0 s/);
  });

  it('Gemini: a delay past the cap is not waited for, and the message says how long', async () => {
    const { error, requests } = await fails('gemini', [
      { status: 429, message: '', body: geminiQuota('3600s') },
    ]);
    expect(error.kind).toBe('quota');
    expect(error.message).toMatch(/asks to wait 3600 s before trying again.*\(60 s\)/);
    expect(requests).toBe(1);
  });

  it('Anthropic: retry-after honoured; x-should-retry: false is not retried', async () => {
    harness = await startProviderHarness('anthropic', [
      { status: 429, message: 'Rate limited.', headers: { 'retry-after': '1' } },
      { text: 'Fine.' },
    ]);
    const events: ModelStreamEvent[] = [];
    const ok = await harness.model.generate(
      { messages: [{ role: 'user', content: 'hi' }] },
      { signal: never(), onEvent: (event) => events.push(event) },
    );
    expect(ok.text).toBe('Fine.');
    expect(events.find((event) => event.type === 'retry')).toMatchObject({ delayMs: 1000 });
    await harness.close();
    const { error, requests } = await fails('anthropic', [
      { status: 500, message: 'Internal.', headers: { 'x-should-retry': 'false' } },
    ]);
    expect(error).toMatchObject({ kind: 'http', status: 500 });
    expect(requests).toBe(1);
  });

  it('OpenAI quota (insufficient_quota) is not retried', async () => {
    const { error, requests } = await fails('responses', [
      {
        status: 429,
        message: '',
        body: {
          error: {
            message: 'You exceeded your current quota.',
            type: 'insufficient_quota',
            param: null,
            code: 'insufficient_quota',
          },
        },
      },
    ]);
    expect(error.kind).toBe('quota');
    expect(error.message).toMatch(/quota is spent \(insufficient_quota\)/);
    expect(requests).toBe(1);
  });
});
