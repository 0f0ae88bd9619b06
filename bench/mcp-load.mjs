/**
 * `toolhost mcp --http` under load, beside the MCP SDK's bare server doing the same reads
 * (bench/bare-mcp-http.mjs), both on 127.0.0.1 in the same run: N concurrent sessions
 * (BENCH_LOAD_SESSIONS, default 10,50,200) each initialise, list the tools, then call
 * read_file, list_directory and grep_search on the corpus one after another for
 * BENCH_LOAD_SECONDS (default 30). Prints calls per second, p50/p95 per tool, socket,
 * HTTP and tool errors, the server's CPU per call (its children's included), and the
 * ratio toolhost / bare per N.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import {
  CORE,
  CORPUS,
  HERE,
  load,
  machine,
  TOOLHOST_BIN,
  table,
  targets,
  writeDeclarations,
} from './lib.mjs';
import { LoadSession, newTally, openSession, percentile, runCalls } from './mcp-load-client.mjs';

const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 30);
const LEVELS = (process.env.BENCH_LOAD_SESSIONS ?? '10,50,200').split(',').map(Number);
const TOOLS = ['read_file', 'list_directory', 'grep_search'];
// Node options for both servers, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile them
// (Node refuses --cpu-prof in NODE_OPTIONS).
const NODE_ARGS = (process.env.BENCH_LOAD_NODE_ARGS ?? '').split(' ').filter(Boolean);

const core = await import(CORE);
const { home, declarations } = writeDeclarations(core);
const env = { ...process.env, HOME: home, NO_COLOR: '1' };
const token = 'bench-load-token';

// ---- the work: half reads, a quarter listings, a quarter searches --------------------
const readDir = path.join(CORPUS, 'bench-read');
const files = readdirSync(readDir).map((name) => path.join(readDir, name));
const folders = readdirSync(path.join(CORPUS, 'packages')).flatMap((pkg) => {
  const src = path.join(CORPUS, 'packages', pkg, 'src');
  return readdirSync(src).map((name) => path.join(src, name));
});
const patterns = ['TOOLHOST_NEEDLE', 'handle\\w*Session\\w*\\(', 'module read/1\\d\\b'];
const pick = (list, index, call) => list[(index * 7919 + call * 104729) % list.length];
function nextCall(index, call) {
  switch (call % 4) {
    case 1:
      return { name: 'list_directory', args: { path: pick(folders, index, call) } };
    case 3:
      return { name: 'grep_search', args: { pattern: pick(patterns, index, call), path: readDir } };
    default:
      return { name: 'read_file', args: { absolute_path: pick(files, index, call) } };
  }
}

// ---- the servers ------------------------------------------------------------------------
/** Starts a server and resolves with its process and URL once it prints where it listens. */
function start(label, args, stream) {
  const child = spawn(process.execPath, [...NODE_ARGS, ...args], {
    cwd: CORPUS,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let text = '';
    child[stream].on('data', (chunk) => {
      text += chunk;
      const url = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(text)?.[0];
      if (url) resolve({ label, child, url });
    });
    child.on('exit', (code) => reject(new Error(`${label} exited with ${code}: ${text}`)));
  });
}

/**
 * User + system CPU of a process, of its children it has reaped (ripgrep) and of those
 * still running (toolhost's spawn helper, whose own children it reaps), in ms.
 */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime, stime, cutime, cstime: the 14th to 17th fields, in clock ticks of 10 ms.
    const own = fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) * 10;
    const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean),
    );
    return own + children.reduce((sum, child) => sum + cpuMs(child), 0);
  } catch {
    return 0; // it ended meanwhile
  }
}

async function round(server, sessionsWanted, seconds = SECONDS) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const tally = newTally();
  const sessions = Array.from(
    { length: sessionsWanted },
    () => new LoadSession(server.url, token, agent),
  );
  const openStart = performance.now();
  await Promise.all(
    sessions.map((session) => openSession(session, { tally, deadline: Date.now() + 60_000 })),
  );
  const openMs = performance.now() - openStart;
  const cpuBefore = cpuMs(server.child.pid);
  const deadline = Date.now() + seconds * 1000;
  await Promise.all(
    sessions.map((session, index) => runCalls(session, index, { nextCall, deadline, tally })),
  );
  const cpu = cpuMs(server.child.pid) - cpuBefore;
  await Promise.all(sessions.map((session) => session.close()));
  agent.destroy();
  return {
    ...tally,
    openMs,
    perSecond: tally.completedInWindow / seconds,
    cpuPerCall: cpu / tally.completed,
  };
}

const toolhost = await start(
  'toolhost',
  [
    TOOLHOST_BIN,
    'mcp',
    '--http',
    '0',
    '--root',
    CORPUS,
    '--token',
    token,
    '--max-sessions',
    '1000',
  ],
  'stderr',
);
const bare = await start(
  'bare MCP SDK server',
  [path.join(HERE, 'bare-mcp-http.mjs'), declarations, core.ripgrepPath(), CORPUS],
  'stdout',
);

console.log(`\nMCP over HTTP under load (${machine()})`);
console.log(
  `${LEVELS.join(', ')} concurrent sessions, ${SECONDS} s each, toolhost and the bare server in turn; load average at start ${load()}\n`,
);
// Warm-up: the first calls load modules and compile code in both servers.
for (const server of [toolhost, bare]) await round(server, 5, 3);
const checks = targets();
const rows = [];
const ms = (value) => (value === undefined ? '-' : `${value.toFixed(0)}`);
for (const [level, sessions] of LEVELS.entries()) {
  // The order alternates, so neither server always runs on the warmer machine.
  const order = level % 2 === 0 ? [toolhost, bare] : [bare, toolhost];
  const results = {};
  for (const server of order) results[server.label] = await round(server, sessions);
  const ratio = results.toolhost.perSecond / results[bare.label].perSecond;
  for (const server of [toolhost, bare]) {
    const r = results[server.label];
    rows.push([
      `${sessions}`,
      server.label,
      r.perSecond.toFixed(1),
      ...TOOLS.map(
        (tool) =>
          `${ms(percentile(r.latencies.get(tool), 50))} / ${ms(percentile(r.latencies.get(tool), 95))}`,
      ),
      `${r.socketErrors} / ${r.httpErrors} / ${r.toolErrors}`,
      r.cpuPerCall.toFixed(1),
      server === toolhost ? `${ratio.toFixed(2)}x` : '',
    ]);
    if (r.examples.size)
      console.log(`${server.label}, ${sessions} sessions: ${[...r.examples].join('; ')}`);
  }
  const t = results.toolhost;
  checks.check(
    `toolhost mcp --http at ${sessions} sessions ≥ the bare SDK server's calls/s with no socket errors: ${ratio.toFixed(2)}x, ${t.socketErrors} socket errors`,
    ratio >= 1 && t.socketErrors === 0,
  );
}
toolhost.child.kill('SIGTERM');
bare.child.kill('SIGTERM');
console.log(`load average at end ${load()}\n`);
table(
  [
    'sessions',
    'server',
    'calls/s',
    ...TOOLS.map((tool) => `${tool} p50 / p95 ms`),
    'socket / HTTP / tool errors',
    'server CPU ms per call',
    'toolhost / bare',
  ],
  rows,
);
checks.print();
