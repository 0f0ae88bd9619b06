import { describe, expect, it } from 'vitest';
import { mcpServerSettings } from './mcp-servers.js';

describe('mcpServerSettings', () => {
  it("maps the editor's stdio, HTTP and SSE servers onto toolhost's mcpServers entries", () => {
    expect(
      mcpServerSettings([
        {
          name: 'files',
          command: 'npx',
          args: ['-y', 'server-filesystem', '/work'],
          env: [{ name: 'DEBUG', value: '1' }],
        },
        { name: 'bare', command: 'server', args: [], env: [] },
        {
          type: 'http',
          name: 'remote',
          url: 'https://mcp.example.com/mcp',
          headers: [{ name: 'Authorization', value: 'Bearer t' }],
        },
        { type: 'sse', name: 'events', url: 'https://mcp.example.com/sse', headers: [] },
      ]),
    ).toEqual({
      files: { command: 'npx', args: ['-y', 'server-filesystem', '/work'], env: { DEBUG: '1' } },
      bare: { command: 'server', args: [] },
      remote: { httpUrl: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer t' } },
      events: { url: 'https://mcp.example.com/sse' },
    });
  });
});
