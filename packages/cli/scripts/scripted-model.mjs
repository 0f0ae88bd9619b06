/**
 * A stand-in model for making the code cache of `toolhost -p`: an OpenAI-compatible chat
 * endpoint on 127.0.0.1 that answers every request with the one word "done" (streamed or
 * not, as asked), so a headless run starts, asks once and ends. It prints its port on
 * its first line and ends when its standard input closes, so it never outlives the build.
 */
import http from 'node:http';

const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
const message = { role: 'assistant', content: 'done' };

const server = http.createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => {
    body += chunk;
  });
  request.on('end', () => {
    let stream = false;
    try {
      stream = JSON.parse(body).stream === true;
    } catch {
      // not JSON: answered as a plain request
    }
    const base = { id: 'scripted', model: 'scripted', created: 0 };
    if (!stream) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          ...base,
          object: 'chat.completion',
          choices: [{ index: 0, message, finish_reason: 'stop' }],
          usage,
        }),
      );
      return;
    }
    const event = (choice, extra = {}) =>
      `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [choice], ...extra })}\n\n`;
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write(event({ index: 0, delta: message, finish_reason: null }));
    response.write(event({ index: 0, delta: {}, finish_reason: 'stop' }, { usage }));
    response.end('data: [DONE]\n\n');
  });
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${server.address().port}\n`);
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
