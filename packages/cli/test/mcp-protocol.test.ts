/**
 * `toolhost mcp` speaking the protocol to the SDK's client: unknown tools as protocol
 * errors, live output as progress, toolhost's warnings as log messages, and a one-line
 * banner for a person who starts it in a terminal (tmux).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ErrorCode,
  LoggingMessageNotificationSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../../core/test/helpers/processes.js';
import { hasTmux, tmuxSkipReason } from './helpers/tmux.js';
import { CLI } from './run-cli.js';

let base: string;
let root: string;
let home: string;
let client: Client | undefined;

beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'toolhost-proto-')));
  root = path.join(base, 'project');
  home = path.join(base, 'home');
  mkdirSync(root);
  mkdirSync(path.join(home, '.toolhost'), { recursive: true });
});
afterEach(async () => {
  await client?.close().catch(() => undefined);
  client = undefined;
  rmSync(base, { recursive: true, force: true });
});

async function connect(settings: unknown = {}, args: string[] = []) {
  writeFileSync(path.join(home, '.toolhost', 'settings.json'), JSON.stringify(settings));
  client = new Client({ name: 'test-client', version: '1.0.0' });
  const logged: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, async (notification) => {
    logged.push(`${notification.params.level}: ${String(notification.params.data)}`);
  });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--root', root, ...args],
      env: { PATH: process.env.PATH ?? '', HOME: home },
      stderr: 'ignore',
    }),
  );
  return { client, logged };
}

describe('toolhost mcp and the protocol', () => {
  it('answers an unknown tool with an invalid-params error that suggests names', async () => {
    const { client: c } = await connect();
    const error = await c.callTool({ name: 'read_fiel', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((error as McpError).message).toContain('Did you mean "read_file"');
  });

  it('sends a command’s output as progress when the client asks for progress', async () => {
    const { client: c } = await connect({}, ['--approval-mode', 'yolo']);
    const messages: string[] = [];
    const result = await c.callTool(
      {
        name: 'run_shell_command',
        arguments: { command: 'echo first; sleep 1; echo second', is_background: false },
      },
      undefined,
      { onprogress: (progress) => messages.push(progress.message ?? '') },
    );
    expect(JSON.stringify(result.content)).toContain('second');
    expect(messages.join('')).toContain('first');
  });

  it("sends toolhost's own warnings to the client as log messages", async () => {
    const { logged } = await connect({
      mcpServers: { broken: { command: path.join(base, 'no-such-server') } },
    });
    expect(await waitUntil(() => logged.some((line) => line.includes('"broken"')), 20_000)).toBe(
      true,
    );
    expect(logged.find((line) => line.includes('"broken"'))).toMatch(
      /^warning: MCP server "broken" is not available: .*ENOENT/,
    );
  });
});

describe.skipIf(!hasTmux)(`toolhost mcp in a terminal${tmuxSkipReason}`, () => {
  it('says on one line what it is doing, so it does not look hung', async () => {
    const socket = `toolhost-banner-${process.pid}-${Date.now()}`;
    const tmux = (...args: string[]) =>
      execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
    try {
      tmux(
        'new-session',
        '-d',
        '-s',
        'mcp',
        '-x',
        '200',
        '-y',
        '20',
        `cd ${root} && HOME=${home} ${process.execPath} ${CLI} mcp; sleep 30`,
      );
      const shown = () => tmux('capture-pane', '-p', '-t', 'mcp');
      expect(await waitUntil(() => shown().includes('toolhost mcp: serving'), 20_000)).toBe(true);
      expect(shown()).toContain(`over stdio for ${root}`);
    } finally {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
    }
  });
});
