/**
 * Thinking on request (model.thinking) against scripted servers on 127.0.0.1: each family
 * is asked in its own terms (Anthropic's budget, Gemini's thinkingConfig with thought
 * summaries, OpenAI's reasoning effort), the thoughts arrive as thinking events, Anthropic's
 * signed thinking goes back with the tool turn it led to, and a server that refuses the
 * option is asked again without it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentHarness, startAgentHarness } from './helpers/agent-harness.js';
import { type ProviderHarness, startProviderHarness } from './helpers/provider-harness.js';

let harness: ProviderHarness | AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});
const never = () => new AbortController().signal;

type Block = { type: string; [key: string]: unknown };

describe('thinking on request', () => {
  it('Anthropic: a thinking budget, and the signed thinking sent back before the tool use', async () => {
    const h = await startProviderHarness(
      'anthropic',
      (_request, index) =>
        index === 0
          ? {
              thinking: 'List the folder first.',
              toolCalls: [{ id: 'toolu_1', name: 'ls', args: { path: '.' } }],
            }
          : { text: 'Listed.' },
      { thinking: 'medium', maxOutputTokens: 16_000 },
    );
    harness = h;
    const result = await h.loop().run('What is here?', never());
    expect(result).toMatchObject({ status: 'success', text: 'Listed.' });
    const [first, second] = h.server.requests;
    expect(first!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 8_192 });
    expect(first!.body.max_tokens).toBe(16_000);
    const messages = second!.body.messages as Array<{ role: string; content: Block[] }>;
    const assistant = messages.find((message) => message.role === 'assistant')!;
    expect(assistant.content[0]).toEqual({
      type: 'thinking',
      thinking: 'List the folder first.',
      signature: 'sig-1',
    });
    expect(assistant.content.at(-1)).toMatchObject({ type: 'tool_use', id: 'toolu_1' });
    expect(h.events.some((e) => e.type === 'thinking' && /List the folder/.test(e.text))).toBe(
      true,
    );
  });

  it('Gemini: thinkingConfig with thought summaries, shown as thinking', async () => {
    const h = await startProviderHarness(
      'gemini',
      [{ thinking: 'Weighing the options.', text: 'Done.' }],
      { thinking: 'low' },
    );
    harness = h;
    expect(await h.loop().run('Decide.', never())).toMatchObject({ text: 'Done.' });
    const config = h.server.requests[0]!.body.generationConfig as Record<string, unknown>;
    expect(config.thinkingConfig).toEqual({ includeThoughts: true, thinkingBudget: 1_024 });
    expect(h.events.some((e) => e.type === 'thinking' && /Weighing/.test(e.text))).toBe(true);
  });

  it('Responses: a reasoning effort with summaries', async () => {
    const h = await startProviderHarness('responses', [{ text: 'Done.' }], { thinking: 'high' });
    harness = h;
    await h.loop().run('Decide.', never());
    expect(h.server.requests[0]!.body.reasoning).toEqual({ effort: 'high', summary: 'auto' });
  });

  it('Chat Completions: reasoning_effort, dropped for the session once the server refuses it', async () => {
    const h = await startAgentHarness(
      (request) =>
        'reasoning_effort' in request.body
          ? {
              status: 400,
              message: 'Unrecognized request argument supplied: reasoning_effort',
            }
          : { text: 'Fine.' },
      { endpoint: { thinking: 'low' } },
    );
    harness = h;
    const loop = h.loop();
    expect(await loop.run('One.', never())).toMatchObject({ status: 'success', text: 'Fine.' });
    expect(await loop.run('Two.', never())).toMatchObject({ status: 'success' });
    expect(h.server.requests.map((request) => request.body.reasoning_effort)).toEqual([
      'low',
      undefined,
      undefined,
    ]);
  });
});
