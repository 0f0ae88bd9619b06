import { describe, expect, it } from 'vitest';
import { makeWorkspace } from '../../../test/helpers/temp-workspace.js';
import { Config } from '../../config/config.js';
import { configuredServers } from '../../permissions/mcp-servers.js';
import {
  assignToolNames,
  mcpQualifiedName,
  mcpQualifiedNameOf,
  namesServerTool,
  validToolName,
} from './names.js';
import { stdioEnvironment } from './transport.js';

describe('validToolName', () => {
  it('keeps valid names and replaces other characters', () => {
    expect(validToolName('get-sum_2')).toBe('get-sum_2');
    expect(validToolName('files.read/all')).toBe('files_read_all');
  });

  it('shortens long names to 64 characters with a stable hash suffix', () => {
    const long = `tool_${'x'.repeat(80)}`;
    const name = validToolName(long);
    expect(name).toHaveLength(64);
    expect(name).toMatch(/^tool_x+_[0-9a-f]{8}$/);
    expect(validToolName(long)).toBe(name);
    expect(validToolName(`${long}y`)).not.toBe(name);
  });
});

describe('assignToolNames', () => {
  it('keeps unique names, qualifies every colliding one, and never renames built-ins', () => {
    const names = assignToolNames(
      [
        ['fs', 'read_file'],
        ['fs', 'search_files'],
        ['a', 'echo'],
        ['b', 'echo'],
      ],
      ['read_file'],
    );
    expect(Object.fromEntries(names)).toEqual({
      'fs\u0000read_file': 'fs__read_file',
      'fs\u0000search_files': 'search_files',
      'a\u0000echo': 'a__echo',
      'b\u0000echo': 'b__echo',
    });
  });

  it('gives the same names whatever order the servers are listed in', () => {
    const pairs: [string, string][] = [
      ['z', 'run'],
      ['a', 'run'],
      ['m', 'only'],
    ];
    expect(assignToolNames(pairs, [])).toEqual(assignToolNames([...pairs].reverse(), []));
  });

  it('tells apart names that clean to the same text', () => {
    const names = assignToolNames(
      [
        ['s', 'a.b'],
        ['s', 'a_b'],
      ],
      [],
    );
    const values = [...names.values()];
    expect(new Set(values).size).toBe(2);
    for (const value of values) expect(value).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });
});

describe('configuredServers', () => {
  it('adds mcp.serverCommand as the server "mcp" and filters by mcp.allowed / mcp.excluded', () => {
    const ws = makeWorkspace();
    try {
      const config = new Config({
        roots: [ws.root],
        homeDir: ws.home,
        settings: {
          mcpServers: { a: { command: 'a' }, b: { command: 'b' }, c: { command: 'c' } },
          mcp: {
            serverCommand: 'node "my server.js" --port 3',
            allowed: ['a', 'b', 'mcp'],
            excluded: ['b'],
          },
        },
      });
      expect(configuredServers(config)).toEqual([
        ['a', { command: 'a' }],
        ['mcp', { command: 'node', args: ['my server.js', '--port', '3'] }],
      ]);
    } finally {
      ws.cleanup();
    }
  });
});

describe('stdioEnvironment', () => {
  it('passes the minimal set, locale and the configured env, not secrets', () => {
    const env = stdioEnvironment(
      { API_URL: 'x' },
      { PATH: '/bin', HOME: '/h', LANG: 'C.UTF-8', AWS_SECRET_ACCESS_KEY: 's', RANDOM_VAR: 'r' },
    );
    expect(env.API_URL).toBe('x');
    expect(env.LANG).toBe('C.UTF-8');
    expect(env.AWS_SECRET_ACCESS_KEY).toBeUndefined();
    expect(env.RANDOM_VAR).toBeUndefined();
  });
});

describe("Qwen Code's mcp__server__tool names", () => {
  it('names a server tool as Qwen Code does, valid for strict APIs', () => {
    expect(mcpQualifiedName('fake', 'echo')).toBe('mcp__fake__echo');
    expect(mcpQualifiedName('my.server', 'read/file')).toBe('mcp__my_server__read_file');
    expect(mcpQualifiedName('s', 'x'.repeat(100))).toHaveLength(64);
    expect(mcpQualifiedNameOf({ serverAlias: 'fake', serverToolName: 'echo' })).toBe(
      'mcp__fake__echo',
    );
    expect(mcpQualifiedNameOf({ name: 'read_file' })).toBeUndefined();
  });

  it("tells a server's tools by either qualified form", () => {
    expect(namesServerTool('mcp__fake__echo', 'fake')).toBe(true);
    expect(namesServerTool('fake__echo', 'fake')).toBe(true);
    expect(namesServerTool('mcp__fakes__echo', 'fake')).toBe(false);
    expect(namesServerTool('echo', 'fake')).toBe(false);
  });
});
