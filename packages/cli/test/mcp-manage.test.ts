/**
 * `toolhost mcp add / list / remove` and `--mcp-config`, as a person uses them: the
 * settings files they write, and the real MCP servers (from npm) that `list` starts.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EVERYTHING, FILESYSTEM } from '../../core/test/helpers/mcp-servers.js';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { runCli } from './run-cli.js';

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

const cli = (args: string[]) =>
  runCli(args, { cwd: dirs.root, home: dirs.home, timeoutMs: 25_000 });
const userFile = () => path.join(dirs.home, '.toolhost', 'settings.json');
const projectFile = () => path.join(dirs.root, '.toolhost', 'settings.json');
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

describe('toolhost mcp add', () => {
  it('adds a program with its own options and variables to the user settings, keeping the file', () => {
    mkdirSync(path.dirname(userFile()), { recursive: true });
    writeFileSync(userFile(), '{\n  // my model\n  "model": { "name": "qwen3" }\n}\n');
    const { code, stderr } = cli([
      'mcp',
      'add',
      '--scope',
      'user',
      '-e',
      'LEVEL=debug',
      'everything',
      process.execPath,
      EVERYTHING,
      'stdio',
      '--some-flag=1',
    ]);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`Added MCP server "everything" in ${userFile()} (user settings)`);
    const text = readFileSync(userFile(), 'utf8');
    expect(text).toContain('// my model');
    expect(text).toContain('"name": "qwen3"');
    const settings = JSON.parse(text.replace(/\/\/.*$/m, ''));
    expect(settings.mcpServers.everything).toEqual({
      command: process.execPath,
      args: [EVERYTHING, 'stdio', '--some-flag=1'],
      env: { LEVEL: 'debug' },
    });
  });

  it('adds an HTTP server with headers to the project, and says an untrusted folder will not use it', () => {
    const { code, stderr } = cli([
      'mcp',
      'add',
      '--transport',
      'http',
      '-H',
      'Authorization: Bearer abc',
      'remote',
      'http://127.0.0.1:9/mcp',
    ]);
    expect(code, stderr).toBe(0);
    expect(json(projectFile()).mcpServers.remote).toEqual({
      httpUrl: 'http://127.0.0.1:9/mcp',
      headers: { Authorization: 'Bearer abc' },
    });
    expect(stderr).toContain('this folder is not trusted');
  });

  it('refuses what it cannot write, saying what to do', () => {
    expect(cli(['mcp', 'add', 'bad__name', 'x']).stderr).toMatch(/no "__"/);
    expect(cli(['mcp', 'add', 'nothing']).code).toBe(2);
    const wrong = cli(['mcp', 'add', '--transport', 'http', 'r', 'not-a-url']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/takes the server's http\(s\) URL/);
    mkdirSync(path.dirname(projectFile()), { recursive: true });
    writeFileSync(projectFile(), '{ "model": ');
    const broken = cli(['mcp', 'add', 'x', 'echo']);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/not valid JSON .*left as it is/);
    expect(readFileSync(projectFile(), 'utf8')).toBe('{ "model": ');
  });
});

describe('toolhost mcp list and remove', () => {
  it('starts each server and counts its tools, saying which failed', () => {
    cli(['mcp', 'add', '-s', 'user', 'everything', process.execPath, EVERYTHING, 'stdio']);
    cli(['mcp', 'add', '-s', 'user', 'files', process.execPath, FILESYSTEM, dirs.root]);
    cli(['mcp', 'add', '-s', 'user', 'broken', path.join(dirs.base, 'no-such-program')]);
    const { code, stdout } = cli(['mcp', 'list']);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^everything: .* - connected, \d+ tools$/m);
    expect(stdout).toMatch(/^files: .* - connected, \d+ tools$/m);
    expect(stdout).toMatch(/^broken: .* - failed/m);
  }, 30_000);

  it('removes a server from the file that has it, and names the ones there are otherwise', () => {
    cli(['mcp', 'add', '-s', 'user', 'a', 'echo']);
    cli(['mcp', 'add', '-s', 'user', 'b', 'echo']);
    const removed = cli(['mcp', 'remove', 'a']);
    expect(removed.code).toBe(0);
    expect(removed.stderr).toContain(`Removed MCP server "a" from ${userFile()}`);
    expect(Object.keys(json(userFile()).mcpServers)).toEqual(['b']);
    const missing = cli(['mcp', 'remove', 'a']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no MCP server "a" in .*; these are: b/);
  });

  it('says how to add one when none is configured', () => {
    const { code, stdout } = cli(['mcp', 'list']);
    expect(code).toBe(0);
    expect(stdout).toContain('toolhost mcp add <name> <command>');
  });
});

describe('--mcp-config', () => {
  it('adds servers for one run, from JSON or a file, and nothing stays behind', () => {
    const servers = {
      mcpServers: { every: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
    };
    const inline = cli(['tools', '--mcp-config', JSON.stringify(servers)]);
    expect(inline.code, inline.stderr).toBe(0);
    expect(inline.stdout).toMatch(/every: connected, \d+ tools/);
    const file = path.join(dirs.base, 'servers.json');
    writeFileSync(file, JSON.stringify(servers));
    const fromFile = cli(['mcp', 'list', '--mcp-config', file]);
    expect(fromFile.stdout).toMatch(/^every: .* - connected/m);
    expect(existsSync(userFile())).toBe(false);
    expect(cli(['mcp', 'list']).stdout).not.toContain('every');
  }, 30_000);

  it('says what is wrong with a bad value', () => {
    const missing = cli(['tools', '--mcp-config', 'nope.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--mcp-config: cannot read nope.json/);
    const bad = cli(['tools', '--mcp-config', '{"mcpServers": [1]}']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/must be an object of servers by name/);
  });
});
