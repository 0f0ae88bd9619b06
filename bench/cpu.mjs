/**
 * CPU time of the three search tools of issue 42 and their native floors, as whole
 * processes: user + system time of the process and every child it waited for (rusage of
 * the children of /usr/bin/time), beside wall time. On a shared, loaded machine wall time
 * is mostly other people's work; CPU time is what a change to the tool itself moves.
 * `node cpu.mjs [grep|glob|read ...]` runs the named rows (all by default), BENCH_RUNS
 * rounds each, interleaved, and prints medians. BENCH_BEFORE=<another toolhost.js> adds
 * that build's rows to the same rounds (a before/after comparison under the same load).
 * BENCH_QUIET=1 runs each case at real-time priority (chrt -f 5, as root): it then has
 * the cores as on a quiet machine, so its wall time approximates a quiet run's, at the
 * price of holding back everything else on the machine for that long; keep BENCH_RUNS low.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { CORE, CORPUS, HERE, load, QUIET, RUNS, TOOLHOST_BIN } from './lib.mjs';
import { namedPaths } from './named-paths.mjs';

const core = await import(CORE);
const rg = core.ripgrepPath();
const RG_IGNORE = core.ignoreArguments(CORPUS, {
  respectGitIgnore: true,
  respectToolhostIgnore: true,
});
const quote = (word) => `'${word.replaceAll("'", `'\\''`)}'`;
const node = process.execPath;
const before = process.env.BENCH_BEFORE;
const quiet = QUIET;
const command = (bin, tool, params) =>
  [node, bin, 'call', tool, JSON.stringify(params), '--root', CORPUS].map(quote).join(' ');
/** The toolhost case(s) of a row: this build's, and the other build's when asked. */
const calls = (label, tool, params, env) => [
  [label, command(TOOLHOST_BIN, tool, params), env],
  ...(before ? [[`${label} (before)`, command(before, tool, params), env]] : []),
];

/** One run of a shell line: [wall ms, cpu ms (user + sys, children included)]. */
function measure(script, env) {
  const timed = ['/usr/bin/time', '-f', '%e %U %S', 'sh', '-c', `${script} > /dev/null`];
  const [program, ...args] = quiet ? ['chrt', '-f', '5', ...timed] : timed;
  const result = spawnSync(program, args, {
    cwd: CORPUS,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const last = result.stderr.trim().split('\n').at(-1) ?? '';
  const [wall, user, sys] = last.split(' ').map(Number);
  if (!(wall >= 0)) throw new Error(`${script}: ${result.stderr}`);
  return [wall * 1000, (user + sys) * 1000];
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const named = namedPaths();
const rgIgnore = RG_IGNORE.map(quote).join(' ');
const rows = {
  grep: [
    ...calls('toolhost grep_search', 'grep_search', { pattern: 'TOOLHOST_NEEDLE' }),
    ['git grep -n', 'git grep -n -I --untracked -e TOOLHOST_NEEDLE'],
    ['rg -n', `${quote(rg)} -n ${rgIgnore} -e TOOLHOST_NEEDLE`],
    [
      'bare Node reading rg (node-floor.mjs)',
      [node, path.join(HERE, 'node-floor.mjs'), 'grep', rg, '--line-number', '--heading']
        .concat(['--with-filename', '--null', '--max-columns', '1000', '--max-columns-preview'])
        .concat([...RG_IGNORE, '--case-sensitive', '--regexp', 'TOOLHOST_NEEDLE', '--', '.'])
        .map(quote)
        .join(' '),
    ],
  ],
  glob: [
    ...calls('toolhost glob **/*.ts', 'glob', { pattern: '**/*.ts' }),
    [
      'rg --files + stat + sort',
      `${quote(rg)} --files ${rgIgnore} -g '*.ts' | xargs -d '\\n' stat -c '%Y %n' | sort -rn`,
    ],
    [
      'bare Node: rg --files + statSync (node-floor.mjs)',
      [node, path.join(HERE, 'node-floor.mjs'), 'glob', rg, '--files', '--null', ...RG_IGNORE]
        .concat(['--type-add', 'toolhost:*.[tT][sS]', '--type', 'toolhost', '--', '.'])
        .map(quote)
        .join(' '),
    ],
  ],
  read: [
    ...calls(
      'toolhost read_many_files (1,000 named)',
      'read_many_files',
      { paths: named.paths },
      {
        HOME: named.home,
      },
    ),
    ...calls('toolhost read_file (start-up)', 'read_file', {
      absolute_path: path.join(CORPUS, named.paths[0]),
    }),
    ['xargs cat', `xargs cat < ${quote(named.list)}`],
    ['node -e 0', `${quote(node)} -e 0`],
  ],
};
const chosen = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(rows);
const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], {
  cwd: path.dirname(TOOLHOST_BIN),
  encoding: 'utf8',
}).stdout.trim();
console.log(
  `commit ${commit}, load average at start ${load()}, ${RUNS} runs${quiet ? ', at real-time priority' : ''}`,
);
console.log('| case | wall ms | cpu ms (user+sys) |\n|---|---:|---:|');
for (const name of chosen) {
  const cases = rows[name];
  const walls = cases.map(() => []);
  const cpus = cases.map(() => []);
  measure(cases[0][1], cases[0][2]);
  for (let round = 0; round < RUNS; round++) {
    for (const [index, [, script, env]] of cases.entries()) {
      const [wall, cpu] = measure(script, env);
      walls[index].push(wall);
      cpus[index].push(cpu);
    }
  }
  for (const [index, [label]] of cases.entries()) {
    console.log(
      `| ${label} | ${median(walls[index]).toFixed(0)} | ${median(cpus[index]).toFixed(0)} |`,
    );
  }
}
console.log(`load average at end ${load()}`);
