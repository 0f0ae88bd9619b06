/**
 * The floor for `toolhost mcp`: the MCP SDK's own server over stdio, answering
 * initialize and tools/list with the same tool list (read from the JSON file given as the
 * first argument) and doing nothing else.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The SDK toolhost itself uses, from the repository's node_modules.
const require = createRequire(
  path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'package.json'),
);
const { Server } = await import(require.resolve('@modelcontextprotocol/sdk/server/index.js'));
const { StdioServerTransport } = await import(
  require.resolve('@modelcontextprotocol/sdk/server/stdio.js')
);
const { ListToolsRequestSchema } = await import(
  require.resolve('@modelcontextprotocol/sdk/types.js')
);

const tools = JSON.parse(readFileSync(process.argv[2], 'utf8')).map((declaration) => ({
  name: declaration.name,
  description: declaration.description,
  inputSchema: declaration.parametersJsonSchema,
}));
const server = new Server({ name: 'bare', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
await server.connect(new StdioServerTransport());
