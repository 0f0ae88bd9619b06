/** Gemini streamGenerateContent (alt=sse) chunks for a script step, typed with @google/genai. */
import { FinishReason, type GenerateContentResponse, type Part } from '@google/genai';
import type { AnswerStep, SseEvent, StreamErrorStep } from './provider-servers.js';

type Chunk = Pick<
  GenerateContentResponse,
  'candidates' | 'usageMetadata' | 'modelVersion' | 'promptFeedback'
>;

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

export function geminiError(status: number, message: string) {
  return { error: { code: status, message, status: STATUS_NAMES[status] ?? 'UNKNOWN' } };
}

const sse = (chunk: Chunk): SseEvent => ({ data: chunk });

export function geminiChunks(step: AnswerStep | StreamErrorStep): SseEvent[] {
  if ('streamError' in step) {
    const chunks: SseEvent[] = [];
    if (step.textBefore)
      chunks.push(
        sse({
          candidates: [
            { content: { role: 'model', parts: [{ text: step.textBefore }] }, index: 0 },
          ],
        }),
      );
    chunks.push({ data: geminiError(step.streamError.status, step.streamError.message) });
    return chunks;
  }
  const chunks: SseEvent[] = [];
  const modelTurn = (parts: Part[]) =>
    sse({
      candidates: [{ content: { role: 'model', parts }, index: 0 }],
      modelVersion: 'gemini-scripted',
    });
  if (step.thinking) chunks.push(modelTurn([{ text: step.thinking, thought: true }]));
  if (step.text) {
    const middle = Math.ceil(step.text.length / 2);
    chunks.push(
      modelTurn([{ text: step.text.slice(0, middle) }]),
      modelTurn([{ text: step.text.slice(middle) }]),
    );
  }
  const calls = (step.toolCalls ?? []).map(
    (call): Part => ({
      functionCall: { name: call.name, args: call.args },
      ...(call.signature ? { thoughtSignature: call.signature } : {}),
    }),
  );
  chunks.push(
    sse({
      candidates: [
        {
          content: { role: 'model', parts: calls.length > 0 ? calls : [{ text: '' }] },
          finishReason: step.cutOff ? FinishReason.MAX_TOKENS : FinishReason.STOP,
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: step.usage?.input ?? 10,
        candidatesTokenCount: step.usage?.output ?? 5,
        ...(step.usage?.cacheRead ? { cachedContentTokenCount: step.usage.cacheRead } : {}),
        totalTokenCount: (step.usage?.input ?? 10) + (step.usage?.output ?? 5),
      },
      modelVersion: 'gemini-scripted',
    }),
  );
  return chunks;
}
