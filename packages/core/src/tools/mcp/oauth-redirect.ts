/** The loopback listener that takes the browser's redirect after an MCP server sign-in, checking its state. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A listener on 127.0.0.1 that takes the browser's redirect after sign-in. */
export interface RedirectListener {
  redirectUrl: string;
  /** Only redirects carrying this state are taken (the one in the last sign-in link). */
  expectState(state: () => string | undefined): void;
  /** The next authorization code the browser brings back. */
  code(): Promise<string>;
  close(): Promise<void>;
}

export async function listenForRedirect(
  port: number,
  timeoutMs = 5 * 60_000,
): Promise<RedirectListener> {
  let expected: () => string | undefined = () => undefined;
  let waiting: { resolve(code: string): void; reject(error: Error): void } | undefined;
  // A browser (or a test) may come back before anyone waits: keep what it brought.
  const received: (string | Error)[] = [];
  const deliver = (outcome: string | Error) => {
    const taker = waiting;
    waiting = undefined;
    if (!taker) received.push(outcome);
    else if (typeof outcome === 'string') taker.resolve(outcome);
    else taker.reject(outcome);
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    const state = expected();
    if (state !== undefined && url.searchParams.get('state') !== state) {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(
        'This sign-in link is not the one toolhost is waiting for. Start again from toolhost.\n',
      );
      return;
    }
    const error = url.searchParams.get('error');
    const given = url.searchParams.get('code');
    res.writeHead(error || !given ? 400 : 200, { 'content-type': 'text/plain; charset=utf-8' });
    if (error || !given) {
      const said = url.searchParams.get('error_description') ?? error ?? 'no code';
      res.end(`Sign-in failed: ${said}. You can close this page.\n`);
      deliver(new Error(`the authorization server refused the sign-in: ${said}`));
      return;
    }
    res.end('Signed in. You can close this page and return to toolhost.\n');
    deliver(given);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    redirectUrl: `http://127.0.0.1:${actual}/callback`,
    expectState(state) {
      expected = state;
    },
    code: () =>
      new Promise<string>((resolve, reject) => {
        const early = received.shift();
        if (early !== undefined) {
          if (typeof early === 'string') resolve(early);
          else reject(early);
          return;
        }
        const timer = setTimeout(
          () =>
            reject(new Error(`nobody finished signing in within ${timeoutMs / 60_000} minutes`)),
          timeoutMs,
        );
        waiting = {
          resolve: (code) => {
            clearTimeout(timer);
            resolve(code);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        };
      }),
    close: async () => {
      deliver(new Error('the sign-in was abandoned'));
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
