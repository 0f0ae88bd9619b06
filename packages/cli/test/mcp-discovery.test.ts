/**
 * The command with MCP servers that are slow, hang, or report progress, as a person or an
 * MCP client meets them. Hanging servers get a ten-minute start timeout: a command that
 * waited for one would not finish within the test's time.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EVERYTHING, lateEverything } from '../../core/test/helpers/mcp-servers.js';
import { processesMatching, uniqueSleep, waitUntil } from '../../core/test/helpers/processes.js';
import { CLI, runCli } from './run-cli.js';

const TEN_MINUTES = 600_000;
let base: string;
let root: string;
let home: string;
let client: Client | undefined;

beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'toolhost-mcpd-')));
  root = path.join(base, 'project');
  home = path.join(base, 'home');
  mkdirSync(root);
  mkdirSync(path.join(home, '.toolhost'), { recursive: true });
  writeFileSync(path.join(root, 'notes.txt'), 'remember the milk\n');
});
afterEach(async () => {
  await client?.close().catch(() => undefined);
  client = undefined;
  rmSync(base, { recursive: true, force: true });
});

function writeUserSettings(settings: unknown) {
  writeFileSync(path.join(home, '.toolhost', 'settings.json'), JSON.stringify(settings));
}

describe('toolhost call with MCP servers configured', () => {
  it('runs a built-in tool without waiting for a server that hangs, and ends that server', () => {
    const marker = uniqueSleep();
    writeUserSettings({
      mcpServers: { hangs: { command: 'sleep', args: [marker], timeout: TEN_MINUTES } },
    });
    const { code, stdout } = runCli(
      ['call', 'read_file', JSON.stringify({ absolute_path: path.join(root, 'notes.txt') })],
      { cwd: root, home },
    );
    expect(code).toBe(0);
    expect(stdout).toContain('remember the milk');
    expect(processesMatching(`sleep ${marker}`)).toEqual([]);
  });

  it('shows the progress of a long MCP tool while it runs', () => {
    writeUserSettings({
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], trust: true },
      },
    });
    const { code, stdout, stderr } = runCli(
      ['call', 'trigger-long-running-operation', JSON.stringify({ duration: 1, steps: 3 })],
      { cwd: root, home },
    );
    expect(code).toBe(0);
    expect(stdout).toContain('Long running operation completed');
    expect(stderr).toContain('everything/trigger-long-running-operation progress 1/3 (33%)');
    expect(stderr).toContain('everything/trigger-long-running-operation progress 2/3 (67%)');
  });
});

describe('toolhost mcp with servers that arrive late', () => {
  it('answers at once, announces tools as servers arrive, and ends hanging servers', async () => {
    const marker = uniqueSleep();
    writeUserSettings({
      mcpServers: {
        hangs: { command: 'sleep', args: [marker], timeout: TEN_MINUTES },
        late: { ...lateEverything(2000), trust: true },
      },
    });
    client = new Client({ name: 'test-client', version: '1.0.0' });
    let announced = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      announced++;
    });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', '--root', root],
        env: { PATH: process.env.PATH ?? '', HOME: home },
        stderr: 'ignore',
      }),
    );
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    const first = (await client.listTools()).tools.map((tool) => tool.name);
    expect(first).toContain('read_file');
    expect(first).not.toContain('echo');

    // A call naming the late server's tool waits for it.
    const echoed = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
    expect(echoed.content).toEqual([{ type: 'text', text: 'Echo: hi' }]);
    expect(await waitUntil(() => announced > 0)).toBe(true);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('echo');

    expect(processesMatching(`sleep ${marker}`)).toHaveLength(1);
    await client.close();
    client = undefined;
    expect(await waitUntil(() => processesMatching(`sleep ${marker}`).length === 0, 10_000)).toBe(
      true,
    );
  });
});
