/**
 * `toolhost mcp --http` and the processes around it, against the installed command on
 * 127.0.0.1: a client frozen with SIGSTOP (its GET stream open, unread) loses its session;
 * toolhost as an MCP client (`tools`, `call`, `mcp` serving another server's tools) ends
 * the HTTP sessions it opened, and `call` on a terminal asks the service's questions there;
 * start-up failures are one line and exit 2.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../../core/test/helpers/processes.js';
import {
  health,
  jsonLines,
  mcpServicePerTest,
  sessionsReach,
  TOKEN,
} from './helpers/mcp-service.js';
import { hasTmux, startToolhostInTmux, tmuxSkipReason } from './helpers/tmux.js';
import { CLI, runCliAsync } from './run-cli.js';

const service = mcpServicePerTest();
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'toolhost-peers-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** An MCP SDK client in its own process: connects (its GET stream open), says so, waits. */
function sdkClientProcess(url: string): { child: ChildProcess; ready: () => boolean } {
  const sdk = path.dirname(
    path.dirname(fileURLToPath(import.meta.resolve('@modelcontextprotocol/sdk/client/index.js'))),
  );
  const script = path.join(tempDir(), 'client.mjs');
  writeFileSync(
    script,
    `import { Client } from ${JSON.stringify(`${sdk}/client/index.js`)};
import { StreamableHTTPClientTransport } from ${JSON.stringify(`${sdk}/client/streamableHttp.js`)};
const client = new Client({ name: 'frozen', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(${JSON.stringify(url)}), {
  requestInit: { headers: { authorization: 'Bearer ${TOKEN}' } },
}));
await client.listTools();
console.log('ready');
setInterval(() => undefined, 60_000);
`,
  );
  const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanups.push(() => child.kill('SIGKILL'));
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  return { child, ready: () => out.includes('ready') };
}

/** A client's settings naming the service as the MCP server `svc`. */
function clientSettings(home: string, url: string): void {
  mkdirSync(path.join(home, '.toolhost'));
  writeFileSync(
    path.join(home, '.toolhost', 'settings.json'),
    JSON.stringify({
      mcpServers: {
        svc: { httpUrl: url, headers: { Authorization: `Bearer ${TOKEN}` }, trust: true },
      },
    }),
  );
}

describe('toolhost mcp --http: a client that stops reading', () => {
  it('frees the session of a client stopped with SIGSTOP', { timeout: 60_000 }, async () => {
    const url = await service.start('--keep-alive', '1', '--session-idle-timeout', '2');
    const frozen = sdkClientProcess(url);
    expect(await waitUntil(frozen.ready, 20_000)).toBe(true);
    // Past the idle timeout with its stream open, a live client keeps its session.
    await new Promise((wake) => setTimeout(wake, 3000));
    expect((await health(url)).body.sessions).toBe(1);
    frozen.child.kill('SIGSTOP');
    expect(await sessionsReach(url, 0, 20_000)).toBe(true);
  });
});

describe('toolhost as an MCP client of the service', () => {
  it('ends its session when `tools`, `call` and `mcp` are done', { timeout: 90_000 }, async () => {
    const url = await service.start('--log-json');
    const home = tempDir();
    const project = tempDir();
    writeFileSync(path.join(project, 'note.txt'), 'written for the client\n');
    clientSettings(home, url);
    const options = { cwd: project, home };
    const tools = await runCliAsync(['tools', '--root', project], options);
    expect(tools.stdout).toContain('svc__read_file');
    expect((await health(url)).body.sessions).toBe(0);

    const call = await runCliAsync(
      [
        'call',
        'svc__list_directory',
        JSON.stringify({ path: service.dirs.root }),
        '--root',
        project,
      ],
      options,
    );
    expect(call.code, call.stderr).toBe(0);
    expect((await health(url)).body.sessions).toBe(0);
    // A built-in's call may end while the server is still being connected.
    const local = await runCliAsync(
      ['call', 'read_file', JSON.stringify({ absolute_path: path.join(project, 'note.txt') })],
      options,
    );
    expect(local.code, local.stderr).toBe(0);
    expect((await health(url)).body.sessions).toBe(0);

    // `toolhost mcp` over stdio serves the service's tools too; its end ends that session.
    const proxy = new Client({ name: 'proxy-client', version: '1.0.0' });
    await proxy.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', '--root', project],
        env: {
          PATH: process.env.PATH ?? '',
          HOME: home,
          TOOLHOST_SYSTEM_SETTINGS_PATH: path.join(home, 'no-system-settings.json'),
        },
      }),
    );
    const deadline = Date.now() + 20_000;
    let names: string[] = [];
    while (!names.includes('svc__read_file') && Date.now() < deadline) {
      names = (await proxy.listTools()).tools.map((tool) => tool.name);
      await new Promise((wake) => setTimeout(wake, 200));
    }
    expect(names).toContain('svc__read_file');
    expect((await health(url)).body.sessions).toBe(1);
    await proxy.close();
    expect(await sessionsReach(url, 0, 10_000)).toBe(true);
    // Each session opened was ended by its client (the built-in's call may end before its
    // connection opened one).
    const events = jsonLines(service.server.stderr());
    const started = events.filter((e) => e.event === 'session_start').length;
    expect(started).toBeGreaterThanOrEqual(3);
    const ended = events.filter((e) => e.event === 'session_end' && e.reason === 'delete');
    expect(ended).toHaveLength(started);
  });
});

describe.skipIf(!hasTmux)(
  `toolhost call on a terminal, against the service${tmuxSkipReason}`,
  () => {
    it("asks the service's approval question on the terminal and writes once allowed", {
      timeout: 90_000,
    }, async () => {
      // Without --approval-mode yolo the service asks its client before a write.
      const url = await service.start('--approval-mode', 'default');
      const home = tempDir();
      const project = tempDir();
      clientSettings(home, url);
      const target = path.join(service.dirs.root, 'asked.txt');
      const terminal = startToolhostInTmux(
        ['call', 'svc__write_file', JSON.stringify({ file_path: target, content: 'allowed' })],
        { cwd: project, home },
      );
      cleanups.push(() => terminal.close());
      await terminal.waitFor('Allow this? 1) Yes, this once');
      expect(existsSync(target)).toBe(false);
      terminal.type('1');
      terminal.press('Enter');
      expect(await terminal.waitForExit()).toBe(0);
      expect(readFileSync(target, 'utf8')).toBe('allowed');
      expect((await health(url)).body.sessions).toBe(0);
    });
  },
);

describe('toolhost mcp --http: start-up failures', () => {
  it('says in one line what is wrong and exits 2: port in use, foreign address, bad token file', {
    timeout: 60_000,
  }, async () => {
    const url = new URL(await service.start());
    const { root, home } = service.dirs;
    const run = (...flags: string[]) =>
      runCliAsync(['mcp', '--root', root, '--http', ...flags], { cwd: root, home });
    const oneLine = async (flags: string[], pattern: RegExp) => {
      const result = await run(...flags);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(pattern);
      expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
    };
    await oneLine([url.port, '--token', TOKEN], /port is in use.*--http <port>/);
    // TEST-NET-1: an address no machine here has.
    await oneLine(
      ['0', '--host', '192.0.2.1', '--token', TOKEN],
      /192\.0\.2\.1 is not an address of this machine/,
    );
    await oneLine(
      ['0', '--token-file', path.join(home, 'missing')],
      /cannot be read \(it does not exist\)/,
    );
    const spaced = path.join(tempDir(), 'token');
    writeFileSync(spaced, 'two words\n');
    await oneLine(['0', '--token-file', spaced], /Authorization header/);
  });
});
