#!/usr/bin/env node
/**
 * `npm run conformance`: the MCP conformance suite (@modelcontextprotocol/conformance,
 * pinned in package.json beside this file) against both sides of toolhost, one score each.
 *
 * - Server suite: against `toolhost mcp --http` on 127.0.0.1. toolhost requires a bearer
 *   token and the suite cannot send one, so a small proxy on 127.0.0.1 adds the token and
 *   passes everything else (Host and Origin included) through unchanged.
 * - Client suite: the suite starts `node client.mjs <url>` once per scenario; that runner
 *   uses toolhost's own client, OAuth provider and sign-in (see client.mjs). Scenarios run
 *   one after another: run in parallel on a busy machine they miss the suite's time limits.
 *
 * The suite needs Node 22's fs.globSync when it loads; on Node 20 node20.mjs stands in.
 * A scenario passes when it has at least one successful check and no failed one (the
 * suite's own rule). Results (checks.json per scenario) go to conformance/results/.
 * `node run.mjs server` or `node run.mjs client` runs one suite; more words after it name
 * scenarios to run.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.dirname(here);
const suiteBin = path.join(here, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const toolhostBin = path.join(repo, 'packages/cli/bin/toolhost.js');
const resultsDir = path.join(here, 'results');

const [which = 'all', ...only] = process.argv.slice(2);

/**
 * Server scenarios that test the suite's own fixture server, not a protocol behaviour:
 * they read resources and get prompts that only that server has (test://static-text,
 * test_simple_prompt, ...). toolhost offers the workspace's memory files and the person's
 * command files instead, so these are skipped, with the reason; resources-list and
 * prompts-list check any server's lists and run.
 */
const FIXTURE_RESOURCE =
  "reads the suite's fixture resource (test://...), which toolhost does not have";
const FIXTURE_PROMPT = "gets the suite's fixture prompt (test_*), which toolhost does not have";
const SERVER_FIXTURE_SCENARIOS = {
  'completion-complete': 'toolhost mcp offers no completions',
  'resources-read-text': FIXTURE_RESOURCE,
  'resources-read-binary': FIXTURE_RESOURCE,
  'resources-templates-read': 'toolhost mcp offers no resource templates',
  'resources-subscribe': 'toolhost mcp offers no subscriptions (it sends resources/list_changed)',
  'resources-unsubscribe': 'toolhost mcp offers no subscriptions (it sends resources/list_changed)',
  'prompts-get-simple': FIXTURE_PROMPT,
  'prompts-get-with-args': FIXTURE_PROMPT,
  'prompts-get-embedded-resource': FIXTURE_PROMPT,
  'prompts-get-with-image': FIXTURE_PROMPT,
};
const FIXTURE_TOOL = /^(tools-call-|json-schema-2020-12$|elicitation-sep)/;
const FIXTURE_TOOL_REASON =
  "calls one of the suite's fixture tools (test_*), which toolhost does not have";

function notApplicable(name) {
  return (
    SERVER_FIXTURE_SCENARIOS[name] ?? (FIXTURE_TOOL.test(name) ? FIXTURE_TOOL_REASON : undefined)
  );
}

/** Runs the suite's command; asynchronously, since the proxy in this process must go on serving. */
function suite(args) {
  const child = spawn(
    process.execPath,
    ['--import', path.join(here, 'node20.mjs'), suiteBin, ...args],
    {
      cwd: here,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.resume();
  return new Promise((resolve) => child.on('close', () => resolve(stdout)));
}

/** Scenario names of one side, as the suite lists them. */
async function scenarios(side) {
  const listed = await suite(['list', `--${side}`]);
  return [...listed.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]);
}

/** Each scenario's verdict from the checks.json files under dir. */
function verdicts(dir) {
  const found = new Map();
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'checks.json') {
        const checks = JSON.parse(readFileSync(full, 'utf8'));
        const failed = checks.filter((check) => check.status === 'FAILURE');
        const passed = checks.some((check) => check.status === 'SUCCESS');
        const name = path
          .relative(dir, folder)
          .replace(/\\/g, '/')
          .replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, '')
          .replace(/^server-/, '');
        found.set(name, {
          pass: passed && failed.length === 0,
          why: failed.map((check) => check.errorMessage ?? check.description ?? check.id),
        });
      }
    }
  };
  walk(dir);
  return found;
}

function report(title, names, results) {
  let passed = 0;
  console.log(`\n${title}`);
  for (const name of names) {
    const result = results.get(name);
    if (result?.pass) passed++;
    const mark = result?.pass ? 'pass' : result ? 'FAIL' : 'none';
    const why =
      result && !result.pass ? ` (${result.why[0]?.slice(0, 160) ?? 'no check passed'})` : '';
    console.log(`  ${mark}  ${name}${why}`);
  }
  console.log(`  score: ${passed}/${names.length}`);
  return { passed, total: names.length };
}

async function runClientSuite() {
  const names = only.length ? only : await scenarios('client');
  const out = path.join(resultsDir, 'client');
  rmSync(out, { recursive: true, force: true });
  const command = `${process.execPath} ${path.join(here, 'client.mjs')}`;
  for (const name of names) {
    process.stderr.write(`client: ${name}\n`);
    await suite([
      'client',
      '--command',
      command,
      '--scenario',
      name,
      '--timeout',
      '60000',
      '-o',
      out,
    ]);
  }
  const results = verdicts(out);
  const core = names.filter((name) => !name.startsWith('auth/'));
  const auth = names.filter((name) => name.startsWith('auth/'));
  const scores = [];
  if (core.length)
    scores.push(['client core', report('Client suite, core scenarios', core, results)]);
  if (auth.length)
    scores.push(['client auth', report('Client suite, auth scenarios', auth, results)]);
  return scores;
}

async function runServerSuite() {
  const listed = only.length ? only : await scenarios('server');
  const names = listed.filter((name) => !notApplicable(name));
  const out = path.join(resultsDir, 'server');
  rmSync(out, { recursive: true, force: true });
  const root = mkdtempSync(path.join(os.tmpdir(), 'toolhost-conformance-root-'));
  writeFileSync(path.join(root, 'README.md'), 'A folder for the conformance suite.\n');
  // A memory file and a command file, so resources-list and prompts-list see real entries.
  writeFileSync(path.join(root, 'AGENTS.md'), 'Answer briefly.\n');
  mkdirSync(path.join(root, '.toolhost', 'commands'), { recursive: true });
  writeFileSync(
    path.join(root, '.toolhost', 'commands', 'review.md'),
    '---\ndescription: Review the change\n---\nReview $ARGUMENTS.\n',
  );
  const token = randomBytes(24).toString('hex');
  const server = spawn(
    process.execPath,
    [toolhostBin, 'mcp', '--http', '0', '--root', root, '--approval-mode', 'yolo'],
    {
      env: { ...process.env, TOOLHOST_MCP_TOKEN: token, HOME: root },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  try {
    const target = await new Promise((resolve, reject) => {
      let said = '';
      server.stderr.on('data', (chunk) => {
        said += chunk;
        const match = /serving on (http:\/\/127\.0\.0\.1:\d+)\/mcp/.exec(said);
        if (match) resolve(new URL(match[1]));
      });
      server.once('exit', (code) => reject(new Error(`toolhost mcp exited (${code}): ${said}`)));
    });
    const proxy = await bearerProxy(target, token);
    try {
      const url = `http://127.0.0.1:${proxy.address().port}/mcp`;
      for (const name of names)
        await suite(['server', '--url', url, '--scenario', name, '-o', out]);
    } finally {
      proxy.closeAllConnections();
      proxy.close();
    }
  } finally {
    server.kill('SIGTERM');
    rmSync(root, { recursive: true, force: true });
  }
  const score = report('Server suite (toolhost mcp --http)', names, verdicts(out));
  const skipped = listed.filter((name) => notApplicable(name));
  if (skipped.length) {
    console.log(`  does not apply (${skipped.length}):`);
    for (const name of skipped) console.log(`  ----  ${name}: ${notApplicable(name)}`);
  }
  return [['server (scenarios that apply)', score]];
}

/**
 * Forwards to toolhost with the bearer token added. The Host and Origin the suite sent are
 * kept, except that its own address stands for toolhost's: a request toolhost should refuse
 * (another host, another origin) still reaches it as such.
 */
function bearerProxy(target, token) {
  const proxy = http.createServer((req, res) => {
    const own = `127.0.0.1:${proxy.address().port}`;
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    if (headers.host === own || headers.host === own.replace('127.0.0.1', 'localhost'))
      headers.host = target.host;
    if (headers.origin === `http://${own}`) headers.origin = `http://${target.host}`;
    const upstream = http.request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.headersSent || res.writeHead(502).end());
    req.pipe(upstream);
    res.on('close', () => upstream.destroy());
  });
  return new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve(proxy)));
}

const scores = [];
if (which === 'all' || which === 'server') scores.push(...(await runServerSuite()));
if (which === 'all' || which === 'client') scores.push(...(await runClientSuite()));
console.log('\nConformance scores');
for (const [name, { passed, total }] of scores) console.log(`  ${name}: ${passed}/${total}`);
