/**
 * `toolhost mcp --http` serving two clients at once: what one client's person allowed
 * "always" stays with that client. A second client that cannot ask (no elicitation) is
 * still refused, proven by the file it would create and the file it would overwrite.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../../core/test/helpers/processes.js';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { type RunningCli, startCli } from './run-cli.js';

let dirs: TempDirs;
let server: RunningCli | undefined;
const clients: Client[] = [];

beforeEach(() => {
  dirs = makeTempDirs({ rootName: 'project' });
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  server?.child.kill('SIGTERM');
  await server?.exited;
  server = undefined;
  dirs.cleanup();
});

const TOKEN = 'approvals-token';

async function startHttp(): Promise<string> {
  const running = startCli(['mcp', '--root', dirs.root, '--http', '0', '--token', TOKEN], {
    cwd: dirs.root,
    home: dirs.home,
  });
  server = running;
  expect(await waitUntil(() => /serving on/.test(running.stderr()), 20_000)).toBe(true);
  return /serving on (\S+)/.exec(running.stderr())![1]!;
}

/** A client session; with `answer`, it supports elicitation and answers every question so. */
async function connect(
  url: string,
  answer?: 'always',
): Promise<{ client: Client; asked: string[] }> {
  const asked: string[] = [];
  const client = new Client(
    { name: answer ? 'asking-client' : 'silent-client', version: '1.0.0' },
    { capabilities: answer ? { elicitation: {} } : {} },
  );
  if (answer)
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(String((request.params as { message: string }).message));
      return { action: 'accept', content: { decision: answer } };
    });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    }),
  );
  clients.push(client);
  return { client, asked };
}

const shell = (command: string) => ({
  name: 'run_shell_command',
  arguments: { command, is_background: false },
});

describe('toolhost mcp --http: "always" belongs to the client session that said it', () => {
  it('a second client is still refused after the first allowed touch and write_file always', {
    timeout: 90_000,
  }, async () => {
    const keep = path.join(dirs.root, 'keep.txt');
    writeFileSync(keep, 'original\n');
    const url = await startHttp();
    const a = await connect(url, 'always');
    const b = await connect(url);

    const first = await a.client.callTool(shell(`touch ${path.join(dirs.root, 'a1')}`));
    expect(first.isError).toBeFalsy();
    const written = await a.client.callTool({
      name: 'write_file',
      arguments: { file_path: path.join(dirs.root, 'a.txt'), content: 'from a' },
    });
    expect(written.isError).toBeFalsy();
    expect(a.asked).toHaveLength(2);
    // The first client's "always" holds for itself: asked no more.
    await a.client.callTool(shell(`touch ${path.join(dirs.root, 'a2')}`));
    expect(existsSync(path.join(dirs.root, 'a2'))).toBe(true);
    expect(a.asked).toHaveLength(2);

    const canary = path.join(dirs.root, 'canary');
    const touched = await b.client.callTool(shell(`touch ${canary}`));
    expect(touched.isError).toBe(true);
    expect(JSON.stringify(touched.content)).toContain('could not ask the person');
    expect(existsSync(canary)).toBe(false);
    const overwrite = await b.client.callTool({
      name: 'write_file',
      arguments: { file_path: keep, content: 'overwritten\n' },
    });
    expect(overwrite.isError).toBe(true);
    expect(readFileSync(keep, 'utf8')).toBe('original\n');
  });
});
