import type { Content, GenerationConfig, Tool } from '@google/genai';
import { afterEach, describe, expect, it } from 'vitest';
import { toGeminiBody } from '../src/models/gemini/gemini-contents.js';
import { ModelError } from '../src/models/model-errors.js';
import { type ProviderHarness, startProviderHarness } from './helpers/provider-harness.js';

let harness: ProviderHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});
const never = () => new AbortController().signal;

type Part = Record<string, unknown>;
type GeminiBody = {
  contents: Array<{ role: string; parts: Part[] }>;
  systemInstruction?: { parts: Part[] };
  tools?: Array<{ functionDeclarations: Array<{ name: string }> }>;
  generationConfig?: { maxOutputTokens?: number };
};

describe('Gemini client', () => {
  it('sends requests the SDK types accept', () => {
    const body: {
      contents: Content[];
      systemInstruction?: Content;
      tools?: Tool[];
      generationConfig?: GenerationConfig;
    } = toGeminiBody(
      {
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'List' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 't1', type: 'function', function: { name: 'ls', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 't1', content: 'a.txt' },
        ],
        tools: [{ type: 'function', function: { name: 'ls', parameters: { type: 'object' } } }],
      },
      1024,
      new Map(),
    );
    expect(body.contents.map((content) => content.role)).toEqual(['user', 'model', 'user']);
  });

  it('runs a function call and its response, streams the answer and sends the thought signature back', async () => {
    let path = '';
    harness = await startProviderHarness('gemini', (_request, index) =>
      index === 0
        ? {
            thinking: 'Reading first.',
            toolCalls: [
              { name: 'read_file', args: { absolute_path: path }, signature: 'c2lnLUE=' },
            ],
            usage: { input: 120, output: 15 },
          }
        : { text: 'It says plover.', usage: { input: 200, output: 6, cacheRead: 100 } },
    );
    const h = harness;
    h.ws.write('note.txt', 'plover\n');
    path = h.ws.p('note.txt');
    const result = await h.loop().run('What does the note say?', never());
    expect(result).toMatchObject({ status: 'success', text: 'It says plover.', toolCalls: 1 });
    expect(result.usage).toEqual({ inputTokens: 320, outputTokens: 21, cachedInputTokens: 100 });
    const [first, second] = h.server.requests;
    expect(first!.url).toBe('/v1beta/models/gemini-scripted-model:streamGenerateContent?alt=sse');
    expect(first!.headers['x-goog-api-key']).toBe('test-key');
    const body = first!.body as GeminiBody;
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'You are a test agent.' }] });
    expect(body.tools![0]!.functionDeclarations.map((declaration) => declaration.name)).toContain(
      'read_file',
    );
    expect(body.generationConfig?.maxOutputTokens).toBeGreaterThan(0);
    const contents = (second!.body as GeminiBody).contents;
    expect(contents.map((content) => content.role)).toEqual(['user', 'model', 'user']);
    expect(contents[1]!.parts).toEqual([
      {
        functionCall: { name: 'read_file', args: { absolute_path: path } },
        thoughtSignature: 'c2lnLUE=',
      },
    ]);
    const response = contents[2]!.parts[0] as {
      functionResponse: { name: string; response: unknown };
    };
    expect(response.functionResponse.name).toBe('read_file');
    expect(JSON.stringify(response.functionResponse.response)).toContain('plover');
    expect(h.events.some((event) => event.type === 'thinking')).toBe(true);
  });

  it('retries an unavailable answer and an error inside the stream, but not a refused request', async () => {
    harness = await startProviderHarness('gemini', [
      { status: 503, message: 'The model is overloaded.', retryAfter: '0' },
      { streamError: { status: 500, message: 'Internal error' }, textBefore: 'half' },
      { text: 'whole answer' },
      { status: 400, message: 'Invalid JSON payload received.' },
    ]);
    const h = harness;
    const result = await h.loop().run('hello', never());
    expect(result).toMatchObject({ status: 'success', text: 'whole answer' });
    expect(h.events.filter((event) => event.type === 'retry')).toHaveLength(2);
    const refused = await h.model
      .generate({ messages: [{ role: 'user', content: 'hi' }] }, { signal: never() })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ModelError);
    expect(refused).toMatchObject({ kind: 'invalid_request', status: 400 });
    expect(h.server.requests).toHaveLength(4);
  });
});
