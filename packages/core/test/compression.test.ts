import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../src/agent/agent-events.js';
import { ContextCompressor } from '../src/agent/compression.js';
import { UsageTracker } from '../src/models/token-usage.js';
import { type AgentHarness, startAgentHarness } from './helpers/agent-harness.js';
import type { RecordedRequest } from './helpers/model-server.js';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const isSummaryRequest = (request: RecordedRequest) =>
  String(request.body.messages[0]?.content).includes('You compress the earlier part');

describe('context compression', () => {
  it('summarises older turns before a request would pass 70% of a tiny window, keeping recent ones', async () => {
    let mainTurn = 0;
    const h = await startAgentHarness((request) => {
      if (isSummaryRequest(request)) {
        return { text: 'SUMMARY: the agent read big-0 .. big-2; the task is to count lines.' };
      }
      mainTurn++;
      if (mainTurn <= 4) {
        return {
          toolCalls: [
            {
              id: `r${mainTurn}`,
              name: 'read_file',
              args: { absolute_path: harness!.ws.p(`big-${mainTurn - 1}.txt`) },
            },
          ],
        };
      }
      return { text: 'All files read.' };
    });
    harness = h;
    for (let i = 0; i < 4; i++)
      h.ws.write(`big-${i}.txt`, `line of file ${i} with some words\n`.repeat(60));
    const usage = new UsageTracker();
    const compressor = new ContextCompressor(h.model, 4_000, usage);
    const loop = h.loop({ compressor, usage });
    const result = await loop.run(
      'Count the lines of the big files.',
      new AbortController().signal,
    );
    expect(result.status).toBe('success');

    const summaryRequests = h.server.requests.filter(isSummaryRequest);
    expect(summaryRequests.length).toBeGreaterThan(0);
    const transcript = String(summaryRequests[0]!.body.messages[1]!.content);
    expect(transcript).toContain('Count the lines of the big files.');
    expect(transcript).toContain('read_file');

    const compressed = h.events.filter((e) => e.type === 'compressed') as Extract<
      AgentEvent,
      { type: 'compressed' }
    >[];
    expect(compressed.length).toBe(summaryRequests.length);
    expect(compressed[0]!.tokensAfter).toBeLessThan(compressed[0]!.tokensBefore);
    expect(compressed[0]!.automatic).toBe(true);

    // The request after the first compression starts with the summary, then recent turns verbatim.
    const afterIndex = h.server.requests.indexOf(summaryRequests[0]!) + 1;
    const after = h.server.requests[afterIndex]!.body.messages;
    expect(String(after[1]!.content)).toContain('SUMMARY: the agent read big-0');
    const roles = after.map((m) => m.role);
    expect(roles.at(-1)).toBe('tool'); // the latest call and its response kept as they were
    const lastCall = after.findLast((m) => m.role === 'assistant' && m.tool_calls) as unknown as {
      tool_calls: { id: string }[];
    };
    expect(after.at(-1)!.tool_call_id).toBe(lastCall.tool_calls[0]!.id);
    // Every call in what was sent has its response: nothing unfinished was cut.
    for (const message of after) {
      for (const call of (message.tool_calls ?? []) as { id: string }[]) {
        expect(after.some((m) => m.tool_call_id === call.id)).toBe(true);
      }
    }
    // The side request counts toward usage.
    expect(usage.requests).toBe(h.server.requests.length);
  });

  it('compresses on demand whatever the size', async () => {
    const h = await startAgentHarness((request) =>
      isSummaryRequest(request) ? { text: 'SUMMARY: said hello.' } : { text: 'Hello!' },
    );
    harness = h;
    const compressor = new ContextCompressor(h.model, 1_000_000, new UsageTracker());
    const loop = h.loop({ compressor });
    await loop.run('Say hello.', new AbortController().signal);
    await loop.run('Again.', new AbortController().signal);
    expect(await loop.compressNow(new AbortController().signal)).toBe(true);
    expect(String(loop.history[0]!.content)).toContain('SUMMARY: said hello.');
    const event = h.events.find((e) => e.type === 'compressed') as Extract<
      AgentEvent,
      { type: 'compressed' }
    >;
    expect(event.automatic).toBe(false);
  });
});
