import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import { afterEach, describe, expect, it } from 'vitest';
import { toAnthropicBody } from '../src/models/anthropic/anthropic-messages.js';
import { ModelError } from '../src/models/model-errors.js';
import { type ProviderHarness, startProviderHarness } from './helpers/provider-harness.js';
import type { ProviderStep } from './helpers/provider-servers.js';

let harness: ProviderHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});
const never = () => new AbortController().signal;
const start = async (script: ProviderStep[]) => {
  harness = await startProviderHarness('anthropic', script);
  return harness;
};

type Block = { type: string; cache_control?: unknown; [key: string]: unknown };
type Message = { role: string; content: Block[] };

describe('Anthropic Messages client', () => {
  it('sends requests the SDK types accept', () => {
    const body: MessageCreateParamsStreaming = toAnthropicBody(
      {
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Read it' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 't1', type: 'function', function: { name: 'ls', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 't1', content: 'a.txt' },
        ],
        tools: [{ type: 'function', function: { name: 'ls', parameters: { type: 'object' } } }],
      },
      'claude-test',
      1024,
    );
    expect(body.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('runs a tool call and its result, streams the answer, marks the cache and counts cached tokens', async () => {
    let path = '';
    harness = await startProviderHarness('anthropic', (_request, index) =>
      index === 0
        ? {
            thinking: 'The note will tell.',
            toolCalls: [{ id: 'toolu_1', name: 'read_file', args: { absolute_path: path } }],
            usage: { input: 100, output: 20, cacheWrite: 80 },
          }
        : { text: 'The note says plover.', usage: { input: 10, output: 7, cacheRead: 150 } },
    );
    const h = harness;
    h.ws.write('note.txt', 'plover\n');
    path = h.ws.p('note.txt');
    const firstCall = { absolute_path: path };
    const result = await h.loop().run('What does the note say?', never());
    expect(result).toMatchObject({
      status: 'success',
      text: 'The note says plover.',
      toolCalls: 1,
    });
    expect(result.usage).toEqual({
      inputTokens: 100 + 80 + 10 + 150,
      outputTokens: 27,
      cachedInputTokens: 150,
      cacheCreationInputTokens: 80,
    });
    const [first, second] = h.server.requests;
    expect(first!.url).toBe('/v1/messages');
    expect(first!.headers['x-api-key']).toBe('test-key');
    expect(first!.headers['anthropic-version']).toBe('2023-06-01');
    const body = first!.body as {
      system: Block[];
      tools: Block[];
      messages: Message[];
      stream: boolean;
      max_tokens: number;
    };
    expect(body.stream).toBe(true);
    expect(body.max_tokens).toBeGreaterThan(0);
    expect(body.system).toEqual([
      { type: 'text', text: 'You are a test agent.', cache_control: { type: 'ephemeral' } },
    ]);
    expect(body.tools.at(-1)!.cache_control).toEqual({ type: 'ephemeral' });
    expect(body.tools.slice(0, -1).every((tool) => tool.cache_control === undefined)).toBe(true);
    const messages = (second!.body as { messages: Message[] }).messages;
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    // The signed thinking goes back first, as the API wants it with the tool use it led to.
    expect(messages[1]!.content).toEqual([
      { type: 'thinking', thinking: 'The note will tell.', signature: 'sig-1' },
      { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: firstCall },
    ]);
    const toolResult = messages[2]!.content[0]!;
    expect(toolResult).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1' });
    expect(JSON.stringify(toolResult.content)).toContain('plover');
    // The breakpoints move with the conversation: both user turns end in one.
    expect(messages[0]!.content.at(-1)!.cache_control).toEqual({ type: 'ephemeral' });
    expect(messages[2]!.content.at(-1)!.cache_control).toEqual({ type: 'ephemeral' });
    const thinking = h.events.filter((event) => event.type === 'thinking');
    expect(thinking.map((event) => (event as { text: string }).text).join('')).toBe(
      'The note will tell.',
    );
    const streamed = h.events.filter((event) => event.type === 'text');
    expect(streamed.length).toBeGreaterThan(1);
  });

  it('retries an overloaded answer and an error event inside the stream, then answers', async () => {
    const h = await start([
      { status: 529, message: 'Overloaded', retryAfter: '0' },
      { streamError: { status: 529, message: 'Overloaded' }, textBefore: 'half an ans' },
      { text: 'whole answer' },
    ]);
    const result = await h.loop().run('hello', never());
    expect(result).toMatchObject({ status: 'success', text: 'whole answer' });
    expect(h.server.requests).toHaveLength(3);
    expect(h.events.filter((event) => event.type === 'retry')).toHaveLength(2);
  });

  it('does not retry a refused request, and names the key variable for a refused key', async () => {
    const h = await start([
      { status: 400, message: 'messages: roles must alternate' },
      { status: 401, message: 'invalid x-api-key' },
    ]);
    const ask = () =>
      h.model.generate({ messages: [{ role: 'user', content: 'hi' }] }, { signal: never() });
    const refused = await ask().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ModelError);
    expect(refused).toMatchObject({ kind: 'invalid_request', status: 400 });
    expect((refused as Error).message).toContain('roles must alternate');
    const unauthorised = await ask().catch((error: unknown) => error);
    expect(unauthorised).toMatchObject({ kind: 'auth', status: 401 });
    expect((unauthorised as Error).message).toContain('ANTHROPIC_API_KEY');
    expect(h.server.requests).toHaveLength(2);
  });

  it('retries a stream that stalls, and a cancel ends a stalled request at once', async () => {
    const h = await start([
      { stallAfterEvents: 3 },
      { text: 'after the stall' },
      { stallAfterEvents: 2 },
    ]);
    h.model.endpoint.timeoutMs = 300;
    const result = await h.loop().run('hello', never());
    expect(result).toMatchObject({ status: 'success', text: 'after the stall' });
    const retry = h.events.find((event) => event.type === 'retry') as
      | { reason: string }
      | undefined;
    expect(retry?.reason).toContain('stopped sending its answer');
    h.model.endpoint.timeoutMs = 30_000;
    const controller = new AbortController();
    const started = Date.now();
    const pending = h.model
      .generate({ messages: [{ role: 'user', content: 'hi' }] }, { signal: controller.signal })
      .catch((error: unknown) => error);
    setTimeout(() => controller.abort(), 200);
    expect(await pending).toMatchObject({ kind: 'cancelled' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('asks again for no more output tokens than the model allows, when a refusal says how many', async () => {
    const h = await start([
      {
        status: 400,
        message:
          'max_tokens: 8000 > 4096, which is the maximum allowed number of output tokens for claude-3-haiku-20240307',
      },
      { text: 'short enough' },
    ]);
    h.model.endpoint.maxOutputTokens = 8000;
    const result = await h.loop().run('hello', never());
    expect(result).toMatchObject({ status: 'success', text: 'short enough' });
    expect(h.server.requests.map((request) => request.body.max_tokens)).toEqual([8000, 4096]);
  });
});
