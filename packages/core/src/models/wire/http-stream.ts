/**
 * One streamed POST for the clients that speak a model API with fetch (Anthropic, Gemini,
 * Responses): the time limits, the error answer read whole, the event stream read event by
 * event through the same rewriting of error events as the Chat Completions client
 * (../sse-errors.ts), and an error inside the stream thrown as such. The model client
 * (../model-client.ts) turns what this throws into a ModelError and decides on retries.
 */
import { errorEventsAsData } from '../sse-errors.js';

/** The endpoint answered with an error status. */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    /** The endpoint's own message. */
    readonly detail: string,
    readonly body: unknown,
    readonly headers: Headers,
  ) {
    super(`HTTP ${status}: ${detail}`);
  }
}

/** The endpoint reported an error inside a stream that had started (HTTP 200). */
export class StreamErrorEvent extends Error {
  constructor(
    readonly detail: string,
    readonly body: unknown,
    /** The HTTP status the error stands for, when it says. */
    readonly status: number | undefined,
  ) {
    super(detail);
  }
}

/** Nothing arrived for the time limit: before the answer started, or inside the stream. */
export class NoAnswerInTime extends Error {
  constructor(readonly started: boolean) {
    super(started ? 'the stream stalled' : 'no answer in time');
  }
}

export interface StreamRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal;
  /** The longest wait for the answer to start, and between two events. */
  timeoutMs: number;
  /** Error bodies name their status in different places; this finds it for stream errors. */
  statusOf?: (error: Record<string, unknown>) => number | undefined;
}

/** Posts the body as JSON and yields the data of every event, parsed. */
export async function* postEventStream(request: StreamRequest): AsyncGenerator<unknown> {
  const controller = new AbortController();
  const forward = () => controller.abort(request.signal.reason);
  if (request.signal.aborted) forward();
  request.signal.addEventListener('abort', forward, { once: true });
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new NoAnswerInTime(started)), request.timeoutMs);
  };
  arm();
  try {
    const response = await fetch(request.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...request.headers },
      body: JSON.stringify(request.body),
      signal: controller.signal,
    });
    if (!response.ok) throw await statusError(response);
    if (!response.body) throw new Error('the answer had no body');
    started = true;
    arm();
    const lines = response.body
      .pipeThrough(new TextDecoderStream())
      .pipeThrough(errorEventsAsData(controller.signal));
    for await (const data of eventData(lines)) {
      arm();
      if (data === '[DONE]') continue;
      const parsed = parseJson(data);
      const error = errorIn(parsed);
      if (error) throw streamError(error, request.statusOf);
      yield parsed;
    }
  } catch (caught) {
    if (controller.signal.reason instanceof NoAnswerInTime) throw controller.signal.reason;
    throw caught;
  } finally {
    clearTimeout(timer);
    request.signal.removeEventListener('abort', forward);
  }
}

/** The data of each event (its `data:` lines joined), as the stream's lines arrive. */
async function* eventData(chunks: ReadableStream<string>): AsyncGenerator<string> {
  let pending = '';
  let data: string[] = [];
  for await (const chunk of chunks) {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const raw of lines) {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (line === '') {
        if (data.length > 0) yield data.join('\n');
        data = [];
      } else if (line.startsWith('data:')) {
        data.push(line.slice(line[5] === ' ' ? 6 : 5));
      }
    }
  }
  if (pending.startsWith('data:')) data.push(pending.slice(pending[5] === ' ' ? 6 : 5));
  if (data.length > 0) yield data.join('\n');
}

function parseJson(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    throw new Error(`the stream sent an event that is not JSON: ${data.slice(0, 200)}`);
  }
}

function errorIn(value: unknown): Record<string, unknown> | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const error = (value as { error?: unknown }).error;
  return error && typeof error === 'object' ? (error as Record<string, unknown>) : undefined;
}

/** What an error body says, wherever the API puts it. */
export function messageOf(error: Record<string, unknown> | undefined, fallback: string): string {
  const nested = error?.error as Record<string, unknown> | undefined;
  const message = error?.message ?? nested?.message;
  return typeof message === 'string' && message ? message : fallback;
}

function streamError(
  error: Record<string, unknown>,
  statusOf: StreamRequest['statusOf'],
): StreamErrorEvent {
  const code = error.code ?? error.status;
  const status = statusOf?.(error) ?? (typeof code === 'number' ? code : undefined);
  return new StreamErrorEvent(messageOf(error, 'the server reported an error'), error, status);
}

async function statusError(response: Response): Promise<HttpStatusError> {
  const text = await response.text().catch(() => '');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  // Gemini and OpenAI wrap it as {error: {...}}; Anthropic as {type: 'error', error: {...}}.
  const error =
    errorIn(body) ?? (typeof body === 'object' ? (body as Record<string, unknown>) : undefined);
  const detail = messageOf(error, text.trim().slice(0, 500) || response.statusText || 'no details');
  return new HttpStatusError(response.status, detail, error ?? body, response.headers);
}
