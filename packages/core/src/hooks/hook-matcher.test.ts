import { describe, expect, it } from 'vitest';
import { compileMatcher, matcherFits } from './hook-matcher.js';

const shell = ['run_shell_command', 'Shell', 'Bash'];
const mcp = ['echo', 'Echo (fake)', 'mcp__fake__echo'];

describe('hook matchers', () => {
  it('empty, missing and * fit every name', () => {
    for (const matcher of [undefined, '', ' ', '*']) expect(matcherFits(matcher, shell)).toBe(true);
  });

  it('plain names fit only whole names, any of them when joined by |', () => {
    expect(matcherFits('Bash', shell)).toBe(true);
    expect(matcherFits('run_shell_command', shell)).toBe(true);
    expect(matcherFits('Edit|Bash', shell)).toBe(true);
    expect(matcherFits('Bas', shell)).toBe(false);
    expect(matcherFits('run_shell', shell)).toBe(false);
    expect(matcherFits('mcp__fake', mcp)).toBe(false);
  });

  it('regular expressions must match a whole name', () => {
    expect(matcherFits('mcp__fake__.*', mcp)).toBe(true);
    expect(matcherFits('mcp__.*', shell)).toBe(false);
    expect(matcherFits('^run_shell_command$', shell)).toBe(true);
    expect(matcherFits('(write_file|edit)', ['edit', 'Edit'])).toBe(true);
    expect(matcherFits('read_.*', ['read_many_files'])).toBe(true);
    expect(matcherFits('.*_file', ['read_many_files'])).toBe(false);
  });

  it('an mcp__ name reads a server whose name holds __ as permission rules do', () => {
    const echo = {
      names: ['echo', 'echo (my__srv)', 'mcp__my__srv__echo'],
      mcp: { server: 'my__srv', tool: 'echo', servers: ['my__srv', 'other'] },
    };
    for (const matcher of [
      'mcp__my__srv',
      'mcp__my__srv__*',
      'mcp__my__srv__ech*',
      'Bash|mcp__my__srv',
    ])
      expect(matcherFits(matcher, echo), matcher).toBe(true);
    for (const matcher of [
      'mcp__my',
      'mcp__my__*',
      'mcp__my__srv__other',
      'mcp__other',
      'mcp__my__s*',
    ])
      expect(matcherFits(matcher, echo), matcher).toBe(false);
    // The same names without the server's reading (a tool of no MCP server) fit only whole.
    expect(matcherFits('mcp__my__srv', echo.names)).toBe(false);
  });

  it('a matcher that is no regular expression is compared as written', () => {
    expect(compileMatcher('Bash(')).toBeUndefined();
    expect(matcherFits('Bash(', ['Bash('])).toBe(true);
    expect(matcherFits('Bash(', shell)).toBe(false);
  });
});
