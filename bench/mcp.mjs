/**
 * MCP figures: starting five stdio servers (in parallel) against starting one, and the
 * overhead of a call through toolhost's DiscoveredMCPTool against the SDK client alone.
 */
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(HERE, '..', 'package.json'));
const core = await import(path.join(HERE, '..', 'packages', 'core', 'dist', 'index.js'));
const { Client } = await import(require.resolve('@modelcontextprotocol/sdk/client/index.js'));
const { StdioClientTransport } = await import(
  require.resolve('@modelcontextprotocol/sdk/client/stdio.js')
);
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const server = { command: process.execPath, args: [EVERYTHING, 'stdio'], trust: true };
const RUNS = 5;
const CALLS = 200;

async function startServers(count) {
  const mcpServers = Object.fromEntries(Array.from({ length: count }, (_, i) => [`s${i}`, server]));
  const config = new core.Config({
    roots: [os.tmpdir()],
    homeDir: path.join(os.tmpdir(), 'toolhost-bench-home'),
    settings: { mcpServers },
  });
  const registry = core.createToolRegistry(config, { env: {} });
  const start = performance.now();
  await registry.discoverAllTools();
  const ms = performance.now() - start;
  const failed = registry.getMcpServers().filter((s) => s.status !== 'connected');
  if (failed.length) throw new Error(`servers failed: ${failed.map((s) => s.error).join('; ')}`);
  return { ms, registry, config };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The same five servers connected one after another, for comparison. */
async function startSequentially(count) {
  const config = new core.Config({
    roots: [os.tmpdir()],
    homeDir: path.join(os.tmpdir(), 'toolhost-bench-home'),
  });
  const connections = Array.from(
    { length: count },
    (_, i) => new core.McpServerConnection(`s${i}`, server, config),
  );
  const start = performance.now();
  for (const connection of connections) await connection.connect();
  const ms = performance.now() - start;
  await Promise.all(connections.map((c) => c.close()));
  return ms;
}

const one = [];
const five = [];
const fiveSequential = [];
for (let i = 0; i < RUNS; i++) {
  const a = await startServers(1);
  one.push(a.ms);
  await a.registry.closeMcpServers();
  const b = await startServers(5);
  five.push(b.ms);
  await b.registry.closeMcpServers();
  fiveSequential.push(await startSequentially(5));
}

// Call overhead: the same echo through toolhost and through the SDK client alone.
const { registry, config } = await startServers(1);
const tool = registry.getTool('echo');
const direct = new Client({ name: 'bench', version: '1.0.0' });
await direct.connect(
  new StdioClientTransport({ command: server.command, args: server.args, stderr: 'ignore' }),
);
const signal = new AbortController().signal;
// Interleaved batches, so warm-up and machine noise fall on both alike.
const batch = async (fn) => {
  const start = performance.now();
  for (let i = 0; i < 20; i++) await fn();
  return (performance.now() - start) / 20;
};
const throughToolhost = () => tool.execute({ message: 'ping' }, signal);
const throughSdk = () => direct.callTool({ name: 'echo', arguments: { message: 'ping' } });
await batch(throughToolhost);
await batch(throughSdk);
const toolhostBatches = [];
const sdkBatches = [];
for (let i = 0; i < CALLS / 20; i++) {
  toolhostBatches.push(await batch(throughToolhost));
  sdkBatches.push(await batch(throughSdk));
}
const viaToolhost = median(toolhostBatches);
const viaSdk = median(sdkBatches);
await direct.close();
await registry.closeMcpServers();
void config;

console.log('\nMCP');
console.log('| measure | value |');
console.log('| --- | --- |');
console.log(
  `| start 1 stdio server (server-everything), median of ${RUNS} | ${median(one).toFixed(0)} ms |`,
);
console.log(
  `| start 5 stdio servers in parallel (toolhost), median of ${RUNS} | ${median(five).toFixed(0)} ms (${(median(five) / median(one)).toFixed(2)}x one) |`,
);
console.log(
  `| start the same 5 one after another, median of ${RUNS} | ${median(fiveSequential).toFixed(0)} ms (${(median(fiveSequential) / median(one)).toFixed(2)}x one) |`,
);
console.log(
  `| echo through DiscoveredMCPTool, median of ${CALLS / 20} batches | ${(viaToolhost * 1000).toFixed(0)} µs per call |`,
);
console.log(
  `| echo through the SDK client alone, median of ${CALLS / 20} batches | ${(viaSdk * 1000).toFixed(0)} µs per call (toolhost adds ${((viaToolhost - viaSdk) * 1000).toFixed(0)} µs) |`,
);
