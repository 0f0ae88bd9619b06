/**
 * The reference for `toolhost mcp --http` under load: the MCP SDK's own server over
 * streamable HTTP on 127.0.0.1 (a transport and server per session, as the SDK's examples
 * do), listing the same tools (the JSON file given as the first argument) and doing the
 * plainest form of the same reads: read_file reads the file, list_directory reads the
 * folder, grep_search runs ripgrep (the second argument) and returns its first lines.
 * Prints its URL on stdout once it listens.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(
  path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'package.json'),
);
const sdk = (module) => import(require.resolve(`@modelcontextprotocol/sdk/${module}`));
const { Server } = await sdk('server/index.js');
const { StreamableHTTPServerTransport } = await sdk('server/streamableHttp.js');
const { CallToolRequestSchema, ListToolsRequestSchema, isInitializeRequest } =
  await sdk('types.js');

const [declarationsFile, rg, root] = process.argv.slice(2);
const tools = JSON.parse(readFileSync(declarationsFile, 'utf8')).map((declaration) => ({
  name: declaration.name,
  description: declaration.description,
  inputSchema: declaration.parametersJsonSchema,
}));
const GREP_LINES = 200;

function ripgrep(pattern, where) {
  return new Promise((resolve, reject) => {
    const child = spawn(rg, ['-n', '--no-heading', '--smart-case', '-e', pattern, '--', where], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', () => {
      const lines = Buffer.concat(chunks).toString('utf8').split('\n').filter(Boolean);
      resolve(`${lines.length} matching lines\n${lines.slice(0, GREP_LINES).join('\n')}`);
    });
  });
}

const handlers = {
  read_file: ({ absolute_path }) => readFile(absolute_path, 'utf8'),
  list_directory: async ({ path: folder }) =>
    (await readdir(folder, { withFileTypes: true }))
      .map((entry) => (entry.isDirectory() ? `[DIR] ${entry.name}` : entry.name))
      .sort()
      .join('\n'),
  grep_search: ({ pattern, path: where }) => ripgrep(pattern, where ?? '.'),
};

function newServer() {
  const server = new Server({ name: 'bare', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
    const handler = handlers[params.name];
    if (!handler) return { isError: true, content: [{ type: 'text', text: 'not in the bench' }] };
    return { content: [{ type: 'text', text: await handler(params.arguments ?? {}) }] };
  });
  return server;
}

const transports = new Map();
const readBody = async (req) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
};

const httpServer = http.createServer(async (req, res) => {
  const body = req.method === 'POST' ? await readBody(req) : undefined;
  let transport = transports.get(req.headers['mcp-session-id']);
  if (!transport && isInitializeRequest(body)) {
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => transports.set(id, transport),
    });
    transport.onclose = () => transports.delete(transport.sessionId);
    await newServer().connect(transport);
  }
  if (!transport) return res.writeHead(404).end();
  await transport.handleRequest(req, res, body);
});
httpServer.listen(0, '127.0.0.1', () => {
  console.log(`http://127.0.0.1:${httpServer.address().port}/mcp`);
});
// An orderly exit, so profilers and exit hooks get to write what they hold.
process.on('SIGTERM', () => process.exit(0));
