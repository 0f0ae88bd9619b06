import type { ResponseCreateParamsStreaming } from 'openai/resources/responses/responses';
import { afterEach, describe, expect, it } from 'vitest';
import { toResponsesBody } from '../src/models/responses/responses-input.js';
import { type ProviderHarness, startProviderHarness } from './helpers/provider-harness.js';

let harness: ProviderHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});
const never = () => new AbortController().signal;

type Item = Record<string, unknown> & { type?: string };

describe('OpenAI Responses client', () => {
  it('sends requests the SDK types accept', () => {
    const body: ResponseCreateParamsStreaming = toResponsesBody(
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
      'gpt-test',
      1024,
    );
    expect(body.instructions).toBe('Be brief.');
  });

  it('runs a function call and its output, streams the answer and retries a failed stream', async () => {
    let path = '';
    harness = await startProviderHarness('responses', (_request, index) =>
      index === 0
        ? { toolCalls: [{ id: 'call_a', name: 'read_file', args: { absolute_path: path } }] }
        : index === 1
          ? { streamError: { status: 500, message: 'The server had an error.' }, textBefore: 'It' }
          : { text: 'It says plover.', usage: { input: 50, output: 5, cacheRead: 40 } },
    );
    const h = harness;
    h.ws.write('note.txt', 'plover\n');
    path = h.ws.p('note.txt');
    const result = await h.loop().run('What does the note say?', never());
    expect(result).toMatchObject({ status: 'success', text: 'It says plover.', toolCalls: 1 });
    expect(h.events.filter((event) => event.type === 'retry')).toHaveLength(1);
    const [first, , third] = h.server.requests;
    expect(first!.url).toBe('/responses');
    expect(first!.headers.authorization).toBe('Bearer test-key');
    expect(first!.body).toMatchObject({
      instructions: 'You are a test agent.',
      store: false,
      stream: true,
    });
    const input = (third!.body as { input: Item[] }).input;
    expect(input.map((item) => item.type)).toEqual([
      'message',
      'function_call',
      'function_call_output',
    ]);
    expect(input[1]).toEqual({
      type: 'function_call',
      call_id: 'call_a',
      name: 'read_file',
      arguments: JSON.stringify({ absolute_path: path }),
    });
    expect(input[2]).toMatchObject({ call_id: 'call_a' });
    expect(String(input[2]!.output)).toContain('plover');
  });
});
