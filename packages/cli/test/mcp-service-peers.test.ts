/**
 * `toolhost mcp --http` and the processes around it, against the installed command on
 * 127.0.0.1: a client frozen with SIGSTOP (its GET stream open, unread) loses its session;
 * toolhost as an MCP client (`tools`, `call`, `mcp` serving another server's tools) ends
 * the HTTP sessions it opened; start-up failures are one line and exit 2.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../../core/test/helpers/processes.js';
import { health, mcpServicePerTest, sessionsReach, TOKEN } from './helpers/mcp-service.js';
import { runCliAsync } from './run-cli.js';

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
    const url = await service.start();
    const home = tempDir();
    const project = tempDir();
    writeFileSync(path.join(project, 'note.txt'), 'written for the client\n');
    const settings = path.join(home, '.toolhost');
    await import('node:fs').then(({ mkdirSync }) => mkdirSync(settings));
    writeFileSync(
      path.join(settings, 'settings.json'),
      JSON.stringify({
        mcpServers: {
          svc: { httpUrl: url, headers: { Authorization: `Bearer ${TOKEN}` }, trust: true },
        },
      }),
    );
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

    // `toolhost mcp` over stdio serves the service's tools too; its end ends that session.
    const served = await runCliAsync(['mcp', '--root', project], { ...options, input: '' });
    expect(served.code, served.stderr).toBe(0);
    expect((await health(url)).body.sessions).toBe(0);
  });
});

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
