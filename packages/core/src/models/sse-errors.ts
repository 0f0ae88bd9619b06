/**
 * Errors reported inside a stream, after HTTP 200, made visible to the `openai` package.
 * llama-server writes them as an SSE field of their own (`error: {...}`), which SSE
 * readers ignore, so the stream would just end with no answer and be retried blindly;
 * others send `event: error` with a body that lacks the `error` key the package looks
 * for. Both are rewritten as `data: {"error": ...}`, which the package turns into an
 * APIError carrying the server's message (and its `code`, the status it stands for).
 */

/** A fetch that rewrites error events in event-stream answers (other answers pass untouched). */
export function fetchWithStreamErrors(base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    const type = response.headers.get('content-type') ?? '';
    if (!response.body || !type.includes('text/event-stream')) return response;
    const body = response.body
      .pipeThrough(new TextDecoderStream())
      .pipeThrough(errorEventsAsData(init?.signal ?? undefined))
      .pipeThrough(new TextEncoderStream());
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/**
 * Rewrites whole lines; a line split across chunks waits for its end. The request's abort
 * ends the stream at once, as it would the body itself, even when the pipe has already
 * read all of it.
 */
export function errorEventsAsData(signal?: AbortSignal): TransformStream<string, string> {
  let pending = '';
  let inErrorEvent = false;
  const rewrite = (line: string): string | undefined => {
    const bare = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (bare === '') inErrorEvent = false;
    if (/^event:\s*error$/.test(bare)) {
      inErrorEvent = true;
      return undefined;
    }
    const errorField = /^error:\s?(.*)$/.exec(bare);
    if (errorField) return `data: ${asErrorData(errorField[1] ?? '')}`;
    const dataField = inErrorEvent ? /^data:\s?(.*)$/.exec(bare) : null;
    if (dataField) return `data: ${asErrorData(dataField[1] ?? '')}`;
    return line;
  };
  let stopListening = () => {};
  return new TransformStream({
    start(controller) {
      if (!signal) return;
      const abort = () => controller.error(signal.reason ?? new Error('aborted'));
      if (signal.aborted) abort();
      signal.addEventListener('abort', abort, { once: true });
      stopListening = () => signal.removeEventListener('abort', abort);
    },
    transform(chunk, controller) {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      const out = lines.map(rewrite).filter((line) => line !== undefined);
      if (out.length > 0) controller.enqueue(`${out.join('\n')}\n`);
    },
    flush(controller) {
      stopListening();
      if (pending === '') return;
      const last = rewrite(pending);
      if (last !== undefined) controller.enqueue(last);
    },
  });
}

/** `{"error": <the payload>}`; a payload already shaped so, or plain text, made to fit. */
function asErrorData(payload: string): string {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return JSON.stringify({ error: { message: payload || 'the server reported an error' } });
  }
  if (value && typeof value === 'object' && 'error' in value && (value as { error: unknown }).error)
    return JSON.stringify(value);
  if (value && typeof value === 'object') return JSON.stringify({ error: value });
  return JSON.stringify({ error: { message: String(value) } });
}
