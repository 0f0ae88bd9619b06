import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURES, makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { CLI } from './run-cli.js';

const PIXEL = path.join(FIXTURES, 'pixel.png');

let dirs: TempDirs;
let root: string;
let client: Client | undefined;
let server: ChildProcess | undefined;

beforeEach(() => {
  dirs = makeTempDirs({ rootName: 'project' });
  root = dirs.root;
  writeFileSync(path.join(root, 'notes.txt'), 'remember the milk\n');
  copyFileSync(PIXEL, path.join(root, 'pixel.png'));
});
afterEach(async () => {
  await client?.close().catch(() => undefined);
  client = undefined;
  server?.kill('SIGTERM');
  server = undefined;
  dirs.cleanup();
});

const env = () => ({
  PATH: process.env.PATH ?? '',
  HOME: dirs.home,
  TOOLHOST_SYSTEM_SETTINGS_PATH: path.join(dirs.base, 'none.json'),
});
const text = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');

async function connectStdio(extraArgs: string[] = [], capabilities: Record<string, unknown> = {}) {
  client = new Client({ name: 'test-client', version: '1.0.0' }, { capabilities });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--root', root, ...extraArgs],
      env: env(),
    }),
  );
  return client;
}

describe('toolhost mcp over stdio', () => {
  it('lists the tools with annotations from their kinds', async () => {
    const c = await connectStdio();
    const { tools } = await c.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.read_file?.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.write_file?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(byName.run_shell_command?.annotations).toMatchObject({ destructiveHint: true });
    expect(byName.read_file?.inputSchema).toMatchObject({
      type: 'object',
      required: ['absolute_path'],
    });
  });

  it('calls a tool and returns text, images as image content and audio as audio content', async () => {
    const c = await connectStdio();
    const notes = await c.callTool({
      name: 'read_file',
      arguments: { absolute_path: path.join(root, 'notes.txt') },
    });
    expect(notes.isError).toBeFalsy();
    expect(text(notes)).toBe('remember the milk\n');
    const image = await c.callTool({
      name: 'read_file',
      arguments: { absolute_path: path.join(root, 'pixel.png') },
    });
    expect(image.content).toContainEqual({
      type: 'image',
      mimeType: 'image/png',
      data: readFileSync(PIXEL).toString('base64'),
    });
    const wav = path.resolve(path.dirname(PIXEL), 'beep.wav');
    copyFileSync(wav, path.join(root, 'beep.wav'));
    const audio = await c.callTool({
      name: 'read_file',
      arguments: { absolute_path: path.join(root, 'beep.wav') },
    });
    expect(audio.content).toContainEqual({
      type: 'audio',
      mimeType: 'audio/wav',
      data: readFileSync(wav).toString('base64'),
    });
  });

  it('reports tool errors as isError results', async () => {
    const c = await connectStdio();
    const missing = await c.callTool({
      name: 'read_file',
      arguments: { absolute_path: path.join(root, 'nope.txt') },
    });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain('does not exist');
  });

  it('refuses a call that needs approval when the client cannot ask, naming the flag', async () => {
    const c = await connectStdio();
    const result = await c.callTool({
      name: 'write_file',
      arguments: { file_path: path.join(root, 'new.txt'), content: 'x' },
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('--approval-mode auto-edit');
    expect(() => readFileSync(path.join(root, 'new.txt'))).toThrow();
  });

  it('runs such a call when the approval mode allows it', async () => {
    const c = await connectStdio(['--approval-mode', 'auto-edit']);
    const result = await c.callTool({
      name: 'write_file',
      arguments: { file_path: path.join(root, 'new.txt'), content: 'x' },
    });
    expect(result.isError).toBeFalsy();
    expect(readFileSync(path.join(root, 'new.txt'), 'utf8')).toBe('x');
  });

  it('asks through the client when it supports elicitation', async () => {
    client = new Client(
      { name: 'asking-client', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    const questions: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      questions.push(String((request.params as { message: string }).message));
      return { action: 'accept', content: { decision: 'once' } };
    });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', '--root', root],
        env: env(),
      }),
    );
    const result = await client.callTool({
      name: 'write_file',
      arguments: { file_path: path.join(root, 'asked.txt'), content: 'yes' },
    });
    expect(result.isError).toBeFalsy();
    expect(questions[0]).toContain('Create asked.txt?');
    expect(questions[0]).toContain('+yes');
    expect(readFileSync(path.join(root, 'asked.txt'), 'utf8')).toBe('yes');
  });
});

describe('toolhost mcp over HTTP', () => {
  async function startHttp(
    token?: string,
    envToken?: string,
  ): Promise<{ url: string; token: string; stderr: string }> {
    server = spawn(
      process.execPath,
      [CLI, 'mcp', '--root', root, '--http', '0', ...(token ? ['--token', token] : [])],
      {
        env: { ...env(), ...(envToken ? { TOOLHOST_MCP_TOKEN: envToken } : {}) },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    const given = token ?? envToken;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start: ${stderr}`)), 20_000);
      server!.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (/serving on/.test(stderr) && (given || /bearer token/.test(stderr))) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const url = /serving on (\S+)/.exec(stderr)![1]!;
    return { url, token: given ?? /bearer token (\S+)/.exec(stderr)![1]!, stderr };
  }

  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'x', version: '1' },
    },
  });
  const post = (url: string, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: initialize,
    });

  it('takes the token from $TOOLHOST_MCP_TOKEN, and does not print it', async () => {
    const { url, stderr } = await startHttp(undefined, 'token-from-env');
    expect(stderr).not.toContain('token-from-env');
    expect(stderr).not.toContain('bearer token');
    expect((await post(url, { authorization: 'Bearer token-from-env' })).status).toBe(200);
    expect((await post(url, { authorization: 'Bearer other' })).status).toBe(401);
  });

  it('binds 127.0.0.1, prints a generated token, and serves tools to a client that sends it', async () => {
    const { url, token } = await startHttp();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(token).toMatch(/^[0-9a-f]{48}$/);
    client = new Client({ name: 'http-client', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    expect((await client.listTools()).tools.length).toBeGreaterThan(5);
    const notes = await client.callTool({
      name: 'read_file',
      arguments: { absolute_path: path.join(root, 'notes.txt') },
    });
    expect(text(notes)).toBe('remember the milk\n');
  });

  it('refuses a bad token and other origins', async () => {
    const { url } = await startHttp('s3cret');
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'x', version: '1' },
      },
    });
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const bad = await fetch(url, {
      method: 'POST',
      headers: { ...headers, authorization: 'Bearer wrong' },
      body: initialize,
    });
    expect(bad.status).toBe(401);
    const none = await fetch(url, { method: 'POST', headers, body: initialize });
    expect(none.status).toBe(401);
    const foreign = await fetch(url, {
      method: 'POST',
      headers: { ...headers, authorization: 'Bearer s3cret', origin: 'https://evil.example' },
      body: initialize,
    });
    expect(foreign.status).toBe(403);
    const good = await fetch(url, {
      method: 'POST',
      headers: { ...headers, authorization: 'Bearer s3cret' },
      body: initialize,
    });
    expect(good.status).toBe(200);
  });
});
