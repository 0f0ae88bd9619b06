/**
 * A model API stand-in on 127.0.0.1 that records every request body and answers with the
 * smallest valid reply for the route (OpenAI Chat Completions and Responses, Anthropic
 * Messages, Gemini generateContent), so the real SDKs can send through it.
 */
import { startServer, type TestServer } from './http-server.js';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

export interface RecordingApiServer extends TestServer {
  recorded: RecordedRequest[];
  /** The body of the only (or last) request. */
  lastBody(): Record<string, unknown>;
}

/**
 * @param chatReplies Chat Completions replies to give first, in order (a tool call, say;
 * null for the default reply); after them every request gets the default reply.
 */
export async function startRecordingApiServer(
  chatReplies: (Record<string, unknown> | null)[] = [],
): Promise<RecordingApiServer> {
  const recorded: RecordedRequest[] = [];
  const scripted = [...chatReplies];
  const server = await startServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      recorded.push({ method: req.method ?? '', path: url.pathname, headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' });
      const reply =
        (url.pathname.endsWith('/chat/completions') ? scripted.shift() : undefined) ??
        replyFor(url.pathname, body);
      res.end(JSON.stringify(reply));
    });
  });
  return {
    ...server,
    recorded,
    lastBody: () => {
      const last = recorded[recorded.length - 1];
      if (!last) throw new Error('no request was recorded');
      return last.body;
    },
  };
}

/** A Chat Completions reply that calls one function. */
export function toolCallReply(id: string, name: string, args: Record<string, unknown>) {
  return {
    id: `chatcmpl-${id}`,
    object: 'chat.completion',
    created: 0,
    model: 'test-model',
    choices: [
      {
        index: 0,
        finish_reason: 'tool_calls',
        logprobs: null,
        message: {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: [
            { id, type: 'function', function: { name, arguments: JSON.stringify(args) } },
          ],
        },
      },
    ],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

function replyFor(path: string, body: Record<string, unknown>): unknown {
  const model = typeof body.model === 'string' ? body.model : 'test-model';
  if (path.endsWith('/chat/completions')) {
    return {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 0,
      model,
      choices: [
        {
          index: 0,
          finish_reason: 'stop',
          logprobs: null,
          message: { role: 'assistant', content: 'done', refusal: null },
        },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    };
  }
  if (path.endsWith('/responses')) {
    return {
      id: 'resp_1',
      object: 'response',
      created_at: 0,
      model,
      status: 'completed',
      output: [
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'done', annotations: [] }],
        },
      ],
      parallel_tool_calls: true,
      tool_choice: 'auto',
      tools: [],
      usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
    };
  }
  if (path.endsWith('/messages')) {
    return {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text: 'done' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    };
  }
  if (path.includes(':generateContent')) {
    return {
      candidates: [
        { content: { role: 'model', parts: [{ text: 'done' }] }, finishReason: 'STOP', index: 0 },
      ],
      usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
    };
  }
  return { error: `no reply for ${path}` };
}
