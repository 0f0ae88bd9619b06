/**
 * In-process figures: toolhost's tool classes called directly (what a library user or a
 * long-running agent pays per call), beside the native tools doing the same work (git
 * grep, rg, rg --files + stat + sort, xargs cat, ls, readdir) and the same tools of the
 * published @google/gemini-cli-core (BENCH_GEMINI=0 leaves those out); then peak memory
 * of a search whose matches fill the corpus, in a fresh process per engine.
 */
import { readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  CORE,
  CORPUS,
  capture,
  HERE,
  interleaved,
  load,
  machine,
  ms,
  RUNS,
  run,
  table,
  targets,
  times,
  WARMUP,
} from './lib.mjs';
import { ANSWERED, NAMED, namedPaths } from './named-paths.mjs';

const core = await import(CORE);
const rg = core.ripgrepPath();
if (!rg) throw new Error('the bundled ripgrep is missing; run npm ci first');
const WITH_GEMINI = process.env.BENCH_GEMINI !== '0';

// ---- toolhost, in process -------------------------------------------------------------
const home = path.join(os.tmpdir(), 'toolhost-bench-home');
const config = new core.Config({
  roots: [CORPUS],
  homeDir: home,
  settings: { tools: { truncateOutputThreshold: 50_000_000 } },
});
const toolhost = {
  grep: new core.GrepTool(config),
  grepGit: new core.GrepTool(config, { engine: 'git' }),
  glob: new core.GlobTool(config),
  readMany: new core.ReadManyFilesTool(config),
  ls: new core.LsTool(config),
};
// A signal per call: one shared by thousands of calls collects listeners some tools leave.
const freshSignal = () => new AbortController().signal;
const runToolhost = (tool, params) => async () => {
  const result = await tool.execute(params, freshSignal());
  if (result.error) throw new Error(`toolhost ${tool.name}: ${result.error.message}`);
  return result;
};

// ---- Gemini CLI core, in process, configured as its own tests configure it ------------
const gemini = WITH_GEMINI ? await import('@google/gemini-cli-core') : undefined;
const geminiWorkspace = gemini && new gemini.WorkspaceContext(CORPUS);
const geminiFiles = gemini && new gemini.FileDiscoveryService(CORPUS);
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
const geminiTools = gemini && {
  grep: new gemini.RipGrepTool(geminiConfig, bus),
  glob: new gemini.GlobTool(geminiConfig, bus),
  readMany: new gemini.ReadManyFilesTool(geminiConfig, bus),
  ls: new gemini.LSTool(geminiConfig, bus),
};
const runGemini = async (tool, params) => {
  const result = await tool.build(params).execute({ abortSignal: freshSignal() });
  if (result.error) throw new Error(`gemini ${tool.name}: ${result.error.message}`);
  return result;
};

// ---- native floors --------------------------------------------------------------------
// The floors apply exactly the ignore rules toolhost gives rg.
const RG_IGNORE = core.ignoreArguments(CORPUS, {
  respectGitIgnore: true,
  respectToolhostIgnore: true,
});
const okNoMatch = { okCodes: [0, 1] };
// The floors search with the case rule grep_search promises (smart case): a pattern
// without capitals ignores case, which costs ripgrep more than matching it exactly.
const rgGrep = (pattern) => () =>
  run(
    rg,
    [
      '-n',
      '--no-heading',
      '--null',
      core.isCaseInsensitive(pattern) ? '--ignore-case' : '--case-sensitive',
      ...RG_IGNORE,
      '-e',
      pattern,
      '--',
      '.',
    ],
    okNoMatch,
  );
const gitGrep = (pattern) => () =>
  run(
    'git',
    [
      'grep',
      '-n',
      '-z',
      '-I',
      '--untracked',
      '-P',
      ...(core.isCaseInsensitive(pattern) ? ['-i'] : []),
      '-e',
      pattern,
      '--',
      '.',
    ],
    okNoMatch,
  );

function listWithRg(args) {
  return capture(rg, ['--files', ...RG_IGNORE, ...args])
    .split('\n')
    .filter(Boolean);
}
/** What glob must do at least: list the matches, stat each, sort by time. */
async function rgFilesStatSort() {
  const files = listWithRg(['-g', '*.ts']).map((file) => path.join(CORPUS, file));
  const times = new Map(files.map((file) => [file, statSync(file).mtimeMs]));
  return files.sort((a, b) => times.get(b) - times.get(a));
}

const readList = readdirSync(path.join(CORPUS, 'bench-read'))
  .map((name) => path.join('bench-read', name))
  .join('\n');
const wide = path.join(CORPUS, 'wide');

// ---- measuring ------------------------------------------------------------------------
const checks = targets();
const rows = [];
async function compare(label, { ours, floors = [], theirs }) {
  const cases = [{ name: 'toolhost', run: ours }, ...floors];
  if (theirs && gemini) cases.push({ name: 'gemini', run: theirs });
  const result = await interleaved(cases);
  // "toolhost on ..." rows are shown beside the floors, not counted as native ones.
  const native = floors.filter(({ name }) => !name.startsWith('toolhost'));
  const fastest = native.length ? Math.min(...native.map(({ name }) => result[name])) : undefined;
  rows.push([
    label,
    ms(result.toolhost),
    floors.map(({ name }) => `${name} ${ms(result[name])}`).join(', ') || '-',
    times(result.toolhost, fastest),
    ms(result.gemini),
    times(result.gemini, result.toolhost),
  ]);
  return { ours: result.toolhost, fastest, result };
}

const files = listWithRg([]).length;
const tracked = capture('git', ['ls-files']).split('\n').filter(Boolean).length;
console.log(`Machine: ${machine()}`);
console.log(
  `Corpus: ${CORPUS}: ${tracked} tracked files, ${files} searchable (ignore rules applied); in process, ${RUNS} interleaved rounds after ${WARMUP} warm-up, medians${globalThis.gc ? ', each case from a collected heap' : ''}; load average at start ${load()}\n`,
);

const grepRow = async (label, pattern) => {
  const row = await compare(label, {
    ours: runToolhost(toolhost.grep, { pattern }),
    floors: [
      { name: 'git grep', run: gitGrep(pattern) },
      { name: 'rg', run: rgGrep(pattern) },
      { name: 'toolhost on git grep', run: runToolhost(toolhost.grepGit, { pattern }) },
    ],
    theirs: gemini && (() => runGemini(geminiTools.grep, { pattern })),
  });
  const native = Math.min(row.result['git grep'], row.result.rg);
  checks.check(
    `${label} ≤ 1.1x the fastest native engine: ${times(row.ours, native)}`,
    row.ours <= 1.1 * native,
  );
};
await grepRow('grep_search literal "module 23/99" (ignoring case)', 'module 23/99');
await grepRow('grep_search regex "module 2[0-3]/99\\b" (ignoring case)', 'module 2[0-3]/99\\b');
await grepRow('grep_search "TOOLHOST_NEEDLE" (generated code)', 'TOOLHOST_NEEDLE');
await grepRow('grep_search "createElement" (real code)', 'createElement');

const glob = await compare('glob "**/*.ts", newest first', {
  ours: runToolhost(toolhost.glob, { pattern: '**/*.ts' }),
  floors: [{ name: 'rg --files -g + stat + sort', run: rgFilesStatSort }],
  theirs: gemini && (() => runGemini(geminiTools.glob, { pattern: '**/*.ts' })),
});
checks.check(
  `glob ≤ 1.1x rg --files -g + stat + sort: ${times(glob.ours, glob.fastest)}`,
  glob.ours <= 1.1 * glob.fastest,
);

const readMany = await compare('read_many_files, 1,000 files', {
  ours: runToolhost(toolhost.readMany, { paths: ['bench-read/*.ts'] }),
  floors: [{ name: 'xargs cat', run: () => run('xargs', ['cat'], { input: readList }) }],
  theirs: gemini && (() => runGemini(geminiTools.readMany, { include: ['bench-read/*.ts'] })),
});
checks.check(
  `read_many_files ≤ 1.5x xargs cat: ${times(readMany.ours, readMany.fastest)}`,
  readMany.ours <= 1.5 * readMany.fastest,
);

// The issue's case: 1,000 files named one by one across packages/, 20 of them answered.
const named = namedPaths();
const namedTool = new core.ReadManyFilesTool(
  new core.Config({
    roots: [CORPUS],
    homeDir: home,
    settings: { tools: { truncateOutputThreshold: named.threshold } },
  }),
);
const namedList = named.paths.join('\n');
const namedRead = await compare(
  `read_many_files, ${NAMED.toLocaleString('en')} named paths, ${ANSWERED} answered`,
  {
    ours: runToolhost(namedTool, { paths: named.paths }),
    floors: [
      { name: 'xargs cat (all of them)', run: () => run('xargs', ['cat'], { input: namedList }) },
    ],
  },
);
checks.check(
  `read_many_files of ${NAMED} named paths ≤ 6x xargs cat on the same list: ${times(namedRead.ours, namedRead.fastest)}`,
  namedRead.ours <= 6 * namedRead.fastest,
);

await compare('list_directory, 10,000 entries', {
  ours: runToolhost(toolhost.ls, { path: wide }),
  floors: [
    { name: 'ls -la', run: () => run('ls', ['-la', wide]) },
    { name: 'ls -1U', run: () => run('ls', ['-1U', wide]) },
    { name: 'readdir', run: async () => readdirSync(wide, { withFileTypes: true }).length },
  ],
  theirs: gemini && (() => runGemini(geminiTools.ls, { dir_path: wide })),
});

// ---- peak memory, each in a fresh process -----------------------------------------------
// VmHWM, the peak resident size of the process's own memory. Not resourceUsage().maxRSS:
// Linux carries a child's maximum over from the process it was forked from (this bench,
// hundreds of MB by now) across exec, so a small child reported the bench's size.
const PEAK_RSS_MB = `Number(/^VmHWM:\\s*(\\d+)/m.exec(require('node:fs').readFileSync('/proc/self/status', 'utf8'))[1]) / 1024`;
const peakOf = (script) => Number(capture(process.execPath, ['-e', script], { cwd: HERE }).trim());
function peakMemoryMb(engine) {
  return peakOf(`
    (async () => {
      const core = await import(${JSON.stringify(CORE)});
      const config = new core.Config({ roots: [${JSON.stringify(CORPUS)}], homeDir: ${JSON.stringify(home)} });
      const tool = new core.GrepTool(config${engine ? `, { engine: '${engine}' }` : ''});
      const result = await tool.execute({ pattern: 'return' }, new AbortController().signal);
      if (result.error) throw new Error(result.error.message);
      console.log(${PEAK_RSS_MB});
    })();`);
}
const matchingLines = capture(rg, ['--count', '--no-filename', ...RG_IGNORE, 'return', '.'])
  .split('\n')
  .filter(Boolean)
  .reduce((sum, n) => sum + Number(n), 0);
const peakAuto = peakMemoryMb();
const peakGit = peakMemoryMb('git');
const nodeAlone = peakOf(`console.log(${PEAK_RSS_MB})`);

console.log(`load average at end ${load()}\n`);
table(
  [
    'operation (in process)',
    'toolhost',
    'native',
    'toolhost / fastest native',
    'Gemini CLI core 0.61',
    'Gemini / toolhost',
  ],
  rows,
);
console.log(
  `grep_search peak memory over ${matchingLines.toLocaleString('en')} matching lines (whole process, peak RSS): ${peakAuto.toFixed(0)} MB with the engine it chooses (ripgrep), ${peakGit.toFixed(0)} MB on git grep; node alone ${nodeAlone.toFixed(0)} MB\n`,
);
checks.check(
  `grep_search peak memory ≤ 150 MB: ${peakAuto.toFixed(0)} MB (rg), ${peakGit.toFixed(0)} MB (git)`,
  Math.max(peakAuto, peakGit) <= 150,
);
checks.print();
