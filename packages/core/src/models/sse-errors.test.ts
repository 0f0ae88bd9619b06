import { describe, expect, it } from 'vitest';
import { errorEventsAsData } from './sse-errors.js';

async function rewrite(chunks: string[]): Promise<string> {
  const stream = new ReadableStream<string>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  }).pipeThrough(errorEventsAsData());
  let out = '';
  for await (const piece of stream) out += piece;
  return out;
}

describe('errorEventsAsData', () => {
  it("rewrites llama-server's error field, even split across chunks, and leaves data alone", async () => {
    const out = await rewrite([
      'data: {"choices":[]}\n\ner',
      'ror: {"code":400,"message":"too big"}\n\ndata: [DONE]\n\n',
    ]);
    expect(out).toBe(
      'data: {"choices":[]}\n\ndata: {"error":{"code":400,"message":"too big"}}\n\ndata: [DONE]\n\n',
    );
  });

  it('wraps the data of an `event: error` that lacks the error key, and plain text', async () => {
    expect(await rewrite(['event: error\r\ndata: {"message":"overloaded"}\r\n\r\n'])).toBe(
      'data: {"error":{"message":"overloaded"}}\n\r\n',
    );
    expect(await rewrite(['error: model crashed'])).toBe(
      'data: {"error":{"message":"model crashed"}}',
    );
  });
});
