/**
 * The context window comes from the server (llama.cpp, vLLM, Ollama fields), settings
 * override it, the name table is the last resort; `max_tokens` is always sent; a
 * context-exceeded answer is met by compressing and trying once more.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../src/agent/agent-events.js';
import { ContextCompressor } from '../src/agent/compression.js';
import { resolveEndpoint } from '../src/endpoints/endpoints.js';
import type { ModelEndpoint } from '../src/models/endpoint.js';
import { ModelClient } from '../src/models/model-client.js';
import { UsageTracker } from '../src/models/token-usage.js';
import { type AgentHarness, startAgentHarness } from './helpers/agent-harness.js';
import {
  type ModelServer,
  type ModelServerOptions,
  type RecordedRequest,
  type Script,
  startModelServer,
} from './helpers/model-server.js';

let server: ModelServer | undefined;
let harness: AgentHarness | undefined;
afterEach(async () => {
  await server?.close();
  await harness?.close();
  server = undefined;
  harness = undefined;
});

const signal = () => new AbortController().signal;
const user = [{ role: 'user' as const, content: 'hi' }];

/** A client as a session makes it: the name `qwen3-coder-stub` guesses 262,144 tokens. */
async function guessingClient(
  options: ModelServerOptions,
  script: Script = () => ({ text: 'ok' }),
) {
  server = await startModelServer(script, options);
  const endpoint = resolveEndpoint({
    model: { name: 'qwen3-coder-stub', baseUrl: server.baseUrl },
  }) as ModelEndpoint;
  expect(endpoint).toMatchObject({ contextWindow: 262_144, contextWindowSource: 'name' });
  return new ModelClient(endpoint, { retry: { baseDelayMs: 10 } });
}

describe('the context window', () => {
  it.each([
    ['llama.cpp /v1/models meta.n_ctx', { contextSize: 32_768 }, 32_768],
    ['llama.cpp /props', { contextSize: 16_384, publishContextIn: 'props' as const }, 16_384],
    ['llama.cpp /props, one slot of four', { contextSize: 65_536, slots: 4 }, 16_384],
    ['vLLM max_model_len', { modelEntry: { max_model_len: 40_960 } }, 40_960],
    [
      'Ollama /api/show num_ctx',
      {
        ollamaShow: {
          parameters: 'temperature 0.7\nnum_ctx 8192',
          model_info: { 'qwen2.context_length': 32_768 },
        },
      },
      8_192,
    ],
    [
      'LM Studio /api/v0/models loaded_context_length',
      {
        lmStudioModels: [
          { id: 'other-model', max_context_length: 131_072 },
          { id: 'qwen3-coder-stub', max_context_length: 262_144, loaded_context_length: 12_288 },
        ],
      },
      12_288,
    ],
    [
      'Ollama /api/show context_length',
      { ollamaShow: { model_info: { 'qwen3.context_length': 40_000 } } },
      40_000,
    ],
  ])(
    'is learned from %s before the first request, and sizes max_tokens',
    async (_n, options, size) => {
      const client = await guessingClient(options);
      await client.generate({ messages: user }, { signal: signal() });
      expect(client.endpoint).toMatchObject({ contextWindow: size, contextWindowSource: 'server' });
      expect(server!.requests[0]!.body.max_tokens).toBe(Math.max(1024, Math.floor(size / 4)));
    },
  );

  it('keeps the settings’ size and max_tokens, and the name table when the server says nothing', async () => {
    server = await startModelServer(() => ({ text: 'ok' }), { contextSize: 32_768 });
    const endpoint = resolveEndpoint({
      model: {
        name: 'qwen3-coder-stub',
        baseUrl: server.baseUrl,
        contextWindow: 100_000,
        maxOutputTokens: 1_234,
      },
    }) as ModelEndpoint;
    const client = new ModelClient(endpoint);
    await client.generate({ messages: user }, { signal: signal() });
    expect(client.endpoint).toMatchObject({
      contextWindow: 100_000,
      contextWindowSource: 'settings',
    });
    expect(server.requests[0]!.body.max_tokens).toBe(1_234);
    await server.close();

    const silent = await guessingClient({});
    await silent.generate({ messages: user }, { signal: signal() });
    expect(silent.endpoint.contextWindow).toBe(262_144);
    expect(server!.requests[0]!.body.max_tokens).toBe(32_768);
  });

  it('reads a context-exceeded 400 (not streamed) with the size it states, and does not retry it', async () => {
    server = await startModelServer(() => ({ text: 'never' }), {
      contextSize: 2_000,
      publishContextIn: 'none',
    });
    const endpoint = resolveEndpoint({
      model: { name: 'qwen3-coder-stub', baseUrl: server.baseUrl },
    }) as ModelEndpoint;
    const client = new ModelClient(endpoint, { stream: false, retry: { baseDelayMs: 10 } });
    const long = [{ role: 'user' as const, content: 'word '.repeat(4_000) }];
    const error = await client
      .generate({ messages: long }, { signal: signal() })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'context_exceeded', status: 400, contextSize: 2_000 });
    expect((error as Error).message).toMatch(
      /does not fit the model's context \(the request has \d+ tokens, the context 2000\)/,
    );
    expect(server.requests).toHaveLength(1);
    expect(client.endpoint).toMatchObject({ contextWindow: 2_000, contextWindowSource: 'server' });
  });

  it('adapts max_tokens to what a hosted model says it takes', async () => {
    const client = await guessingClient({}, (request) => {
      if ('max_tokens' in request.body)
        return request.body.max_tokens === 4_096
          ? { text: 'ok' }
          : {
              status: 400,
              message:
                'max_tokens is too large: 32768. This model supports at most 4096 completion tokens, whereas you provided 32768.',
            };
      return { status: 500, message: 'expected max_tokens' };
    });
    expect((await client.generate({ messages: user }, { signal: signal() })).text).toBe('ok');
    await client.generate({ messages: user }, { signal: signal() });
    expect(server!.requests.map((r) => r.body.max_tokens)).toEqual([32_768, 4_096, 4_096]);

    await server!.close();
    const newer = await guessingClient({}, (request) =>
      'max_tokens' in request.body
        ? {
            status: 400,
            message:
              "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
          }
        : { text: 'ok' },
    );
    expect((await newer.generate({ messages: user }, { signal: signal() })).text).toBe('ok');
    expect(server!.requests[1]!.body.max_completion_tokens).toBe(32_768);
  });
});

const isSummaryRequest = (request: RecordedRequest) =>
  String(request.body.messages[0]?.content).includes('You compress the earlier part');

/** Reads one big file per turn, then answers; summary requests get a summary. */
function readingScript(files: number): Script {
  let turn = 0;
  return (request) => {
    if (isSummaryRequest(request)) return { text: 'SUMMARY: big files were read.' };
    turn++;
    if (turn > files) return { text: 'All read.' };
    return {
      toolCalls: [{ name: 'read_file', args: { absolute_path: harness!.ws.p(`big-${turn}.txt`) } }],
    };
  };
}

async function readingHarness(files: number, server: ModelServerOptions) {
  harness = await startAgentHarness(readingScript(files), {
    endpoint: { model: 'qwen3-coder-stub', contextWindow: 262_144, contextWindowSource: 'name' },
    server,
  });
  for (let i = 1; i <= files; i++)
    harness.ws.write(`big-${i}.txt`, `${'x'.repeat(79)}\n`.repeat(200));
  const usage = new UsageTracker();
  const compressor = new ContextCompressor(
    harness.model,
    () => harness!.model.endpoint.contextWindow,
    usage,
  );
  return harness.loop({ compressor, usage });
}

describe('compression against the server’s real size', () => {
  it('compresses before the server refuses, once the size is learned', async () => {
    const loop = await readingHarness(6, { contextSize: 24_000 });
    const result = await loop.run('Read the big files.', signal());
    expect(result).toMatchObject({ status: 'success', text: 'All read.' });
    expect(harness!.events.some((e) => e.type === 'compressed')).toBe(true);
    expect(harness!.model.endpoint.contextWindow).toBe(24_000);
    expect(harness!.server.refusals).toEqual([]);
  });

  it('answers a context-exceeded error by compressing and trying once more', async () => {
    // The server does not publish its size: the client guesses 262,144 until the error names n_ctx.
    const loop = await readingHarness(6, { contextSize: 24_000, publishContextIn: 'none' });
    const result = await loop.run('Read the big files.', signal());
    expect(result).toMatchObject({ status: 'success', text: 'All read.' });
    expect(harness!.model.endpoint).toMatchObject({
      contextWindow: 24_000,
      contextWindowSource: 'server',
    });
    const notices = harness!.events.filter(
      (e): e is Extract<AgentEvent, { type: 'notice' }> => e.type === 'notice',
    );
    expect(notices.some((n) => /did not fit the model's context/.test(n.message))).toBe(true);
    expect(harness!.events.some((e) => e.type === 'compressed')).toBe(true);
    expect(harness!.server.refusals.map((r) => r.type)).toEqual(['exceed_context_size_error']);
  });

  it('reports a first prompt larger than the learned window with both sizes, and no false notice', async () => {
    const loop = await readingHarness(0, { contextSize: 2_000 });
    const result = await loop.run(`Summarise: ${'word '.repeat(4_000)}`, signal());
    expect(result.status).toBe('error');
    expect(result.message).toMatch(
      /does not fit the model's context \(the request has \d+ tokens, the context 2000\)/,
    );
    const notices = harness!.events.filter(
      (e): e is Extract<AgentEvent, { type: 'notice' }> => e.type === 'notice',
    );
    expect(notices.map((n) => n.message).join('\n')).not.toMatch(/trying once more/);
  });
});
