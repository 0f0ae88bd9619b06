/**
 * Where the scripted model server (model-server.ts) is as strict as real servers, so the
 * agent is tested against what they do rather than against a forgiving stand-in. The
 * behaviours are llama.cpp's llama-server (--jinja) unless said otherwise:
 * - every tool call's arguments in the history are parsed to render the chat template;
 *   text that is not JSON fails the whole request with HTTP 500;
 * - the context size is published (`/v1/models` `meta.n_ctx`, `/props`), and a prompt
 *   above it is refused: HTTP 400 `exceed_context_size_error`, or inside a stream an SSE
 *   `error:` line after HTTP 200;
 * - vLLM's `max_model_len`, Ollama's `/api/show` and LM Studio's `/api/v0/models` can be
 *   published instead.
 */
import type http from 'node:http';

export interface ModelServerOptions {
  /** Refuse a history with unparseable tool-call arguments (default true, as llama-server). */
  parseHistoryArguments?: boolean;
  /** The context size in tokens (about 4 characters each); larger prompts are refused. */
  contextSize?: number;
  /** Where the context size is published (default `models`: `/v1/models` `meta.n_ctx`). */
  publishContextIn?: 'models' | 'props' | 'none';
  /** llama-server's parallel slots (-np): `/props` and refusals count one slot's share. */
  slots?: number;
  /** More fields of the `/v1/models` entry (vLLM's `max_model_len`, ...). */
  modelEntry?: Record<string, unknown>;
  /** LM Studio's `GET /api/v0/models` entries; absent: 404. */
  lmStudioModels?: Record<string, unknown>[];
  /** The body of Ollama's `POST /api/show`; absent: 404. */
  ollamaShow?: Record<string, unknown>;
}

/** An error as llama-server writes it (`code` is the HTTP status it stands for). */
export interface ServerError {
  code: number;
  message: string;
  type?: string;
  [key: string]: unknown;
}

interface RequestBody {
  model?: string;
  stream?: boolean;
  messages: Array<Record<string, unknown>>;
  tools?: unknown[];
}

/** Answers the information routes; false for any other route. */
export function serveInfoRoute(
  req: http.IncomingMessage,
  body: string,
  res: http.ServerResponse,
  options: ModelServerOptions,
): boolean {
  const where = options.publishContextIn ?? 'models';
  const size = options.contextSize;
  if (req.method === 'GET' && req.url === '/v1/models') {
    const entry = {
      id: 'scripted-model',
      object: 'model',
      created: 0,
      owned_by: 'llamacpp',
      ...(size && where === 'models' ? { meta: { n_ctx_train: 262_144, n_ctx: size } } : {}),
      ...options.modelEntry,
    };
    sendJson(res, 200, { object: 'list', data: [entry] });
    return true;
  }
  if (req.method === 'GET' && req.url === '/props' && size && where !== 'none') {
    // With several slots (-np), each gets its share of the context.
    const slots = options.slots ?? 1;
    sendJson(res, 200, {
      default_generation_settings: { n_ctx: Math.floor(size / slots) },
      total_slots: slots,
    });
    return true;
  }
  if (req.method === 'GET' && req.url === '/api/v0/models' && options.lmStudioModels) {
    sendJson(res, 200, { object: 'list', data: options.lmStudioModels });
    return true;
  }
  if (req.method === 'POST' && req.url === '/api/show' && options.ollamaShow) {
    const asked = JSON.parse(body || '{}') as { model?: string };
    if (!asked.model) sendJson(res, 400, { error: 'model is required' });
    else sendJson(res, 200, options.ollamaShow);
    return true;
  }
  return false;
}

/** Why the server refuses this request before answering it, if it does. */
export function refusal(
  body: RequestBody,
  options: ModelServerOptions,
): { error: ServerError; inStream: boolean } | undefined {
  if (options.parseHistoryArguments ?? true) {
    for (const message of body.messages) {
      const calls = (message.tool_calls ?? []) as Array<{ function?: { arguments?: string } }>;
      for (const call of calls) {
        try {
          JSON.parse(call.function?.arguments ?? '');
        } catch (error) {
          return {
            inStream: false,
            error: {
              code: 500,
              message: `Failed to parse tool call arguments as JSON: ${(error as Error).message}`,
              type: 'server_error',
            },
          };
        }
      }
    }
  }
  const size = options.contextSize && Math.floor(options.contextSize / (options.slots ?? 1));
  if (size) {
    const promptTokens = Math.ceil(JSON.stringify([body.messages, body.tools ?? []]).length / 4);
    if (promptTokens > size) {
      return {
        inStream: true,
        error: {
          code: 400,
          message: 'the request exceeds the available context size, try increasing it',
          type: 'exceed_context_size_error',
          n_prompt_tokens: promptTokens,
          n_ctx: size,
        },
      };
    }
  }
  return undefined;
}

/** Sends the error as HTTP status and JSON body, or (in a stream) after HTTP 200 as an SSE `error:` line. */
export function sendServerError(res: http.ServerResponse, error: ServerError, inStream: boolean) {
  if (!inStream) {
    sendJson(res, error.code, { error });
    return;
  }
  if (!res.headersSent) res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(`error: ${JSON.stringify(error)}\n\n`);
  res.end('data: [DONE]\n\n');
}

function sendJson(res: http.ServerResponse, status: number, value: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}
