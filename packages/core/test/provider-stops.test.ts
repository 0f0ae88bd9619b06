/**
 * What each model family sends besides a plain answer, through the real agent loop against
 * scripted servers on 127.0.0.1 (events typed with the official SDKs): refusals and safety
 * stops end the run as results of their own, with the text before them and the provider's
 * reason; a blocked prompt is not sent again; tool input given whole, call ids, encrypted
 * reasoning and a refusal's text are all kept.
 */
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { BlockedReason, FinishReason, type GenerateContentResponse } from '@google/genai';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { afterEach, describe, expect, it } from 'vitest';
import { Kind } from '../src/tools/tools.js';
import { anthropicEvents } from './helpers/provider-events-anthropic.js';
import { responsesEvents } from './helpers/provider-events-responses.js';
import { type ProviderHarness, startProviderHarness } from './helpers/provider-harness.js';
import type { ProviderStep, SseEvent } from './helpers/provider-servers.js';
import { newRunLog, RecordingTool } from './helpers/test-tools.js';

let harness: ProviderHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});
const never = () => new AbortController().signal;

const anthropic = (events: SseEvent[]): ProviderStep => ({ events });
const gemini = (...chunks: GenerateContentResponse[]): ProviderStep => ({
  events: chunks.map((data) => ({ data })),
});
const responses = (...events: ResponseStreamEvent[]): ProviderStep => ({
  events: events.map((data) => ({ event: data.type, data })),
});

/** Anthropic's events for a step, with one event changed (typed as the SDK types them). */
function anthropicWith(
  step: Parameters<typeof anthropicEvents>[0],
  change: (event: RawMessageStreamEvent) => RawMessageStreamEvent | undefined,
): SseEvent[] {
  return anthropicEvents(step).flatMap((sse) => {
    const changed = change(sse.data as RawMessageStreamEvent);
    return changed ? [{ event: changed.type, data: changed }] : [];
  });
}

describe('Anthropic Messages: stops and what is kept', () => {
  it('ends on a refusal stop as a refusal result, with the text before it', async () => {
    harness = await startProviderHarness('anthropic', [
      anthropic(
        anthropicWith({ text: 'I can start with that, but' }, (event) =>
          event.type === 'message_delta'
            ? { ...event, delta: { ...event.delta, stop_reason: 'refusal' } }
            : event,
        ),
      ),
    ]);
    const result = await harness.loop().run('Write it.', never());
    expect(result).toMatchObject({
      status: 'refusal',
      text: 'I can start with that, but',
      stop: { kind: 'refusal', reason: 'refusal' },
    });
    expect(result.message).toMatch(/refused to answer \(stop reason refusal\).*partial/);
    // Not nudged and sent again.
    expect(harness.server.requests).toHaveLength(1);
  });

  it('runs a tool with the input a gateway gave whole in content_block_start', async () => {
    harness = await startProviderHarness('anthropic', (_request, index) =>
      index === 0
        ? anthropic(
            anthropicWith(
              { toolCalls: [{ id: 'toolu_1', name: 'read_file', args: { absolute_path: 'x' } }] },
              (event) => {
                if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta')
                  return undefined;
                if (event.type === 'content_block_start' && event.content_block.type === 'tool_use')
                  return {
                    ...event,
                    content_block: {
                      ...event.content_block,
                      input: { absolute_path: harness!.ws.p('note.txt') },
                    },
                  };
                return event;
              },
            ),
          )
        : { text: 'It says plover.' },
    );
    harness.ws.write('note.txt', 'plover\n');
    const result = await harness.loop().run('Read the note.', never());
    expect(result).toMatchObject({ status: 'success', text: 'It says plover.' });
    const second = JSON.stringify(harness.server.requests[1]!.body);
    expect(second).toContain('plover');
    expect(second).toContain(JSON.stringify({ absolute_path: harness.ws.p('note.txt') }));
  });
});

describe('Gemini: stops, names and call ids', () => {
  const answer = (
    parts: NonNullable<
      NonNullable<GenerateContentResponse['candidates']>[number]['content']
    >['parts'],
    finishReason?: FinishReason,
  ): GenerateContentResponse =>
    ({
      candidates: [
        { content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) },
      ],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    }) as GenerateContentResponse;

  it('ends on SAFETY as a safety result, with the text before it', async () => {
    harness = await startProviderHarness('gemini', [
      gemini(
        answer([{ text: 'Here is the first half' }]),
        answer([{ text: '' }], FinishReason.SAFETY),
      ),
    ]);
    const result = await harness.loop().run('Tell me.', never());
    expect(result).toMatchObject({
      status: 'safety',
      text: 'Here is the first half',
      stop: { kind: 'safety', reason: 'SAFETY' },
    });
    expect(result.message).toMatch(/safety system stopped the answer \(SAFETY\).*partial/);
    expect(harness.server.requests).toHaveLength(1);
  });

  it('does not send a blocked prompt again, in this run or the next', async () => {
    harness = await startProviderHarness('gemini', (_request, index) =>
      index === 0
        ? gemini({
            promptFeedback: {
              blockReason: BlockedReason.PROHIBITED_CONTENT,
              blockReasonMessage: 'The prompt was blocked.',
            },
            usageMetadata: { promptTokenCount: 10, totalTokenCount: 10 },
          } as GenerateContentResponse)
        : { text: 'Hello.' },
    );
    const loop = harness.loop();
    const result = await loop.run('A forbidden question', never());
    expect(result).toMatchObject({
      status: 'safety',
      stop: { reason: 'PROHIBITED_CONTENT', promptBlocked: true },
    });
    expect(result.message).toMatch(
      /blocked the prompt \(PROHIBITED_CONTENT: The prompt was blocked\.\)/,
    );
    expect(harness.server.requests).toHaveLength(1);
    expect(await loop.run('Say hello', never())).toMatchObject({ status: 'success' });
    expect(JSON.stringify(harness.server.requests[1]!.body)).not.toContain('forbidden');
  });

  it('declares a tool whose name starts with a digit as Gemini allows and runs its calls', async () => {
    const log = newRunLog();
    harness = await startProviderHarness('gemini', (_request, index) =>
      index === 0
        ? {
            toolCalls: [
              { name: '_1password_lookup', args: { output: 'the vault answered' }, signature: 's' },
            ],
          }
        : { text: 'Found it.' },
    );
    harness.registry.registerTool(new RecordingTool('1password_lookup', Kind.Read, log));
    const result = await harness.loop().run('Look it up.', never());
    expect(result).toMatchObject({ status: 'success', text: 'Found it.' });
    expect(log.events).toEqual(['start 1password_lookup', 'end 1password_lookup']);
    const declared = JSON.stringify(harness.server.requests[0]!.body.tools);
    expect(declared).toContain('"name":"_1password_lookup"');
    expect(declared).not.toContain('"name":"1password_lookup"');
    expect(JSON.stringify(harness.server.requests[1]!.body)).toContain('the vault answered');
  });

  it('sends the call ids Gemini gave back in functionCall.id and functionResponse.id', async () => {
    harness = await startProviderHarness('gemini', (_request, index) =>
      index === 0
        ? gemini(
            answer(
              [{ functionCall: { id: 'fc-7', name: 'ls', args: { path: '.' } } }],
              FinishReason.STOP,
            ),
          )
        : { text: 'Listed.' },
    );
    harness.ws.write('a.txt', 'a');
    const result = await harness.loop().run('List.', never());
    expect(result).toMatchObject({ status: 'success' });
    const contents = (harness.server.requests[1]!.body as { contents: Array<{ parts: unknown[] }> })
      .contents;
    const parts = contents.flatMap((content) => content.parts) as Array<
      Record<string, { id?: string }>
    >;
    expect(parts.find((part) => part.functionCall)?.functionCall?.id).toBe('fc-7');
    expect(parts.find((part) => part.functionResponse)?.functionResponse?.id).toBe('fc-7');
  });
});

describe('OpenAI Responses: refusals and reasoning', () => {
  it('ends on a refusal with its text', async () => {
    const base = responsesEvents({ text: 'x' });
    const created = base[0]!.data as ResponseStreamEvent;
    const completed = base.at(-1)!.data as ResponseStreamEvent;
    harness = await startProviderHarness('responses', [
      responses(
        created,
        {
          type: 'response.refusal.delta',
          delta: 'I can’t help with that.',
          item_id: 'msg_1',
          output_index: 0,
          content_index: 0,
          sequence_number: 1,
        },
        completed,
      ),
    ]);
    const result = await harness.loop().run('Do the bad thing.', never());
    expect(result).toMatchObject({ status: 'refusal', text: 'I can’t help with that.' });
    expect(harness.server.requests).toHaveLength(1);
  });

  it('asks for encrypted reasoning and sends it back before the calls it led to', async () => {
    harness = await startProviderHarness('responses', (_request, index) => {
      if (index > 0) return { text: 'Done.' };
      const events = responsesEvents({
        toolCalls: [{ id: 'call_9', name: 'ls', args: { path: '.' } }],
      }).map((sse) => sse.data as ResponseStreamEvent);
      const reasoning: ResponseStreamEvent = {
        type: 'response.output_item.done',
        output_index: 0,
        sequence_number: 1,
        item: {
          type: 'reasoning',
          id: 'rs_1',
          summary: [{ type: 'summary_text', text: 'List first.' }],
          encrypted_content: 'ENCRYPTED-REASONING',
        },
      };
      return responses(events[0]!, reasoning, ...events.slice(1));
    });
    harness.ws.write('a.txt', 'a');
    const result = await harness.loop().run('List.', never());
    expect(result).toMatchObject({ status: 'success', text: 'Done.' });
    const [first, second] = harness.server.requests;
    expect(first!.body.include).toEqual(['reasoning.encrypted_content']);
    const input = second!.body.input as Array<Record<string, unknown>>;
    const at = input.findIndex((item) => item.type === 'reasoning');
    expect(input[at]).toMatchObject({ id: 'rs_1', encrypted_content: 'ENCRYPTED-REASONING' });
    expect(input[at + 1]).toMatchObject({ type: 'function_call', call_id: 'call_9' });
  });
});
