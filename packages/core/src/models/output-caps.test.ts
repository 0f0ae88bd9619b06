import { describe, expect, it } from 'vitest';
import { contextWindowFor, type ModelEndpoint } from './endpoint.js';
import { knownOutputCap, wantsCompletionTokens } from './output-caps.js';
import { RequestOptions } from './request-options.js';

const request = { messages: [{ role: 'user' as const, content: 'hi' }] };

/** An endpoint as settings make it (endpoints/), with the name table's window. */
function openaiEndpoint(fields: Pick<ModelEndpoint, 'model' | 'baseUrl' | 'maxOutputTokens'>) {
  const endpoint: ModelEndpoint = {
    provider: 'openai',
    apiKey: 'k',
    contextWindow: contextWindowFor(fields.model),
    timeoutMs: 1_000,
    maxRetries: 0,
    ...fields,
  };
  return endpoint;
}

describe('output caps known from the start', () => {
  it('asks api.openai.com with max_completion_tokens, other servers with max_tokens', () => {
    const openai = openaiEndpoint({
      model: 'o3',
      baseUrl: 'https://api.openai.com/v1',
    });
    expect(Object.keys(new RequestOptions(openai).lengthField(request))).toEqual([
      'max_completion_tokens',
    ]);
    const local = { ...openai, baseUrl: 'http://127.0.0.1:8080/v1' };
    expect(Object.keys(new RequestOptions(local).lengthField(request))).toEqual(['max_tokens']);
    expect(wantsCompletionTokens('not a url')).toBe(false);
  });

  it('keeps the answer length within the model’s documented cap', () => {
    expect(knownOutputCap('gpt-4o-2024-08-06')).toBe(16_384);
    expect(knownOutputCap('openai/gpt-4.1-mini')).toBe(32_768);
    expect(knownOutputCap('claude-3-5-haiku-latest')).toBe(8_192);
    expect(knownOutputCap('qwen3-coder')).toBeUndefined();
    const gpt4o = openaiEndpoint({
      model: 'gpt-4o',
      baseUrl: 'https://api.openai.com/v1',
      maxOutputTokens: 50_000,
    });
    expect(new RequestOptions(gpt4o).lengthField(request)).toEqual({
      max_completion_tokens: 16_384,
    });
  });
});
