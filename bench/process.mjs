/**
 * Whole-process figures: the installed `toolhost` command started fresh for every run, as
 * a person or an MCP client starts it, beside the native commands that do the same work
 * (node -e 0, cat, git grep, rg, rg --files + stat + sort, a bare MCP SDK server).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { listToolsOverStdio } from '../packages/cli/scripts/mcp-opening.mjs';
import {
  CORE,
  CORPUS,
  HERE,
  interleaved,
  load,
  ms,
  QUIET,
  quietly,
  RUNS,
  run,
  TOOLHOST_BIN,
  table,
  targets,
  times,
  WARMUP,
  writeDeclarations,
} from './lib.mjs';
import { moduleChain, modulesLoadedBy } from './module-floor.mjs';
import { ANSWERED, NAMED, namedPaths } from './named-paths.mjs';

const core = await import(CORE);
const rg = core.ripgrepPath();
const { home, declarations } = writeDeclarations(core);
const env = { ...process.env, HOME: home, NO_COLOR: '1' };
// Node 20 parses the certificate bundle NODE_EXTRA_CA_CERTS names at every start, whether
// the program makes a TLS connection or not (about 60 ms with Debian's bundle): every
// toolhost process pays it, the native floors do not. The rows keep the person's
// environment; each toolhost row (and `node -e 0`) also runs with it unset, so the table
// shows how much of a ratio is this tax of Node's start.
const caCerts = process.env.NODE_EXTRA_CA_CERTS;
const untaxedEnv = { ...env };
delete untaxedEnv.NODE_EXTRA_CA_CERTS;
const node = process.execPath;
const toolhost =
  (...args) =>
  (runEnv = env) =>
    run(node, [TOOLHOST_BIN, ...args], { env: runEnv });
const call = (tool, params) => toolhost('call', tool, JSON.stringify(params), '--root', CORPUS);
const RG_IGNORE = core.ignoreArguments(CORPUS, {
  respectGitIgnore: true,
  respectToolhostIgnore: true,
});
const sh = (script) => () => run('sh', ['-c', script], { env, okCodes: [0, 1] });
const quote = (word) => `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * Starts an MCP server, speaks the opening (initialize, tools/list), then `afterListing`
 * if given, and stops it.
 */
function mcpSession(command, args, afterListing) {
  return async (runEnv = env) => {
    const child = spawn(...quietly(command, args), {
      cwd: CORPUS,
      env: runEnv,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    try {
      await listToolsOverStdio(child, 'bench', '1.0.0');
      await afterListing?.(child);
    } finally {
      child.kill();
    }
  };
}

const mcpReady = (command, args) => mcpSession(command, args);

/**
 * The opening, then a read_file call sent as soon as the tools are listed: what a client
 * that calls at once waits for, the MCP SDK's loading included (`toolhost mcp` loads it
 * after answering the opening).
 */
const mcpFirstCall = (command, args, absolutePath) =>
  mcpSession(
    command,
    args,
    (child) =>
      new Promise((resolve, reject) => {
        let buffer = '';
        child.stdout.on('data', (chunk) => {
          buffer += chunk;
          if (buffer.includes('"id":3')) resolve(undefined);
        });
        child.on('exit', () =>
          reject(new Error('toolhost mcp exited before it answered the call')),
        );
        const call = { name: 'read_file', arguments: { absolute_path: absolutePath } };
        child.stdin.write(
          `${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: call })}\n`,
        );
      }),
  );

const file = path.join(CORPUS, 'bench-read', 'file-0000.ts');
const checks = targets();
const rows = [];
const UNTAXED = ' (NODE_EXTRA_CA_CERTS unset)';
/**
 * Runs toolhost (the first case) beside its floors, interleaved. With NODE_EXTRA_CA_CERTS
 * set, toolhost and the floors that are Node processes too (`node: true`) also run
 * without it, and are compared with the floors as they are without it.
 */
async function row(label, cases) {
  const [ours, ...others] = cases;
  // A reference (a bare Node program doing the same work) is shown, never a floor.
  const floors = others.filter((other) => !other.reference);
  const references = others.filter((other) => other.reference);
  const untaxed = caCerts
    ? [ours, ...others.filter((other) => other.node)].map((taxed) => ({
        name: taxed.name + UNTAXED,
        run: () => taxed.run(untaxedEnv),
      }))
    : [];
  const result = await interleaved([...cases, ...untaxed]);
  const fastest = Math.min(...floors.map(({ name }) => result[name]));
  const untaxedFastest = Math.min(
    ...floors.map(({ name }) => result[name + UNTAXED] ?? result[name]),
  );
  const ourUntaxed = result[ours.name + UNTAXED];
  rows.push([
    label,
    ms(result[ours.name]),
    [
      ...floors.map(({ name }) => `${name} ${ms(result[name])}`),
      ...references.map(({ name }) => `(${name}: ${ms(result[name])})`),
    ].join(', '),
    times(result[ours.name], fastest),
    caCerts
      ? `${ms(ourUntaxed)}${others
          .filter((other) => other.node)
          .map(({ name }) => ` (${name} ${ms(result[name + UNTAXED])})`)
          .join('')}: ${times(ourUntaxed, untaxedFastest)}`
      : '-',
  ]);
  return { ours: result[ours.name], fastest, untaxed: ourUntaxed, untaxedFastest, result };
}

console.log(
  `Whole processes: ${RUNS} interleaved rounds after ${WARMUP} warm-up, medians${QUIET ? ', each at real-time priority (BENCH_QUIET=1)' : ''}; load average at start ${load()}\n`,
);
const nodeFloor = {
  name: 'node -e 0',
  node: true,
  run: (runEnv = env) => run(node, ['-e', '0'], { env: runEnv }),
};
const version = await row('`toolhost --version`', [
  { name: 'toolhost', run: toolhost('--version') },
  nodeFloor,
]);
/**
 * A reference beside a command's row: node loading as many empty ES modules as the command
 * loads files (see module-floor.mjs), the part of its start no code change can win back.
 */
function moduleFloor(args) {
  const count = modulesLoadedBy(node, [TOOLHOST_BIN, ...args], env);
  const chain = moduleChain(count);
  return {
    name: `node loading ${count} empty ES modules`,
    node: true,
    reference: true,
    run: (runEnv = env) => run(node, [chain], { env: runEnv }),
  };
}
const toolsArgs = ['tools', '--json', '--root', CORPUS];
const tools = await row('`toolhost tools --json` (no MCP servers)', [
  { name: 'toolhost', run: toolhost(...toolsArgs) },
  nodeFloor,
  moduleFloor(toolsArgs),
]);
const readFileArgs = [
  'call',
  'read_file',
  JSON.stringify({ absolute_path: file }),
  '--root',
  CORPUS,
];
const readFile = await row('`toolhost call read_file` (one 2.5 KB file)', [
  { name: 'toolhost', run: toolhost(...readFileArgs) },
  nodeFloor,
  { name: 'cat', reference: true, run: () => run('cat', [file]) },
  moduleFloor(readFileArgs),
]);
const mcp = await row('`toolhost mcp` answering initialize + tools/list', [
  { name: 'toolhost', run: mcpReady(node, [TOOLHOST_BIN, 'mcp', '--root', CORPUS]) },
  nodeFloor,
  {
    name: 'bare MCP SDK server',
    node: true,
    reference: true,
    run: mcpReady(node, [path.join(HERE, 'bare-mcp-server.mjs'), declarations]),
  },
]);
await row('`toolhost mcp` answering initialize + tools/list, then read_file at once', [
  { name: 'toolhost', run: mcpFirstCall(node, [TOOLHOST_BIN, 'mcp', '--root', CORPUS], file) },
  nodeFloor,
]);
// A pattern with capitals: grep_search matches its case, as the floors do.
const needle = 'TOOLHOST_NEEDLE';
if (core.isCaseInsensitive(needle)) throw new Error(`${needle} would be searched ignoring case`);
// toolhost's own arguments to rg (bench/node-floor.mjs reads rg's output with them).
const grepArgs = [
  '--line-number',
  '--heading',
  '--with-filename',
  '--null',
  '--color',
  'never',
  '--max-columns',
  '1000',
  '--max-columns-preview',
  '--case-sensitive',
  ...RG_IGNORE,
  '--regexp',
  needle,
  '--',
  '.',
];
const nodeFloorScript = path.join(HERE, 'node-floor.mjs');
const bareNode =
  (mode, args) =>
  (runEnv = env) =>
    run(node, [nodeFloorScript, mode, rg, ...args], { env: runEnv });
const grep = await row(`\`toolhost call grep_search\` "${needle}"`, [
  { name: 'toolhost', run: call('grep_search', { pattern: needle }) },
  { name: 'git grep', run: sh(`git grep -n -I --untracked -e ${needle} > /dev/null`) },
  {
    name: 'rg',
    run: sh(`${quote(rg)} -n ${RG_IGNORE.map(quote).join(' ')} -e ${needle} > /dev/null`),
  },
  { name: 'bare Node reading rg', node: true, reference: true, run: bareNode('grep', grepArgs) },
]);
const glob = await row('`toolhost call glob` "**/*.ts"', [
  { name: 'toolhost', run: call('glob', { pattern: '**/*.ts' }) },
  {
    name: 'rg --files -g + stat + sort',
    run: sh(
      `${quote(rg)} --files ${RG_IGNORE.map(quote).join(' ')} -g '*.ts' | xargs -d '\\n' stat -c '%Y %n' | sort -rn > /dev/null`,
    ),
  },
  {
    name: 'bare Node: rg --files + statSync',
    node: true,
    reference: true,
    run: bareNode('glob', [
      '--files',
      '--null',
      ...RG_IGNORE,
      '--type-add',
      'toolhost:*.[tT][sS]',
      '--type',
      'toolhost',
      '--',
      '.',
    ]),
  },
]);
await row('`toolhost call read_many_files` (1,000 files)', [
  { name: 'toolhost', run: call('read_many_files', { paths: ['bench-read/*.ts'] }) },
  { name: 'xargs cat', run: sh(`ls bench-read/*.ts | xargs cat > /dev/null`) },
]);
const named = namedPaths();
const namedRead = await row(
  `\`toolhost call read_many_files\` (${NAMED.toLocaleString('en')} named paths across packages/, a ${ANSWERED}-file answer)`,
  [
    {
      name: 'toolhost',
      run: (runEnv = env) =>
        run(
          node,
          [
            TOOLHOST_BIN,
            'call',
            'read_many_files',
            JSON.stringify({ paths: named.paths }),
            '--root',
            CORPUS,
          ],
          { env: { ...runEnv, HOME: named.home } },
        ),
    },
    { name: 'xargs cat', run: sh(`xargs cat < ${quote(named.list)} > /dev/null`) },
  ],
);
console.log(`load average at end ${load()}\n`);
table(
  [
    'command (fresh process each run)',
    'toolhost',
    'native',
    'toolhost / fastest native',
    `toolhost with NODE_EXTRA_CA_CERTS unset${caCerts ? '' : ' (it is not set here)'}: time, ratio`,
  ],
  rows,
);

// The targets of issue 42, each a ratio to the fastest floor of its row.
const ratioWithin = (label, measured, goal) =>
  checks.check(
    `${label} ≤ ${goal}x: ${times(measured.ours, measured.fastest)}${untaxedNote(measured)}`,
    measured.ours <= goal * measured.fastest,
  );
const untaxedNote = (measured) =>
  caCerts
    ? ` (${times(measured.untaxed, measured.untaxedFastest)} with NODE_EXTRA_CA_CERTS unset)`
    : '';
ratioWithin('toolhost --version, to node -e 0,', version, 1.3);
ratioWithin('toolhost call read_file, to node -e 0,', readFile, 1.5);
ratioWithin('toolhost tools --json, to node -e 0,', tools, 1.5);
ratioWithin('toolhost mcp answering initialize + tools/list, to node -e 0,', mcp, 2);
ratioWithin('toolhost call grep_search, to the fastest of git grep -n and rg,', grep, 1.2);
ratioWithin('toolhost call glob, to rg --files + stat + sort,', glob, 1.2);
ratioWithin(
  `toolhost call read_many_files, ${NAMED} named paths, to xargs cat on the same list,`,
  namedRead,
  2,
);
checks.print();
