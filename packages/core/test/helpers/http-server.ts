/** HTTP servers on 127.0.0.1 for tests, stopped by the test that started them. */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface TestServer {
  url: string;
  port: number;
  requests: string[];
  close(): Promise<void>;
}

export async function startServer(handler: http.RequestListener): Promise<TestServer> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  return listenOnLoopback(server, requests);
}

const TLS_FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/tls');
/** The test servers' self-signed certificate, for clients to trust explicitly. */
export const TEST_CA = readFileSync(path.join(TLS_FIXTURES, 'cert.pem'), 'utf8');

/** An HTTPS server on 127.0.0.1 with the test certificate in fixtures/tls. */
export async function startHttpsServer(handler: http.RequestListener): Promise<TestServer> {
  const requests: string[] = [];
  const server = https.createServer(
    { cert: TEST_CA, key: readFileSync(path.join(TLS_FIXTURES, 'key.pem')) },
    (req, res) => {
      requests.push(`${req.method} ${req.headers.host}${req.url}`);
      handler(req, res);
    },
  );
  return listenOnLoopback(server, requests);
}

/**
 * A forward proxy (CONNECT tunnels and plain requests) that records what it was asked for.
 * `tunnelTo` sends every CONNECT tunnel to that loopback port instead of the named host, so
 * a test can stand in for a public server without leaving the machine.
 */
export async function startProxy(options: { tunnelTo?: number } = {}): Promise<TestServer> {
  const requests: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '');
    const upstream = http.request(
      target,
      { method: req.method, headers: req.headers },
      (response) => {
        res.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  server.on('connect', (req, client: net.Socket, head) => {
    requests.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = (
      options.tunnelTo
        ? net.connect(options.tunnelTo, '127.0.0.1')
        : net.connect(Number(port), host)
    ).once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(client).add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  return listenOnLoopback(server, requests, () => {
    for (const socket of sockets) socket.destroy();
  });
}

/** Listens on a free port of 127.0.0.1; close() also drops open connections. */
async function listenOnLoopback(
  server: http.Server | https.Server,
  requests: string[],
  beforeClose?: () => void,
): Promise<TestServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise((resolve) => {
        beforeClose?.();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
