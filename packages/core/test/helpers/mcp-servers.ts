/** Real MCP servers from npm, started as a person's settings would start them. */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
export const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
export const BIND_LOOPBACK = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'bind-loopback.cjs',
);

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/**
 * server-everything over SSE or streamable HTTP on 127.0.0.1 (on the given port, or a free
 * one); resolves when it listens. stop() kills it as a crash would.
 */
export async function startEverythingHttp(
  transport: 'sse' | 'streamableHttp',
  givenPort?: number,
): Promise<{ port: number; url: string; stop: () => void }> {
  const port = givenPort ?? (await freePort());
  const child: ChildProcess = spawn(
    process.execPath,
    ['--require', BIND_LOOPBACK, EVERYTHING, transport],
    {
      env: { PATH: process.env.PATH, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server-everything did not start')), 20_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      if (/listening|running/i.test(chunk.toString())) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', () => reject(new Error('server-everything exited')));
  });
  const url = `http://127.0.0.1:${port}/${transport === 'sse' ? 'sse' : 'mcp'}`;
  return { port, url, stop: () => child.kill('SIGKILL') };
}

/** An MCP server file of a test's own, importing the SDK installed here. */
export function sdkServerScript(body: string): string {
  const sdk = path.dirname(
    path.dirname(fileURLToPath(import.meta.resolve('@modelcontextprotocol/sdk/server/mcp.js'))),
  );
  return `import { McpServer } from ${JSON.stringify(`${sdk}/server/mcp.js`)};
import { StdioServerTransport } from ${JSON.stringify(`${sdk}/server/stdio.js`)};
import { z } from ${JSON.stringify(require.resolve('zod').replace(/index\.c?js$/, 'index.js'))};
${body}`;
}

/** server-everything over stdio, started only after a delay: a server that arrives late. */
export function lateEverything(delayMs: number): { command: string; args: string[] } {
  return {
    command: process.execPath,
    args: ['-e', `setTimeout(() => import(${JSON.stringify(EVERYTHING)}), ${delayMs})`, 'stdio'],
  };
}
