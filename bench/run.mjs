/**
 * Times toolhost's search and read tools, in process, against the raw floor (ripgrep,
 * readdir) and against the same tools of the published @google/gemini-cli-core, on the
 * corpus built by corpus.mjs. Prints medians, ratios and whether each target is met.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import picomatch from 'picomatch';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CORPUS = path.join(HERE, 'corpus');
const CORE = path.join(HERE, '..', 'packages', 'core', 'dist', 'index.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const WARMUP = 2;

const core = await import(CORE);
const rg = core.ripgrepPath();
if (!rg) throw new Error('the bundled ripgrep is missing; run npm ci first');

// ---- toolhost, in process -------------------------------------------------------------
const config = new core.Config({
  roots: [CORPUS],
  homeDir: path.join(os.tmpdir(), 'toolhost-bench-home'),
  settings: { tools: { truncateOutputThreshold: 50_000_000 } },
});
const toolhost = {
  grep: new core.GrepTool(config),
  glob: new core.GlobTool(config),
  readMany: new core.ReadManyFilesTool(config),
  ls: new core.LsTool(config),
};
const signal = new AbortController().signal;

// ---- Gemini CLI core, in process, configured as its own tests configure it ------------
const gemini = await import('@google/gemini-cli-core');
const geminiWorkspace = new gemini.WorkspaceContext(CORPUS);
const geminiFiles = new gemini.FileDiscoveryService(CORPUS);
// Telemetry and other optional switches it asks about are answered "off" by the fallback.
const geminiConfig = new Proxy(
  {
    getTargetDir: () => CORPUS,
    getWorkspaceContext: () => geminiWorkspace,
    getFileService: () => geminiFiles,
    getFileSystemService: () => new gemini.StandardFileSystemService(),
    getFileFilteringOptions: () => ({
      respectGitIgnore: true,
      respectGeminiIgnore: true,
      maxFileCount: 1_000_000,
      searchTimeout: 120_000,
      customIgnoreFilePaths: [],
    }),
    getFileFilteringRespectGitIgnore: () => true,
    getFileExclusions: () => ({
      getCoreIgnorePatterns: () => gemini.COMMON_IGNORE_PATTERNS,
      getDefaultExcludePatterns: () => gemini.DEFAULT_FILE_EXCLUDES,
      getGlobExcludes: () => gemini.COMMON_IGNORE_PATTERNS,
      buildExcludePatterns: () => gemini.DEFAULT_FILE_EXCLUDES,
      getReadManyFilesExcludes: () => gemini.DEFAULT_FILE_EXCLUDES,
    }),
    // The same binary toolhost uses, so the comparison is of the tools, not of the engine.
    getRipgrepPath: async () => rg,
    getDebugMode: () => false,
    isInteractive: () => false,
    storage: { getProjectTempDir: () => path.join(os.tmpdir(), 'gemini-bench') },
    isPathAllowed: (p) => geminiWorkspace.isPathWithinWorkspace(p),
    validatePathAccess: (p) =>
      geminiWorkspace.isPathWithinWorkspace(p) ? null : `outside the workspace: ${p}`,
    getSessionId: () => 'bench',
    getCustomExcludes: () => [],
  },
  {
    get: (target, key) =>
      key in target
        ? target[key]
        : typeof key === 'string' && /^(get|is)/.test(key)
          ? () => false
          : undefined,
  },
);
const bus = { publish: async () => {}, subscribe: () => {}, unsubscribe: () => {} };
const geminiTools = {
  grep: new gemini.RipGrepTool(geminiConfig, bus),
  glob: new gemini.GlobTool(geminiConfig, bus),
  readMany: new gemini.ReadManyFilesTool(geminiConfig, bus),
  ls: new gemini.LSTool(geminiConfig, bus),
};
const runGemini = async (tool, params) => {
  const result = await tool.build(params).execute({ abortSignal: signal });
  if (result.error) throw new Error(`gemini ${tool.name}: ${result.error.message}`);
  return result;
};
const runToolhost = async (tool, params) => {
  const result = await tool.execute(params, signal);
  if (result.error) throw new Error(`toolhost ${tool.name}: ${result.error.message}`);
  return result;
};

// ---- raw floor ------------------------------------------------------------------------
function rawRg(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(rg, args, { cwd: CORPUS, stdio: ['ignore', 'pipe', 'inherit'] });
    let size = 0;
    child.stdout.on('data', (chunk) => {
      size += chunk.length;
    });
    child.on('error', reject);
    child.on('close', () => resolve(size));
  });
}
// The raw floor applies exactly the ignore rules toolhost gives rg.
const RG_IGNORE = core.ignoreArguments(CORPUS, {
  respectGitIgnore: true,
  respectToolhostIgnore: true,
});

async function rawGlobWithStat(pattern) {
  const listing = await new Promise((resolve) => {
    const child = spawn(rg, ['--files', ...RG_IGNORE], {
      cwd: CORPUS,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      text += chunk;
    });
    child.on('close', () => resolve(text.split('\n').filter(Boolean)));
  });
  const matches = picomatch(pattern, { dot: true, nocase: true });
  const chosen = listing.filter((file) => matches(file));
  await Promise.all(chosen.map((file) => stat(path.join(CORPUS, file))));
  return chosen.length;
}

// ---- measuring ------------------------------------------------------------------------
async function median(fn) {
  for (let i = 0; i < WARMUP; i++) await fn();
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const rows = [];
const checks = [];
async function compare(name, { toolhost: ours, gemini: theirs, raw, rawLabel }) {
  const oursMs = await median(ours);
  const theirsMs = theirs ? await median(theirs) : undefined;
  const rawMs = raw ? await median(raw) : undefined;
  rows.push({ name, oursMs, theirsMs, rawMs, rawLabel });
  return { oursMs, theirsMs, rawMs };
}

const fmt = (ms) => (ms === undefined ? '-' : `${ms.toFixed(1)} ms`);
const ratio = (a, b) => (a === undefined || b === undefined ? '-' : `${(a / b).toFixed(2)}x`);

const files =
  spawnSync(rg, ['--files', ...RG_IGNORE], { cwd: CORPUS, maxBuffer: 1 << 30 })
    .stdout.toString()
    .split('\n').length - 1;
console.log(
  `corpus: ${CORPUS} (${files} searchable files); ${RUNS} timed runs after ${WARMUP} warm-up runs, medians\n`,
);

// Searches with fewer than 100 matches: Gemini's ripgrep tool stops at its first 100
// matches, so only below that do both tools do the same work (a full scan, every match).
const rgGrep = (pattern) =>
  rawRg([
    '--line-number',
    '--no-heading',
    '--with-filename',
    '--null',
    '--case-sensitive',
    ...RG_IGNORE,
    '--regexp',
    pattern,
    '--',
    '.',
  ]);
const grepRow = async (label, pattern) =>
  compare(label, {
    toolhost: () => runToolhost(toolhost.grep, { pattern }),
    gemini: () => runGemini(geminiTools.grep, { pattern }),
    raw: () => rgGrep(pattern),
    rawLabel: 'rg',
  });
const literal = await grepRow('grep_search literal "module 47/99" (11 matches)', 'module 47/99');
checks.push(['grep_search literal within 1.3x of rg', literal.oursMs / literal.rawMs <= 1.3]);
checks.push([
  'grep_search literal 3x faster than Gemini CLI core (same rg binary)',
  literal.theirsMs / literal.oursMs >= 3,
]);
const regex = await grepRow(
  'grep_search regex "module 4[0-7]/99\\b" (8 matches)',
  'module 4[0-7]/99\\b',
);
checks.push(['grep_search regex within 1.3x of rg', regex.oursMs / regex.rawMs <= 1.3]);
checks.push([
  'grep_search regex 3x faster than Gemini CLI core (same rg binary)',
  regex.theirsMs / regex.oursMs >= 3,
]);
await grepRow('grep_search with ~2,900 matches (Gemini stops at 100, no total)', 'TOOLHOST_NEEDLE');
// What Gemini CLI core does on a machine where it cannot download ripgrep: its own grep
// (git grep, else JavaScript). Timed once: it is slow.
const geminiFallback = new gemini.GrepTool(geminiConfig, bus);
{
  const start = performance.now();
  await runGemini(geminiFallback, { pattern: 'module 47/99' });
  const theirsMs = performance.now() - start;
  const oursMs = rows[0].oursMs;
  rows.push({
    name: 'grep_search literal, Gemini without ripgrep (its git grep fallback, 1 run)',
    oursMs,
    theirsMs,
    rawMs: undefined,
  });
  checks.push([
    'grep_search 3x faster than Gemini CLI core as it runs without a ripgrep download',
    theirsMs / oursMs >= 3,
  ]);
}

const glob = await compare('glob "**/*.ts" (recency sort)', {
  toolhost: () => runToolhost(toolhost.glob, { pattern: '**/*.ts' }),
  gemini: () => runGemini(geminiTools.glob, { pattern: '**/*.ts' }),
  raw: () => rawGlobWithStat('**/*.ts'),
  rawLabel: 'rg --files + stat',
});
checks.push(['glob within 1.5x of rg --files + stat', glob.oursMs / glob.rawMs <= 1.5]);
checks.push(['glob 3x faster than Gemini CLI core', glob.theirsMs / glob.oursMs >= 3]);

const readMany = await compare('read_many_files, 1,000 files', {
  toolhost: () => runToolhost(toolhost.readMany, { paths: ['bench-read/*.ts'] }),
  gemini: () => runGemini(geminiTools.readMany, { include: ['bench-read/*.ts'] }),
});
checks.push(['read_many_files of 1,000 files under 300 ms warm', readMany.oursMs < 300]);
checks.push([
  'read_many_files 3x faster than Gemini CLI core',
  readMany.theirsMs / readMany.oursMs >= 3,
]);

const wide = path.join(CORPUS, 'wide');
const ls = await compare('list_directory, 10,000 entries', {
  toolhost: () => runToolhost(toolhost.ls, { path: wide }),
  gemini: () => runGemini(geminiTools.ls, { dir_path: wide }),
  raw: async () => readdirSync(wide, { withFileTypes: true }).length,
  rawLabel: 'readdir',
});
checks.push(['list_directory 3x faster than Gemini CLI core', ls.theirsMs / ls.oursMs >= 3]);

// Peak memory of a search whose matches fill the whole corpus, in a fresh process each.
function peakMemoryMb(script) {
  const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: HERE,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (out.status !== 0) throw new Error(out.stderr);
  return Number(out.stdout.trim()) / 1024;
}
const ourPeak = peakMemoryMb(`
  const core = await import(${JSON.stringify(CORE)});
  const config = new core.Config({ roots: [${JSON.stringify(CORPUS)}], homeDir: ${JSON.stringify(path.join(os.tmpdir(), 'toolhost-bench-home'))} });
  await new core.GrepTool(config).execute({ pattern: 'return' }, new AbortController().signal);
  console.log(process.resourceUsage().maxRSS);`);
const matchingLines = Number(
  spawnSync(rg, ['--count-matches', '--no-filename', ...RG_IGNORE, 'return', '.'], {
    cwd: CORPUS,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  })
    .stdout.split('\n')
    .filter(Boolean)
    .reduce((sum, n) => sum + Number(n), 0),
);

console.log(
  '| operation | toolhost | raw floor | toolhost / raw | Gemini CLI core | Gemini / toolhost |',
);
console.log('| --- | --- | --- | --- | --- | --- |');
for (const row of rows) {
  console.log(
    `| ${row.name} | ${fmt(row.oursMs)} | ${row.rawMs === undefined ? '-' : `${fmt(row.rawMs)} (${row.rawLabel})`} | ${ratio(row.oursMs, row.rawMs)} | ${fmt(row.theirsMs)} | ${ratio(row.theirsMs, row.oursMs)} |`,
  );
}
console.log(
  `\ngrep_search peak memory over ${matchingLines} matching lines: ${ourPeak.toFixed(0)} MB RSS (the whole process)`,
);
checks.push(['grep_search peak memory bounded (under 250 MB for the whole corpus)', ourPeak < 250]);
console.log('\nTargets:');
for (const [label, met] of checks) console.log(`  ${met ? 'met    ' : 'MISSED '} ${label}`);
