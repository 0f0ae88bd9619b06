import { afterEach, describe, expect, it } from 'vitest';
import type { ModelEndpoint } from '../src/models/endpoint.js';
import { ModelClient } from '../src/models/model-client.js';
import { ModelError } from '../src/models/model-errors.js';
import type { ModelStreamEvent } from '../src/models/model-types.js';
import { type ModelServer, type Script, startModelServer } from './helpers/model-server.js';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientFor(script: Script, options: Partial<ModelEndpoint> = {}, stream = true) {
  server = await startModelServer(script);
  const endpoint: ModelEndpoint = {
    baseUrl: server.baseUrl,
    apiKey: 'test-key',
    model: 'scripted-model',
    contextWindow: 32_000,
    timeoutMs: 5_000,
    maxRetries: 3,
    ...options,
  };
  return new ModelClient(endpoint, { stream, retry: { baseDelayMs: 10 } });
}

const user = [{ role: 'user' as const, content: 'hi' }];

describe('ModelClient', () => {
  it('assembles a streamed answer with reasoning apart, parallel tool calls and usage', async () => {
    const client = await clientFor([
      {
        reasoning: 'Think about which files to read first.',
        text: 'Reading both files now.',
        toolCalls: [
          { name: 'read_file', args: { absolute_path: '/a/one.txt' } },
          { name: 'read_file', args: { absolute_path: '/a/two.txt' } },
        ],
        usage: { prompt_tokens: 120, completion_tokens: 40 },
      },
    ]);
    const events: ModelStreamEvent[] = [];
    const response = await client.generate(
      { messages: user },
      { signal: new AbortController().signal, onEvent: (e) => events.push(e) },
    );
    expect(response.text).toBe('Reading both files now.');
    expect(response.thinking).toBe('Think about which files to read first.');
    expect(response.toolCalls.map((c) => JSON.parse(c.arguments))).toEqual([
      { absolute_path: '/a/one.txt' },
      { absolute_path: '/a/two.txt' },
    ]);
    expect(response.finishReason).toBe('tool_calls');
    expect(response.usage).toEqual({ inputTokens: 120, outputTokens: 40 });
    const texts = events.filter((e) => e.type === 'text').map((e) => (e as { text: string }).text);
    expect(texts.length).toBeGreaterThan(1);
    expect(texts.join('')).toBe('Reading both files now.');
    expect(events.filter((e) => e.type === 'tool_call_started')).toHaveLength(2);
    expect(server!.requests[0]!.body.stream).toBe(true);
    expect(server!.requests[0]!.headers.authorization).toBe('Bearer test-key');
  });

  it('reads a non-streamed answer and estimates usage the endpoint did not send', async () => {
    const client = await clientFor(
      [
        {
          reasoning: 'hmm',
          text: 'Done.',
          toolCalls: [{ name: 'glob', args: { pattern: '*.ts' } }],
        },
      ],
      {},
      false,
    );
    const response = await client.generate(
      { messages: user },
      { signal: new AbortController().signal },
    );
    expect(server!.requests[0]!.body.stream).toBeFalsy();
    expect(response.text).toBe('Done.');
    expect(response.thinking).toBe('hmm');
    expect(response.toolCalls[0]).toMatchObject({ name: 'glob', arguments: '{"pattern":"*.ts"}' });
    expect(response.usage.estimated).toBe(true);
    expect(response.usage.inputTokens).toBeGreaterThan(0);
  });

  it('retries 429 and 500, honouring Retry-After, then succeeds', async () => {
    const client = await clientFor([
      { status: 429, retryAfter: '0.2', message: 'slow down' },
      { status: 500, message: 'boom' },
      { text: 'ok' },
    ]);
    const events: ModelStreamEvent[] = [];
    const response = await client.generate(
      { messages: user },
      { signal: new AbortController().signal, onEvent: (e) => events.push(e) },
    );
    expect(response.text).toBe('ok');
    const retries = events.filter((e) => e.type === 'retry') as Extract<
      ModelStreamEvent,
      { type: 'retry' }
    >[];
    expect(retries.map((r) => r.attempt)).toEqual([1, 2]);
    expect(retries[0]!.delayMs).toBe(200);
    expect(retries[0]!.reason).toContain('429');
    expect(server!.requests).toHaveLength(3);
  });

  it('gives up after the bounded retries with one error naming the endpoint and status', async () => {
    const client = await clientFor(() => ({ status: 503, message: 'overloaded' }), {
      maxRetries: 2,
    });
    const failure = await client
      .generate({ messages: user }, { signal: new AbortController().signal })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelError);
    const error = failure as ModelError;
    expect(error.status).toBe(503);
    expect(error.attempts).toBe(3);
    expect(error.message).toContain(server!.baseUrl);
    expect(error.message).toContain('503');
    expect(error.message).toContain('overloaded');
    expect(error.message).toMatch(/after 3 attempts.*model\.maxRetries/);
    expect(server!.requests).toHaveLength(3);
  });

  it('does not retry a bad request, and says clearly when tools are not accepted', async () => {
    const client = await clientFor([
      { status: 400, message: 'registry.ollama.ai/library/gemma does not support tools' },
    ]);
    const error = (await client
      .generate({ messages: user }, { signal: new AbortController().signal })
      .catch((e: unknown) => e)) as ModelError;
    expect(error.kind).toBe('tools_rejected');
    expect(error.message).toMatch(/does not accept tool declarations/);
    expect(server!.requests).toHaveLength(1);
  });

  it('does not send again a request the server names as invalid: 500 naming the arguments, 422', async () => {
    const client = await clientFor([
      {
        status: 500,
        message: 'Failed to parse tool call arguments as JSON: unexpected end of input',
      },
      { status: 422, message: 'messages.2.content: field required' },
      { text: 'never reached' },
    ]);
    const signal = new AbortController().signal;
    const first = (await client
      .generate({ messages: user }, { signal })
      .catch((e: unknown) => e)) as ModelError;
    expect(first).toMatchObject({ kind: 'invalid_request', status: 500, attempts: 1 });
    expect(first.message).toContain(server!.baseUrl);
    expect(first.message).toContain('HTTP 500');
    expect(first.message).toMatch(/not sent again.*chat template/s);
    const second = (await client
      .generate({ messages: user }, { signal })
      .catch((e: unknown) => e)) as ModelError;
    expect(second).toMatchObject({ kind: 'invalid_request', status: 422, attempts: 1 });
    expect(server!.requests).toHaveLength(2);
  });

  it('reads an error llama-server sends inside a stream after HTTP 200', async () => {
    const client = await clientFor([
      { sseError: { code: 503, message: 'Loading model', type: 'unavailable_error' } },
      { text: 'loaded now' },
      {
        sseError: {
          code: 500,
          message: 'Failed to parse input: the chat template could not be rendered',
          type: 'server_error',
        },
      },
    ]);
    const signal = new AbortController().signal;
    const events: ModelStreamEvent[] = [];
    const ok = await client.generate(
      { messages: user },
      { signal, onEvent: (e) => events.push(e) },
    );
    expect(ok.text).toBe('loaded now');
    expect(events.find((e) => e.type === 'retry')).toMatchObject({
      reason: expect.stringContaining('Loading model'),
    });
    const error = (await client
      .generate({ messages: user }, { signal })
      .catch((e: unknown) => e)) as ModelError;
    expect(error).toMatchObject({ kind: 'invalid_request', status: 500 });
    expect(error.message).toContain('the chat template could not be rendered');
    expect(server!.requests).toHaveLength(3);
  });

  it('leaves stream_options out for the session once the server rejects it', async () => {
    const client = await clientFor((request) =>
      'stream_options' in request.body
        ? { status: 400, message: 'Unrecognized request argument supplied: stream_options' }
        : { text: 'fine without it' },
    );
    const generate = () =>
      client.generate({ messages: user }, { signal: new AbortController().signal });
    const first = await generate();
    expect(first.text).toBe('fine without it');
    expect(first.usage?.estimated).toBe(true);
    const second = await generate();
    expect(second.text).toBe('fine without it');
    const sent = server!.requests.map((r) => 'stream_options' in r.body);
    expect(sent).toEqual([true, false, false]);
  });

  it('asks for usage again after a 400 that does not name the option, and does not retry it', async () => {
    const client = await clientFor([
      { status: 400, message: 'messages: must not be empty' },
      { text: 'ok', usage: { prompt_tokens: 3, completion_tokens: 1 } },
    ]);
    const signal = new AbortController().signal;
    await expect(client.generate({ messages: user }, { signal })).rejects.toMatchObject({
      status: 400,
    });
    expect((await client.generate({ messages: user }, { signal })).usage).toEqual({
      inputTokens: 3,
      outputTokens: 1,
    });
    expect(server!.requests.map((r) => 'stream_options' in r.body)).toEqual([true, true]);
  });

  it('retries a stalled stream and a reset connection', async () => {
    const client = await clientFor(
      [{ stallAfterText: 'Half an ans' }, { reset: true }, { text: 'whole answer' }],
      {
        timeoutMs: 300,
      },
    );
    const events: ModelStreamEvent[] = [];
    const response = await client.generate(
      { messages: user },
      { signal: new AbortController().signal, onEvent: (e) => events.push(e) },
    );
    expect(response.text).toBe('whole answer');
    const reasons = events
      .filter((e) => e.type === 'retry')
      .map((e) => (e as { reason: string }).reason);
    expect(reasons[0]).toMatch(/stopped sending/);
    expect(reasons).toHaveLength(2);
  });

  it('stops at once when cancelled', async () => {
    const client = await clientFor([{ hang: true }]);
    const controller = new AbortController();
    const waitForRequest = setInterval(() => {
      if (server!.requests.length === 1) controller.abort();
    }, 10);
    const error = (await client
      .generate({ messages: user }, { signal: controller.signal })
      .catch((e: unknown) => e)) as ModelError;
    clearInterval(waitForRequest);
    expect(error.kind).toBe('cancelled');
    expect(server!.requests).toHaveLength(1);
  });
});
