/**
 * A scripted OpenAI-compatible Chat Completions server on 127.0.0.1 for tests. Each request
 * takes the next step of the script (or asks a function for one), answers streamed (SSE)
 * or as one JSON body as the request asks, and records what it was sent. By default it
 * behaves where real servers are strict as llama.cpp's llama-server does (see
 * model-server-checks.ts): history arguments must parse, the context size is published
 * and enforced.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type ModelServerOptions,
  refusal,
  type ServerError,
  sendServerError,
  serveInfoRoute,
} from './model-server-checks.js';

export type { ModelServerOptions } from './model-server-checks.js';

export interface ScriptedToolCall {
  name: string;
  /** An object is sent as JSON; a string is sent as it is (to test malformed arguments). */
  args: Record<string, unknown> | string;
  id?: string;
}

export type ScriptStep =
  | {
      text?: string;
      reasoning?: string;
      toolCalls?: ScriptedToolCall[];
      /** Sent as `usage`; omit `usage` to send none (the client then estimates). */
      usage?: {
        prompt_tokens: number;
        completion_tokens: number;
        prompt_tokens_details?: { cached_tokens: number };
      };
      finishReason?: string;
      /** Milliseconds between streamed chunks. */
      chunkDelayMs?: number;
    }
  | {
      status: number;
      retryAfter?: string;
      message?: string;
      type?: string;
      /** The whole `error` object, as a provider words it (replaces message and type). */
      error?: Record<string, unknown>;
      headers?: Record<string, string>;
    }
  /** HTTP 200, then an SSE `error:` line as llama-server sends a failure inside a stream. */
  | { sseError: ServerError; textBefore?: string }
  /** HTTP 200 and these chunks as they are (typed by the test with the openai package's types). */
  | { chunks: unknown[] }
  /** Sends part of an answer, then nothing more (the connection stays open). */
  | { stallAfterText: string }
  /** Closes the connection without an answer. */
  | { reset: true }
  /** Waits until the request is aborted by the client. */
  | { hang: true };

export interface RecordedRequest {
  body: {
    model: string;
    stream?: boolean;
    messages: Array<Record<string, unknown> & { role: string; content?: unknown }>;
    tools?: Array<{ function: { name: string; description?: string; parameters?: unknown } }>;
    [key: string]: unknown;
  };
  headers: http.IncomingHttpHeaders;
}

/** A function may answer later (a promise), e.g. to hold a request until another arrives. */
export type Script =
  | ScriptStep[]
  | ((request: RecordedRequest, index: number) => ScriptStep | Promise<ScriptStep>);

export interface ModelServer {
  baseUrl: string;
  requests: RecordedRequest[];
  /** The errors it answered instead of running the script (strict checks, model-server-checks.ts). */
  refusals: ServerError[];
  close(): Promise<void>;
}

export async function startModelServer(
  script: Script,
  options: ModelServerOptions = {},
): Promise<ModelServer> {
  const requests: RecordedRequest[] = [];
  const refusals: ServerError[] = [];
  const openResponses = new Set<http.ServerResponse>();
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (serveInfoRoute(req, Buffer.concat(chunks).toString('utf8'), res, options)) return;
    if (req.url !== '/v1/chat/completions' || req.method !== 'POST') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
      return;
    }
    const recorded: RecordedRequest = {
      body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      headers: req.headers,
    };
    const index = requests.push(recorded) - 1;
    const refused = refusal(recorded.body, options);
    if (refused) {
      refusals.push(refused.error);
      sendServerError(res, refused.error, refused.inStream && Boolean(recorded.body.stream));
      return;
    }
    const step = await (typeof script === 'function'
      ? script(recorded, index)
      : (script[index] ?? { status: 500, message: `script has no step ${index + 1}` }));
    openResponses.add(res);
    res.on('close', () => openResponses.delete(res));
    await answer(step, recorded, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    refusals,
    close: () =>
      new Promise((resolve) => {
        for (const res of openResponses) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function answer(step: ScriptStep, request: RecordedRequest, res: http.ServerResponse) {
  if ('status' in step) {
    res.writeHead(step.status, {
      'content-type': 'application/json',
      ...(step.retryAfter !== undefined ? { 'retry-after': step.retryAfter } : {}),
      ...step.headers,
    });
    res.end(
      JSON.stringify({
        error: step.error ?? {
          code: step.status,
          message: step.message ?? `scripted ${step.status}`,
          ...(step.type ? { type: step.type } : {}),
        },
      }),
    );
    return;
  }
  if ('sseError' in step) {
    if (step.textBefore) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sse(chunk({ content: step.textBefore })));
    }
    sendServerError(res, step.sseError, true);
    return;
  }
  if ('chunks' in step) {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const piece of step.chunks) res.write(sse(piece));
    res.end('data: [DONE]\n\n');
    return;
  }
  if ('reset' in step) {
    res.socket?.destroy();
    return;
  }
  if ('hang' in step) return; // the client gives up; close() ends it
  if ('stallAfterText' in step) {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(sse(chunk({ content: step.stallAfterText })));
    return;
  }
  const id = 'chatcmpl-test';
  const toolCalls = (step.toolCalls ?? []).map((call, index) => ({
    index,
    id: call.id ?? `call_${index}_${Math.random().toString(36).slice(2, 8)}`,
    type: 'function' as const,
    function: {
      name: call.name,
      arguments: typeof call.args === 'string' ? call.args : JSON.stringify(call.args),
    },
  }));
  const finishReason = step.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop');
  if (!request.body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id,
        object: 'chat.completion',
        created: 0,
        model: request.body.model,
        choices: [
          {
            index: 0,
            finish_reason: finishReason,
            message: {
              role: 'assistant',
              content: step.text ?? null,
              ...(step.reasoning ? { reasoning_content: step.reasoning } : {}),
              ...(toolCalls.length > 0
                ? { tool_calls: toolCalls.map(({ index: _index, ...call }) => call) }
                : {}),
            },
          },
        ],
        ...(step.usage ? { usage: step.usage } : {}),
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const pause = () => new Promise((resolve) => setTimeout(resolve, step.chunkDelayMs ?? 0));
  const send = async (delta: Record<string, unknown>, finish: string | null = null) => {
    res.write(sse(chunk(delta, finish, request.body.model)));
    if (step.chunkDelayMs) await pause();
  };
  await send({ role: 'assistant' });
  for (const piece of pieces(step.reasoning)) await send({ reasoning_content: piece });
  for (const piece of pieces(step.text)) await send({ content: piece });
  for (const call of toolCalls) {
    // The first fragment names the call; the arguments follow in small pieces.
    await send({
      tool_calls: [
        {
          index: call.index,
          id: call.id,
          type: 'function',
          function: { name: call.function.name, arguments: '' },
        },
      ],
    });
    for (const piece of pieces(call.function.arguments)) {
      await send({ tool_calls: [{ index: call.index, function: { arguments: piece } }] });
    }
  }
  await send({}, finishReason);
  if (step.usage)
    res.write(sse({ id, object: 'chat.completion.chunk', choices: [], usage: step.usage }));
  res.end('data: [DONE]\n\n');
}

function pieces(text: string | undefined): string[] {
  if (!text) return [];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += 7) out.push(text.slice(i, i + 7));
  return out;
}

function chunk(delta: Record<string, unknown>, finish: string | null = null, model = 'scripted') {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 0,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

function sse(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}
