/**
 * What real MCP servers' results become for the model: structured content that repeats
 * the content is not sent twice, an image is never also spelled out as base64 text, and
 * a server's error reaches the model with one `Error:` prefix.
 */
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Config } from '../src/config/config.js';
import type { McpServerSettings } from '../src/config/settings.js';
import { toOpenAIToolMessages } from '../src/providers/openai-chat.js';
import { CoreToolScheduler } from '../src/scheduler/core-tool-scheduler.js';
import { createToolRegistry } from '../src/tools/builtin.js';
import { mcpContentToParts } from '../src/tools/mcp-tool.js';
import type { ToolRegistry } from '../src/tools/tool-registry.js';
import { ToolConfirmationOutcome } from '../src/tools/tools.js';
import { FILESYSTEM } from './helpers/mcp-servers.js';
import { FIXTURES, makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

let ws: TempWorkspace;
let registry: ToolRegistry | undefined;

beforeEach(() => {
  ws = makeWorkspace();
  copyFileSync(path.join(FIXTURES, 'pixel.png'), ws.p('pixel.png'));
  ws.write('notes.json', '{"a": 1}\n');
});
afterEach(async () => {
  await registry?.closeMcpServers();
  registry = undefined;
  ws.cleanup();
});

async function run(name: string, args: Record<string, unknown>) {
  const filesystem: McpServerSettings = {
    command: process.execPath,
    args: [FILESYSTEM, ws.root],
    trust: true,
  };
  const config = new Config({
    roots: [ws.root],
    homeDir: ws.home,
    settings: { mcpServers: { filesystem } },
  });
  registry = createToolRegistry(config, { env: {} });
  await registry.discoverAllTools();
  const scheduler = new CoreToolScheduler({
    config,
    toolRegistry: registry,
    onConfirmationRequest: async () => ({ outcome: ToolConfirmationOutcome.ProceedOnce }),
  });
  return (await scheduler.schedule({ callId: 'c1', name, args }, new AbortController().signal))[0]!;
}

describe('MCP results for the model (server-filesystem)', () => {
  it('sends an image once, as an image, with no base64 text', async () => {
    const call = await run('read_media_file', { path: ws.p('pixel.png') });
    expect(call.status).toBe('success');
    const parts = call.response.responseParts;
    expect(parts.filter((part) => part.inlineData?.mimeType === 'image/png')).toHaveLength(1);
    const text = JSON.stringify(parts[0]?.functionResponse?.response);
    expect(text).not.toContain(parts[1]?.inlineData?.data?.slice(0, 40));
    expect(text.length).toBeLessThan(300);
  });

  it('sends a text file once, not again as structured content', async () => {
    const call = await run('read_text_file', { path: ws.p('notes.json') });
    const output = String(call.response.responseParts[0]?.functionResponse?.response?.output);
    expect(output.match(/"a": 1/g)).toHaveLength(1);
  });

  it("gives a server's error one Error: prefix", async () => {
    const call = await run('read_text_file', { path: ws.p('missing.txt') });
    expect(call.status).toBe('error');
    const [message] = toOpenAIToolMessages([call]);
    expect(message?.content).toMatch(
      /^Error: read_text_file \(MCP server filesystem\) reported an error: (?!Error)/,
    );
    expect(String(message?.content).match(/Error:/g)).toHaveLength(1);
  });
});

describe('mcpContentToParts', () => {
  it('adds structured content that says more than the content, without base64', () => {
    const data = 'A'.repeat(2000);
    const parts = mcpContentToParts({
      content: [{ type: 'image', data, mimeType: 'image/png' }],
      structuredContent: { content: [{ type: 'image', data, mimeType: 'image/png' }], width: 640 },
    });
    expect(parts).toHaveLength(2);
    expect(parts[1]?.text).toContain('"width": 640');
    expect(parts[1]?.text).toContain('[1500 bytes of data, attached above]');
    expect(parts[1]?.text).not.toContain('AAAA');
  });

  it('names an embedded resource after its URI', () => {
    const parts = mcpContentToParts({
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'file:///tmp/report%20final.pdf',
            mimeType: 'application/pdf',
            blob: 'JVBERi0=',
          },
        },
      ],
    });
    expect(parts[1]?.inlineData?.displayName).toBe('report final.pdf');
  });
});
