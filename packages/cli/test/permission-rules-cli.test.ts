/**
 * Permission rules as the command reads them from real settings files: MCP tools allowed
 * and denied by mcp__ rules (with a real MCP server from npm), and entries that are not
 * rules named in a warning.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EVERYTHING } from '../../core/test/helpers/mcp-servers.js';
import { startModelServer } from '../../core/test/helpers/model-server.js';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { runCli, runCliAsync } from './run-cli.js';

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

const cli = (args: string[]) =>
  runCli(args, { cwd: dirs.root, home: dirs.home, timeoutMs: 25_000 });
const userFile = () => path.join(dirs.home, '.toolhost', 'settings.json');

describe('permission rules for MCP tools', () => {
  const everything = { command: process.execPath, args: [EVERYTHING, 'stdio'] };
  const settings = (permissions: unknown) => {
    mkdirSync(path.dirname(userFile()), { recursive: true });
    writeFileSync(userFile(), JSON.stringify({ mcpServers: { everything }, permissions }));
  };
  const echo = () => cli(['call', 'echo', JSON.stringify({ message: 'hi there' })]);

  it('mcp__server__tool and mcp__server allow a tool without asking; nothing else does', () => {
    settings({});
    expect(echo().code).toBe(3);
    settings({ allow: ['mcp__everything__echo'] });
    const allowed = echo();
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toContain('hi there');
    settings({ allow: ['mcp__everything'] });
    expect(echo().code).toBe(0);
    settings({ allow: ['mcp__everything__other'] });
    expect(echo().code).toBe(3);
  }, 60_000);

  it('a deny rule for the server takes its tools away, over an allow rule', () => {
    settings({ allow: ['mcp__everything__echo'], deny: ['mcp__everything__*'] });
    const denied = echo();
    expect(denied.code).toBe(2);
    expect(denied.stderr).toContain('turned off');
    expect(denied.stdout).not.toContain('hi there');
  }, 30_000);
});

describe('permission rules in settings', () => {
  it('are read without a warning, and an entry that is not a rule is named', () => {
    mkdirSync(path.dirname(userFile()), { recursive: true });
    writeFileSync(
      userFile(),
      JSON.stringify({
        permissions: { allow: ['Read'], ask: ['Bash(git push:*)'], deny: ['Bash(rm'] },
      }),
    );
    const { code, stderr } = cli(['tools']);
    expect(code).toBe(0);
    expect(stderr).not.toMatch(/not a toolhost setting/);
    expect(stderr).toContain('permissions: "Bash(rm" is not a rule');
  });
});

describe('the agent with --mcp-config and permission rules', () => {
  it('offers the servers of --mcp-config for one run and runs a tool a rule allows, headless', async () => {
    const server = await startModelServer((_request, index) =>
      index === 0
        ? { toolCalls: [{ name: 'echo', args: { message: 'through the flag' } }] }
        : { text: 'Echoed.' },
    );
    try {
      mkdirSync(path.dirname(userFile()), { recursive: true });
      writeFileSync(userFile(), JSON.stringify({ permissions: { allow: ['mcp__every__echo'] } }));
      const config = {
        mcpServers: { every: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
      };
      const result = await runCliAsync(
        ['-p', 'Echo something.', '--mcp-config', JSON.stringify(config)],
        {
          cwd: dirs.root,
          home: dirs.home,
          env: {
            OPENAI_BASE_URL: server.baseUrl,
            OPENAI_API_KEY: 'sk-test',
            OPENAI_MODEL: 'scripted-model',
          },
        },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('Echoed.');
      const tool = server.requests[1]?.body.messages.find((message) => message.role === 'tool');
      expect(String(tool?.content)).toContain('through the flag');
    } finally {
      await server.close();
    }
  }, 60_000);
});
