import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../../core/test/helpers/processes.js';
import { FIXTURES, makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { initializeRequest, listToolsOverStdio } from '../scripts/mcp-opening.mjs';
import { CLI, type RunningCli, startCli } from './run-cli.js';

const PIXEL = path.join(FIXTURES, 'pixel.png');

let dirs: TempDirs;
let root: string;
let client: Client | undefined;
let server: RunningCli | undefined;

beforeEach(() => {
  dirs = makeTempDirs({ rootName: 'project' });
  root = dirs.root;
  writeFileSync(path.join(root, 'notes.txt'), 'remember the milk\n');
  copyFileSync(PIXEL, path.join(root, 'pixel.png'));
});
afterEach(async () => {
  await client?.close().catch(() => undefined);
  client = undefined;
  server?.child.kill('SIGTERM');
  await server?.exited;
  server = undefined;
  dirs.cleanup();
});

const env = () => ({
  PATH: process.env.PATH ?? '',
  HOME: dirs.home,
  TOOLHOST_SYSTEM_SETTINGS_PATH: path.join(dirs.home, 'no-system-settings.json'),
});
const text = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');

/** A client of `toolhost mcp` over stdio; `prepare` sets its handlers before it connects. */
async function connectStdio(
  extraArgs: string[] = [],
  capabilities: Record<string, unknown> = {},
  prepare?: (client: Client) => void,
) {
  client = new Client({ name: 'test-client', version: '1.0.0' }, { capabilities });
  prepare?.(client);
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
  it('answers the opening written by hand, as the bench sends it', async () => {
    const child = spawn(process.execPath, [CLI, 'mcp', '--root', root], {
      env: env(),
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    try {
      const tools = (await listToolsOverStdio(child, 'hand-written')) as { name: string }[];
      expect(tools.map((tool) => tool.name)).toContain('read_file');
    } finally {
      child.kill();
    }
  });

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
    copyFileSync(path.join(FIXTURES, 'beep.wav'), path.join(root, 'beep.wav'));
    for (const [name, type, mimeType] of [
      ['pixel.png', 'image', 'image/png'],
      ['beep.wav', 'audio', 'audio/wav'],
    ]) {
      const media = await c.callTool({
        name: 'read_file',
        arguments: { absolute_path: path.join(root, name!) },
      });
      expect(media.content).toContainEqual({
        type,
        mimeType,
        data: readFileSync(path.join(FIXTURES, name!)).toString('base64'),
      });
    }
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

  it('in yolo, refuses a read an ask rule covers when the client cannot ask, naming the rule', async () => {
    mkdirSync(path.join(dirs.home, '.toolhost'), { recursive: true });
    writeFileSync(
      path.join(dirs.home, '.toolhost', 'settings.json'),
      JSON.stringify({ permissions: { ask: ['Read(./notes.txt)'] } }),
    );
    const c = await connectStdio(['--approval-mode', 'yolo']);
    const result = await c.callTool({
      name: 'read_file',
      arguments: { absolute_path: path.join(root, 'notes.txt') },
    });
    expect(result.isError).toBe(true);
    expect(text(result)).not.toContain('remember the milk');
    expect(text(result)).toContain('The rule Read(./notes.txt) in permissions.ask asks');
    // Yolo did not let it run, so it is not offered as the way.
    expect(text(result)).not.toContain('--approval-mode yolo');
  });

  it('asks through the client when it supports elicitation', async () => {
    const questions: string[] = [];
    const c = await connectStdio([], { elicitation: {} }, (asking) =>
      asking.setRequestHandler(ElicitRequestSchema, async (request) => {
        questions.push(String((request.params as { message: string }).message));
        return { action: 'accept', content: { decision: 'once' } };
      }),
    );
    const result = await c.callTool({
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
    const running = startCli(
      ['mcp', '--root', root, '--http', '0', ...(token ? ['--token', token] : [])],
      { cwd: root, home: dirs.home, env: envToken ? { TOOLHOST_MCP_TOKEN: envToken } : {} },
    );
    server = running;
    const given = token ?? envToken;
    const started = () =>
      /serving on/.test(running.stderr()) &&
      (given !== undefined || /bearer token/.test(running.stderr()));
    expect(await waitUntil(started, 20_000), `no start: ${running.stderr()}`).toBe(true);
    const stderr = running.stderr();
    const url = /serving on (\S+)/.exec(stderr)![1]!;
    return { url, token: given ?? /bearer token (\S+)/.exec(stderr)![1]!, stderr };
  }

  const initialize = JSON.stringify(initializeRequest('x'));
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
    expect((await post(url, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await post(url)).status).toBe(401);
    const foreign = { authorization: 'Bearer s3cret', origin: 'https://evil.example' };
    expect((await post(url, foreign)).status).toBe(403);
    expect((await post(url, { authorization: 'Bearer s3cret' })).status).toBe(200);
  });
});
