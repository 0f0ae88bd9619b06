/**
 * What every bench script shares: where things are, interleaved medians, timed child
 * processes, the machine's description, and table printing.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const HERE = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.join(HERE, '..');
export const CORPUS = path.join(HERE, 'corpus');
export const CORE = path.join(REPO, 'packages', 'core', 'dist', 'index.js');
/** The installed command, exactly as npm links it. */
export const TOOLHOST_BIN = path.join(REPO, 'packages', 'cli', 'bin', 'toolhost.js');
export const RUNS = Number(process.env.BENCH_RUNS ?? 5);
export const WARMUP = Number(process.env.BENCH_WARMUP ?? 1);
/**
 * BENCH_QUIET=1 starts each timed program at real-time priority (`chrt -f 5`, as root; its
 * children inherit it): it then has the cores as on a quiet machine, so its wall time
 * approximates a quiet run's on a shared, loaded one, at the price of holding back
 * everything else on the machine while it runs. Keep BENCH_RUNS low.
 */
export const QUIET = process.env.BENCH_QUIET === '1';

/** The command line that starts `command`, at real-time priority under BENCH_QUIET=1. */
export const quietly = (command, args) =>
  QUIET ? ['chrt', ['-f', '5', command, ...args]] : [command, args];

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/**
 * Collects this process's garbage, when node runs with --expose-gc (the bench scripts
 * do): otherwise the garbage one in-process case leaves is collected during the next
 * one, on the cores its child process needs.
 */
const collectGarbage = globalThis.gc ?? (() => {});

/**
 * Medians of RUNS rounds after WARMUP rounds; each round runs every case once, one after
 * another, so a burst of load on a shared machine falls on all of them alike. Each case
 * starts from a collected heap.
 */
export async function interleaved(cases) {
  for (let i = 0; i < WARMUP; i++) for (const { run } of cases) await run();
  const times = cases.map(() => []);
  for (let round = 0; round < RUNS; round++) {
    for (const [index, { run }] of cases.entries()) {
      collectGarbage();
      const start = performance.now();
      await run();
      times[index].push(performance.now() - start);
    }
  }
  return Object.fromEntries(cases.map(({ name }, index) => [name, median(times[index])]));
}

/** Runs a program to its end, discarding its output; rejects on a non-zero exit. */
export function run(command, args, { cwd = CORPUS, input, env, okCodes = [0] } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(...quietly(command, args), {
      cwd,
      env: env ?? process.env,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    if (input !== undefined) child.stdin.end(input);
    child.on('error', reject);
    child.on('close', (code) =>
      okCodes.includes(code)
        ? resolve()
        : reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${stderr}`)),
    );
  });
}

/**
 * Runs a program to its end and returns its output as text; a program that could not be
 * started (a busy machine can refuse a process for a moment) is tried once more, and a
 * failure says which program and why instead of leaving a null output behind.
 */
export function capture(command, args, { cwd = CORPUS, okCodes = [0] } = {}) {
  for (let attempt = 1; ; attempt++) {
    const out = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30 });
    if (out.error && attempt < 2) continue;
    if (out.error) throw new Error(`${command} ${args.join(' ')}: ${out.error.message}`);
    if (!okCodes.includes(out.status))
      throw new Error(`${command} ${args.join(' ')} exited with ${out.status}: ${out.stderr}`);
    return out.stdout;
  }
}

export function machine() {
  const cpus = os.cpus();
  const gb = (bytes) => `${(bytes / 2 ** 30).toFixed(0)} GB`;
  return `${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${gb(os.totalmem())} memory (${gb(os.freemem())} free), ${os.platform()} ${os.release()}, Node ${process.version}`;
}

export const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ');

export const ms = (value) =>
  value === undefined ? '-' : value < 10 ? `${value.toFixed(1)} ms` : `${value.toFixed(0)} ms`;
export const times = (a, b) =>
  a === undefined || b === undefined ? '-' : `${(a / b).toFixed(2)}x`;

/** Prints a Markdown table. */
export function table(header, rows) {
  console.log(`| ${header.join(' | ')} |`);
  console.log(`| ${header.map(() => '---').join(' | ')} |`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  console.log('');
}

/** Records a target and prints whether it was met at the end. */
export function targets() {
  const list = [];
  return {
    check(label, met) {
      list.push([label, met]);
    },
    print() {
      console.log('Targets:');
      for (const [label, met] of list) console.log(`  ${met ? 'met    ' : 'MISSED '} ${label}`);
      console.log('');
    },
  };
}

/**
 * A home of its own (so no person's settings, MCP servers, take part) holding the
 * function declarations of toolhost's tools, which the bare MCP servers list.
 */
export function writeDeclarations(core) {
  const home = mkdtempSync(path.join(os.tmpdir(), 'toolhost-bench-home-'));
  const declarations = path.join(home, 'declarations.json');
  const config = new core.Config({ roots: [CORPUS], homeDir: home });
  const registry = core.createToolRegistry(config, { env: {} });
  writeFileSync(declarations, JSON.stringify(registry.getFunctionDeclarations()));
  return { home, declarations };
}
