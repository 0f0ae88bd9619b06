import { describe, expect, it } from 'vitest';
import { ambiguousServerName, mcpNameCovers, mcpReadings } from './mcp-names.js';

describe('mcpReadings', () => {
  it('reads the longest configured server name that prefixes the rule name first', () => {
    expect(mcpReadings('mcp__my__srv__danger', ['my__srv'])).toEqual([
      { server: 'my__srv', tool: 'danger' },
    ]);
    expect(mcpReadings('mcp__my__srv', ['my__srv'])).toEqual([{ server: 'my__srv' }]);
    expect(mcpReadings('mcp__my__srv__danger', ['my', 'my__srv'])).toEqual([
      { server: 'my__srv', tool: 'danger' },
      { server: 'my', tool: 'srv__danger' },
    ]);
    expect(mcpReadings('mcp__my__srv__a__b', ['my__srv'])).toEqual([
      { server: 'my__srv', tool: 'a__b' },
    ]);
    expect(mcpReadings('mcp__gh__*', ['gh', 'gh'])).toEqual([{ server: 'gh', tool: '*' }]);
  });

  it('does not take a server name that only starts the rule name mid-word', () => {
    expect(mcpReadings('mcp__myx__t', ['my'])).toEqual([{ server: 'myx', tool: 't' }]);
    expect(mcpReadings('mcp__my_srv__t', ['my'])).toEqual([{ server: 'my_srv', tool: 't' }]);
  });

  it('splits at the first __ for a server not configured, and reads nothing else', () => {
    expect(mcpReadings('mcp__other__a__b', ['my'])).toEqual([{ server: 'other', tool: 'a__b' }]);
    expect(mcpReadings('mcp__other', [])).toEqual([{ server: 'other' }]);
    expect(mcpReadings('mcp__', [])).toEqual([]);
    expect(mcpReadings('Read', ['my'])).toEqual([]);
    expect(mcpReadings('xmcp__my', ['my'])).toEqual([]);
  });
});

describe('ambiguousServerName', () => {
  it('refuses the longer of two names one rule name could read as either', () => {
    expect(ambiguousServerName('my__srv', ['my', 'my__srv'])).toContain('beside the server "my"');
    expect(ambiguousServerName('my__srv', ['my', 'my__srv'])).toContain('mcp__my__srv__tool');
    expect(ambiguousServerName('my', ['my', 'my__srv'])).toBeUndefined();
    expect(ambiguousServerName('a_', ['a', 'a_'])).toContain('"a"');
    expect(ambiguousServerName('a___b', ['a', 'a___b'])).toContain('"a"');
  });

  it('leaves names alone that no rule name could confuse', () => {
    expect(ambiguousServerName('my__srv', ['my__srv', 'other'])).toBeUndefined();
    expect(ambiguousServerName('my_srv', ['my', 'my_srv'])).toBeUndefined();
    expect(ambiguousServerName('mysrv', ['my', 'mysrv'])).toBeUndefined();
    expect(ambiguousServerName('a', ['a'])).toBeUndefined();
  });
});

describe('mcpNameCovers', () => {
  const echo = { server: 'my__srv', tool: 'echo' };
  it('covers a tool by its server, its name or a * pattern, the longest server name first', () => {
    for (const name of [
      'mcp__my__srv',
      'mcp__my__srv__echo',
      'mcp__my__srv__*',
      'mcp__my__srv__e*o',
    ])
      expect(mcpNameCovers(name, echo, []), name).toBe(true);
    for (const name of ['mcp__my', 'mcp__my__*', 'mcp__my__srv__echo2', 'echo', 'my__srv__echo'])
      expect(mcpNameCovers(name, echo, []), name).toBe(false);
  });

  it('a name two servers could own covers the shorter reading only when every reading counts', () => {
    const inner = { server: 'my', tool: 'srv__echo' };
    expect(mcpNameCovers('mcp__my__srv__echo', inner, ['my__srv'])).toBe(false);
    expect(mcpNameCovers('mcp__my__srv__echo', inner, ['my__srv'], true)).toBe(true);
    expect(mcpNameCovers('mcp__my__srv__echo', inner, [])).toBe(true);
  });
});
