/**
 * `mcp__` rules for an MCP server whose name holds `__`, with a real MCP server from npm:
 * the rule names the tool of that server, so a deny rule keeps it from running, and a name
 * that rules could read as two servers' is refused with a message.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EVERYTHING } from '../../core/test/helpers/mcp-servers.js';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { runCli } from './run-cli.js';

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

const everything = { command: process.execPath, args: [EVERYTHING, 'stdio'] };
const settings = (mcpServers: Record<string, unknown>, permissions: unknown) => {
  mkdirSync(path.join(dirs.home, '.toolhost'), { recursive: true });
  writeFileSync(
    path.join(dirs.home, '.toolhost', 'settings.json'),
    JSON.stringify({ mcpServers, permissions }),
  );
};
const cli = (args: string[]) =>
  runCli(args, { cwd: dirs.root, home: dirs.home, timeoutMs: 25_000 });
const echo = () => cli(['call', 'echo', JSON.stringify({ message: 'hi there' }), '--yes']);

describe('mcp__ rules for a server named my__srv', () => {
  it('mcp__my__srv__echo and mcp__my__srv in deny keep its tool from running', () => {
    settings({ my__srv: everything }, {});
    expect(echo().stdout).toContain('hi there');
    for (const rule of ['mcp__my__srv__echo', 'mcp__my__srv', 'mcp__my__srv__*']) {
      settings({ my__srv: everything }, { deny: [rule] });
      const denied = echo();
      expect(denied.stdout, rule).not.toContain('hi there');
      expect(denied.code, rule).not.toBe(0);
    }
    settings({ my__srv: everything }, { deny: ['mcp__my__srv__other'] });
    expect(echo().stdout).toContain('hi there');
  }, 60_000);

  it('an allow rule for it runs the tool unasked; for a tool of another name it does not', () => {
    settings({ my__srv: everything }, { allow: ['mcp__my__srv__echo'] });
    const allowed = cli(['call', 'echo', JSON.stringify({ message: 'hi there' })]);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toContain('hi there');
    settings({ my__srv: everything }, { allow: ['mcp__my__srv__other'] });
    expect(cli(['call', 'echo', JSON.stringify({ message: 'hi there' })]).code).toBe(3);
  }, 60_000);

  it('beside a server named my, the server my__srv is refused with a message', () => {
    settings({ my: everything, my__srv: everything }, {});
    const listed = cli(['mcp', 'list']);
    expect(listed.stdout + listed.stderr).toMatch(
      /my__srv[\s\S]*could be read two ways beside the server "my"/,
    );
  }, 60_000);
});
