/**
 * Scripted Anthropic Messages, Gemini and OpenAI Responses servers on 127.0.0.1 for tests:
 * each request takes the next step of the script and is answered in that API's streaming
 * format (server-sent events), every event typed with the official SDK's types, so what the
 * clients read is what the real APIs send. Errors come as the API words them: an error
 * status with its body, or an error event inside a stream that had started.
 */
import type http from 'node:http';
import { startServer, type TestServer } from './http-server.js';
import { anthropicError, anthropicEvents } from './provider-events-anthropic.js';
import { geminiChunks, geminiError } from './provider-events-gemini.js';
import { responsesError, responsesEvents } from './provider-events-responses.js';

export interface StepToolCall {
  id?: string;
  name: string;
  args: Record<string, unknown>;
  /** Gemini's thought signature on the call. */
  signature?: string;
}

export type ProviderStep =
  | {
      text?: string;
      thinking?: string;
      toolCalls?: StepToolCall[];
      usage?: { input: number; output: number; cacheRead?: number; cacheWrite?: number };
      /** The answer was cut off at the output limit. */
      cutOff?: boolean;
    }
  | {
      status: number;
      message: string;
      retryAfter?: string;
      /** The whole error body as the API words it (typed by the test), in place of the default. */
      body?: unknown;
      headers?: Record<string, string>;
    }
  /** HTTP 200 and these events as they are (typed by the test with the SDK's types). */
  | { events: SseEvent[] }
  /** HTTP 200, some text, then an error event in the stream. */
  | { streamError: { status: number; message: string }; textBefore?: string }
  /** HTTP 200, the first events of an answer, then nothing (the connection stays open). */
  | { stallAfterEvents: number };

export type AnswerStep = Extract<ProviderStep, { toolCalls?: StepToolCall[] }>;
export type StreamErrorStep = Extract<ProviderStep, { streamError: unknown }>;

export interface ProviderRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface ProviderServer {
  /** The address to configure (`baseUrl`). */
  baseUrl: string;
  requests: ProviderRequest[];
  close(): Promise<void>;
}

export type ApiFamily = 'anthropic' | 'gemini' | 'responses';

/** A model API's streamed events for one step, each an SSE `event:` name and its data. */
export type SseEvent = { event?: string; data: unknown };

export async function startProviderServer(
  family: ApiFamily,
  script: ProviderStep[] | ((request: ProviderRequest, index: number) => ProviderStep),
): Promise<ProviderServer> {
  const requests: ProviderRequest[] = [];
  let server: TestServer | undefined;
  server = await startServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const request: ProviderRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      };
      if (req.method !== 'POST') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{}');
        return;
      }
      const index = requests.length;
      requests.push(request);
      const step =
        typeof script === 'function'
          ? script(request, index)
          : (script[index] ?? { text: `(no step ${index} in the script)` });
      answer(family, step, res);
    });
  });
  return {
    baseUrl: server.url,
    requests,
    close: () => server.close(),
  };
}

function answer(family: ApiFamily, step: ProviderStep, res: http.ServerResponse): void {
  if ('status' in step) {
    const body =
      step.body ??
      (family === 'anthropic'
        ? anthropicError(step.status, step.message)
        : family === 'gemini'
          ? geminiError(step.status, step.message)
          : responsesError(step.message));
    res.writeHead(step.status, {
      'content-type': 'application/json',
      ...(step.retryAfter ? { 'retry-after': step.retryAfter } : {}),
      ...step.headers,
    });
    res.end(JSON.stringify(body));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const stall = 'stallAfterEvents' in step ? step.stallAfterEvents : undefined;
  const events: SseEvent[] =
    'events' in step
      ? step.events
      : eventsFor(family, 'stallAfterEvents' in step ? { text: 'a stalled answer' } : step);
  for (const event of events.slice(0, stall)) {
    res.write(
      `${event.event ? `event: ${event.event}\n` : ''}data: ${JSON.stringify(event.data)}\n\n`,
    );
  }
  if (stall === undefined) res.end();
}

function eventsFor(family: ApiFamily, step: AnswerStep | StreamErrorStep): SseEvent[] {
  if (family === 'anthropic') return anthropicEvents(step);
  if (family === 'gemini') return geminiChunks(step);
  return responsesEvents(step);
}
