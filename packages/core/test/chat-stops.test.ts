/**
 * Chat Completions servers (OpenAI, llama-server) through the real agent loop, against the
 * scripted server on 127.0.0.1 (chunks typed with the openai package): a content filter or
 * a refusal ends the run as a result of its own, an answer the server cannot parse is
 * named as such and not retried, the text of an answer that broke off is kept, and a
 * model's known output cap is respected from the first request.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentHarness, startAgentHarness } from './helpers/agent-harness.js';
import type { Script } from './helpers/model-server.js';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});
const never = () => new AbortController().signal;

const chunk = (
  delta: ChatCompletionChunk.Choice.Delta,
  finish: ChatCompletionChunk.Choice['finish_reason'] = null,
): ChatCompletionChunk => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 0,
  model: 'gpt-scripted',
  choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
});

async function run(script: Script, endpoint = {}) {
  harness = await startAgentHarness(script, { endpoint });
  return harness.loop().run('Go on.', never());
}

describe('Chat Completions stops and failures', () => {
  it('ends on content_filter as a safety result, with the text before it', async () => {
    const result = await run([
      {
        chunks: [
          chunk({ role: 'assistant', content: 'The first part' }),
          chunk({}, 'content_filter'),
        ],
      },
    ]);
    expect(result).toMatchObject({
      status: 'safety',
      text: 'The first part',
      stop: { reason: 'content_filter' },
    });
    expect(harness!.server.requests).toHaveLength(1);
  });

  it('a prompt refused by a content filter (HTTP 400) is a safety result and not sent again', async () => {
    harness = await startAgentHarness((_request, index) =>
      index === 0
        ? {
            status: 400,
            error: {
              message:
                'The response was filtered due to the prompt triggering the content management policy.',
              type: null,
              param: 'prompt',
              code: 'content_filter',
            },
          }
        : { text: 'Hello.' },
    );
    const loop = harness.loop();
    const result = await loop.run('A filtered question', never());
    expect(result).toMatchObject({
      status: 'safety',
      stop: { reason: 'content_filter', promptBlocked: true },
    });
    expect(result.message).toMatch(
      /blocked the prompt \(content_filter: The response was filtered/,
    );
    expect(await loop.run('Say hello', never())).toMatchObject({ status: 'success' });
    expect(harness.server.requests).toHaveLength(2);
    expect(JSON.stringify(harness.server.requests[1]!.body)).not.toContain('filtered question');
  });

  it('ends on a refusal with its text', async () => {
    const result = await run([
      {
        chunks: [
          chunk({ role: 'assistant', content: null, refusal: 'I will not do that.' }),
          chunk({}, 'stop'),
        ],
      },
    ]);
    expect(result).toMatchObject({ status: 'refusal', text: 'I will not do that.' });
    expect(harness!.server.requests).toHaveLength(1);
  });

  it('names llama-server output its template cannot parse, keeps the partial text, and does not retry', async () => {
    const result = await run([
      {
        textBefore: 'Let me look at',
        sseError: {
          code: 500,
          message:
            "The model's output does not match the expected Qwen3-Coder tool call format at position 14",
          type: 'server_error',
        },
      },
    ]);
    expect(result.status).toBe('error');
    expect(result.text).toBe('Let me look at');
    expect(result.message).toMatch(/could not parse what the model wrote/);
    expect(result.message).toMatch(/The answer above broke off there\./);
    expect(result.message).not.toMatch(/overloaded/);
    expect(harness!.server.requests).toHaveLength(1);
  });

  it('keeps the text of an answer that broke off for good', async () => {
    const result = await run([
      { textBefore: 'Half an answer', sseError: { code: 503, message: 'Loading model' } },
      { textBefore: 'Half an answer', sseError: { code: 503, message: 'Loading model' } },
      { textBefore: 'Half an answer', sseError: { code: 503, message: 'Loading model' } },
    ]);
    expect(result).toMatchObject({ status: 'error', text: 'Half an answer' });
    expect(result.message).toMatch(/Gave up after 3 attempts.*broke off there/);
  });

  it('asks gpt-4o for no more than its 16,384 output tokens from the first request', async () => {
    const result = await run([{ text: 'ok' }], { model: 'gpt-4o', contextWindow: 128_000 });
    expect(result.status).toBe('success');
    expect(harness!.server.requests).toHaveLength(1);
    expect(harness!.server.requests[0]!.body.max_tokens).toBe(16_384);
  });
});
