/**
 * Every built-in declaration and every tool of two real MCP servers (server-everything and
 * server-filesystem, started from npm) through every provider's checks: names, description
 * length, schema subset, and OpenAI's strict rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Config } from '../src/config/config.js';
import type { FunctionDeclaration } from '../src/contract/content.js';
import { checkDeclarations, checkSentDeclarations } from '../src/providers/declaration-checks.js';
import { prepareDeclarations } from '../src/providers/declarations.js';
import type { ProviderId } from '../src/providers/provider-rules.js';
import { createToolRegistry } from '../src/tools/builtin.js';
import type { ToolRegistry } from '../src/tools/tool-registry.js';
import { EVERYTHING, FILESYSTEM } from './helpers/mcp-servers.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

const PROVIDERS: ProviderId[] = [
  'openai-chat',
  'openai-chat-strict',
  'openai-responses',
  'gemini',
  'anthropic',
  'ai-sdk',
];

let ws: TempWorkspace;
let registry: ToolRegistry;
let declarations: FunctionDeclaration[];

beforeAll(async () => {
  ws = makeWorkspace();
  const config = new Config({
    roots: [ws.root],
    homeDir: ws.home,
    settings: {
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], trust: true },
        filesystem: { command: process.execPath, args: [FILESYSTEM, ws.root], trust: true },
      },
    },
  });
  registry = createToolRegistry(config, { env: {} });
  await registry.discoverAllTools();
  declarations = registry.getFunctionDeclarations();
}, 60_000);
afterAll(async () => {
  await registry.closeMcpServers();
  ws.cleanup();
});

describe('every real declaration passes every provider', () => {
  it('has the built-ins and both servers', () => {
    const servers = registry
      .getMcpServers()
      .map((server) => [server.alias ?? server, server.status]);
    expect(servers.map(([, status]) => status)).toEqual(['connected', 'connected']);
    const names = declarations.map((declaration) => declaration.name);
    expect(names).toEqual(
      expect.arrayContaining(['run_shell_command', 'read_file', 'echo', 'read_media_file']),
    );
    expect(names.length).toBeGreaterThan(35);
  });

  it('built-in descriptions fit 1,024 characters without being cut', () => {
    for (const tool of registry.getAllTools().filter((tool) => !('serverToolName' in tool)))
      expect([tool.name, tool.description.length <= 1024]).toEqual([tool.name, true]);
  });

  for (const provider of PROVIDERS) {
    it(`${provider}: names, descriptions and schemas are accepted`, () => {
      expect(checkDeclarations(provider, declarations)).toEqual([]);
    });
  }

  it('strict mode covers every built-in and most MCP tools, and says why not for the rest', () => {
    const prepared = prepareDeclarations(declarations, 'openai-chat-strict', {
      onWarning: () => {},
    });
    expect(checkSentDeclarations('openai-chat-strict', prepared)).toEqual([]);
    const builtIns = new Set(
      registry
        .getAllTools()
        .filter((tool) => !('serverToolName' in tool))
        .map((tool) => tool.name),
    );
    const notStrict = prepared.filter((declaration) => !declaration.strict);
    expect(notStrict.filter((declaration) => builtIns.has(declaration.toolName))).toEqual([]);
    for (const declaration of notStrict) expect(declaration.notStrictBecause).toBeTruthy();
    expect(notStrict.length).toBeLessThan(prepared.length / 4);
  });
});
