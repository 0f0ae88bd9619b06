/**
 * What the installed command loads at start, recorded while it runs (a resolve hook and the
 * CommonJS cache, see fixtures/load-recorder/): a command that does not use MCP, the web,
 * shell parsing or a model must not load them, and only the interactive terminal loads Ink.
 * Speed itself is measured by `npm run bench`, never here.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../../core/test/helpers/processes.js';
import { openingLines } from '../scripts/mcp-opening.mjs';
import { CLI } from './run-cli.js';

const PRELOAD = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  'fixtures/load-recorder/preload.mjs',
);

let base: string;
beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'toolhost-startup-')));
  writeFileSync(path.join(base, 'notes.txt'), 'remember the milk\n');
  // `-p` meets a closed port: one try, no retries (a home of its own: a settings file
  // is checked against the schema, which loads the validator).
  mkdirSync(path.join(base, 'home-for-p', '.toolhost'), { recursive: true });
  writeFileSync(
    path.join(base, 'home-for-p', '.toolhost', 'settings.json'),
    JSON.stringify({ model: { maxRetries: 0 } }),
  );
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

interface Loaded {
  packages: Set<string>;
  builtins: Set<string>;
  /** toolhost's own modules, as `core/dist/tools/read-file.js` or `cli/dist/...`. */
  own: Set<string>;
  /** Every file loaded (ES modules and CommonJS), the count bench/module-floor.mjs uses. */
  files: Set<string>;
  status: number | null;
}

function recordingEnv(home: string, record: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    TOOLHOST_SYSTEM_SETTINGS_PATH: path.join(home, 'no-system-settings.json'),
    // Nothing listens there: `-p` loads what it needs, then fails to connect.
    OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    OPENAI_API_KEY: 'unused',
    OPENAI_MODEL: 'startup-test',
    TOOLHOST_LOAD_RECORD: record,
    NODE_OPTIONS: `--import=${PRELOAD}`,
  };
}

let runs = 0;
/** Runs the installed command with the recorder; stdout and stderr go to a file, not a pipe. */
function loadedBy(args: string[], home = base, input?: string): Loaded {
  const record = path.join(base, `record-${++runs}.txt`);
  const output = openSync(path.join(base, `output-${runs}.txt`), 'w');
  try {
    const result = spawnSync(CLI, args, {
      cwd: base,
      stdio: [input === undefined ? 'ignore' : 'pipe', output, output],
      input,
      timeout: 25_000,
      env: recordingEnv(home, record),
    });
    const urls = readFileSync(record, 'utf8').split('\n').filter(Boolean);
    const packages = new Set<string>();
    const builtins = new Set<string>();
    const own = new Set<string>();
    const files = new Set(urls.filter((url) => url.startsWith('file:')));
    for (const url of urls) {
      if (url.startsWith('node:')) builtins.add(url.slice('node:'.length));
      const match = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
      if (match?.[1]) packages.add(match[1]);
      // In the clone packages/core/dist/..., installed @toolhost/core/dist/...
      const mine = /\/(?:packages|@toolhost)\/((?:core|cli)\/dist\/.+)$/.exec(url);
      if (mine?.[1]) own.add(mine[1]);
    }
    return { packages, builtins, own, files, status: result.status };
  } finally {
    closeSync(output);
  }
}

const HEAVY = [
  '@modelcontextprotocol/sdk',
  'zod',
  'undici',
  'turndown',
  '@mixmark-io/domino',
  'web-tree-sitter',
  'openai',
  'iconv-lite',
  'chardet',
  // The address classes of the web guard, loaded with the first fetch.
  'ipaddr.js',
  // The interactive terminal's, loaded only when `toolhost` opens it.
  'ink',
  'react',
  'marked',
  'marked-terminal',
];

/** The modules of the built-in tools, one each (see tools/builtin-lazy.ts). */
const BUILTIN_TOOL_MODULE =
  /^core\/dist\/tools\/(ls|read-file|write-file|edit|grep|glob|read-many-files|shell|web-fetch|web-search|memoryTool|todoWrite|exitPlanMode)\.js$/;

/**
 * What only running a shell command needs: the OS sandbox, the read-only analysis, the
 * walk for what deny rules cover.
 */
const SHELL_CALL_MODULE =
  /^core\/dist\/(shell\/(sandbox\/.+|shell-permissions|read-only-.+|git-read-only.*)|permissions\/covered-paths)\.js$/;

/**
 * The shell command parser (tree-sitter's loader, the runner and option tables): a
 * permission decision reads shell rules with shell/shell-words.ts, and the shell tool
 * imports the parser with its first command.
 */
const SHELL_PARSER_MODULE =
  /^core\/dist\/shell\/(command-analysis|bash-parser|command-invocation|command-runners|execution-variables|output-options|parse-options)\.js$/;

/**
 * CommonJS libraries required on first use (utils/lazy-libraries.ts): jsonc-parser with a
 * settings file, shell-quote with a shell rule or mcp.serverCommand, ignore with an ignore
 * file, picomatch with a glob, fastest-levenshtein with a misspelt name. The test's folder
 * and home have none of these.
 */
const FIRST_USE_PACKAGES = [
  'jsonc-parser',
  'shell-quote',
  'ignore',
  'picomatch',
  'fastest-levenshtein',
];

/**
 * What a listed tool's call needs and its listing does not: the shell report and runtime (with
 * the check for an approval that covers every call), web_fetch's per-hop rules, the bounded
 * result list, reading and writing text, edit's matching, the diff, glob matching, the marking
 * of untrusted web text and read_file's media facts.
 */
const TOOL_CALL_HELPER =
  /^core\/dist\/(tools\/(shell-report|shell-runtime|edit-matching|file-change)|permissions\/(web-rules|approval-rules)|utils\/(bounded-sorted|text-file|file-diff|glob-match|image-size)|web\/untrusted-content)\.js$/;

/** Node's network modules: loading them (DNS reads resolv.conf) is for commands that go online. */
const NETWORK = /^(dns|dns\/promises|net|tls|http|https|http2|dgram)$/;

/** The interactive terminal's libraries: only the interactive mode may load them. */
const TERMINAL_UI = /^(ink|ink-.+|@inkjs\/.+|react|react-.+|yoga-.+|marked|marked-terminal)$/;

const READ_FILE = () => [
  'call',
  'read_file',
  JSON.stringify({ absolute_path: path.join(base, 'notes.txt') }),
];

/**
 * How many files each command may load at most. Node 20's module loader costs about 0.3 ms
 * of CPU a file, which sets the floor of a command's start (docs/speed.md, "Start-up
 * against Node's own floor"): a change that loads more must lower this on purpose
 * elsewhere, or raise it here with the reason. Measured 29 November: `call` 122 and
 * `tools` 124, once the CommonJS libraries most starts do not use and the shell parser left
 * the start (140 and 151 before); `mcp` (up to answering tools/list) 130: what `tools`
 * loads, and the stdio opening that answers before the MCP SDK (236 files of its own: zod,
 * ajv, zod-to-json-schema) is loaded (397 before). Then `call` 121, `tools` 114 and `mcp`
 * 120, once the built-in tools import what only a call needs with the call
 * (TOOL_CALL_HELPER). docs/speed.md has the details.
 */
const MOST_FILES = { call: 123, tools: 116, mcp: 122 };

/** `toolhost mcp` on stdio, asked what a client asks first; stdin then ends and so does the server. */
const MCP_LISTING = openingLines('startup-test');

/** The MCP SDK's client modules (transports, OAuth): only proxying configured servers uses them. */
const MCP_SDK_CLIENT =
  /\/@modelcontextprotocol\/sdk\/dist\/(esm|cjs)\/(client\/|experimental\/tasks\/client|shared\/auth)/;

/** What the SDK's client transports and OAuth bring. */
const MCP_CLIENT_PACKAGES = ['cross-spawn', 'eventsource', 'eventsource-parser', 'pkce-challenge'];

/**
 * toolhost's MCP client side, the scheduler (loaded with the first tools/call) and the
 * HTTP service's modules (--http only).
 */
const MCP_NOT_FOR_LISTING =
  /^(core\/dist\/(tools\/mcp-client|tools\/mcp\/(sdk-client|transport|oauth.*|sign-in|elicitation.*|offerings)|scheduler\/core-tool-scheduler|entry\/mcp)|cli\/dist\/commands\/mcp\/(allowed-hosts|http-.+))\.js$/;

/** What only a search needs (its engines, the listing, the lookup of ripgrep). */
const SEARCH_RUN_MODULE =
  /^core\/dist\/(tools\/grep-(engines|confirm|javascript)|utils\/(file-listing|ripgrep|spawn-thread))\.js$/;

describe('the installed command at start', () => {
  it('answers --version and -v before loading any of its code', () => {
    // The installed launcher and package.json alone, with no compiled code beside them:
    // any other command says it is not built.
    const installed = path.dirname(path.dirname(realpathSync(CLI)));
    const alone = mkdtempSync(path.join(base, 'launcher-'));
    mkdirSync(path.join(alone, 'bin'));
    for (const file of ['toolhost.js', 'package.json'])
      copyFileSync(path.join(installed, 'bin', file), path.join(alone, 'bin', file));
    copyFileSync(path.join(installed, 'package.json'), path.join(alone, 'package.json'));
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [path.join(alone, 'bin', 'toolhost.js'), ...args], {
        encoding: 'utf8',
      });
    const { version } = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8'));
    for (const flag of ['--version', '-v']) {
      const answer = run(flag);
      expect(answer.status).toBe(0);
      expect(answer.stdout).toBe(`${version}\n`);
    }
    const unbuilt = run('tools');
    expect(unbuilt.status).toBe(70);
    expect(unbuilt.stderr).toContain('not built yet');
  });

  it('loads only the command line parser to print its help', () => {
    const { packages, status } = loadedBy(['--help']);
    expect(status).toBe(0);
    // toolhost's own packages are under node_modules in an install, too.
    expect([...packages].filter((name) => !name.startsWith('@toolhost/')).sort()).toEqual([
      'commander',
    ]);
  });

  it.each([
    ['tools', () => ['tools', '--json']],
    ['call', READ_FILE],
  ])('"%s" loads no MCP, web, shell-parsing, model or legacy-encoding code', (_name, args) => {
    const { packages, status } = loadedBy(args());
    expect(status).toBe(0);
    // Import these where they are used (`await import(...)`), not at the top of a module.
    expect([...packages].filter((name) => HEAVY.includes(name))).toEqual([]);
  });

  it('"tools" loads neither the schema validator nor the diff library (nothing is validated or diffed)', () => {
    const { packages, status } = loadedBy(['tools', '--json']);
    expect(status).toBe(0);
    expect([...packages].filter((name) => ['ajv', 'ajv-formats', 'diff'].includes(name))).toEqual(
      [],
    );
  });

  it('"call read_file" loads that tool\'s module and no other tool\'s, and no schema validator', () => {
    const { own, packages, status } = loadedBy(READ_FILE());
    expect(status).toBe(0);
    // The other built-ins load only when a message must list them (tools/builtin-lazy.ts).
    const tools = [...own].filter((file) => BUILTIN_TOOL_MODULE.test(file));
    expect(tools).toEqual(['core/dist/tools/read-file.js']);
    // Good arguments against a built-in's plain schema are checked without ajv
    // (utils/quick-schema-check.ts); so is a good settings file.
    expect([...packages].filter((name) => /^ajv/.test(name))).toEqual([]);
  });

  it('"call read_file" with a settings file of good values loads no schema validator either', () => {
    const home = path.join(base, 'home-with-settings');
    mkdirSync(path.join(home, '.toolhost'), { recursive: true });
    writeFileSync(
      path.join(home, '.toolhost', 'settings.json'),
      JSON.stringify({
        tools: { truncateOutputThreshold: 50_000, exclude: ['web_fetch'] },
        model: { maxRetries: 2 },
        mcpServers: {},
      }),
    );
    const { packages, status } = loadedBy(READ_FILE(), home);
    expect(status).toBe(0);
    expect([...packages].filter((name) => /^ajv/.test(name))).toEqual([]);
  });

  it.each([
    ['tools', () => ['tools', '--json'], MOST_FILES.tools],
    ['call', READ_FILE, MOST_FILES.call],
  ])('"%s" loads no more files than it is pinned to', (_name, args, most) => {
    const { files, status } = loadedBy(args());
    expect(status).toBe(0);
    expect(files.size).toBeGreaterThan(50);
    expect(files.size).toBeLessThanOrEqual(most);
  });

  it.each([
    ['tools', () => ['tools', '--json']],
    ['call', READ_FILE],
  ])(
    '"%s" loads neither the shell command parser nor the libraries only some settings need',
    (_name, args) => {
      const { files, own, packages, status } = loadedBy(args());
      expect(status).toBe(0);
      // shell/command-rules.ts takes programName from shell-words.ts; tools/shell.ts imports
      // the parser in its first call.
      expect([...own].filter((file) => SHELL_PARSER_MODULE.test(file))).toEqual([]);
      // No settings file, shell rule, ignore file, glob or misspelt name here.
      expect([...packages].filter((name) => FIRST_USE_PACKAGES.includes(name))).toEqual([]);
      // program.ts requires commander (CommonJS) rather than importing its ES module wrapper.
      expect([...files].filter((url) => url.endsWith('/commander/esm.mjs'))).toEqual([]);
    },
  );

  it.each([
    ['tools', () => ['tools', '--json'], undefined],
    ['mcp', () => ['mcp'], MCP_LISTING],
  ])('"%s" lists the tools without what only their calls need', (_name, args, input) => {
    const { own, status } = loadedBy(args(), base, input);
    expect(status).toBe(0);
    expect(readFileSync(path.join(base, `output-${runs}.txt`), 'utf8')).toContain('write_file');
    // Each built-in tool imports them in the call that uses them (execute(), the plan of a
    // change, the shell runtime), never at the top of its module.
    expect([...own].filter((file) => TOOL_CALL_HELPER.test(file))).toEqual([]);
  });

  it('"call read_file" loads neither YAML nor the file helpers, which only an attachment needs', () => {
    const { own, packages, status } = loadedBy(READ_FILE());
    expect(status).toBe(0);
    // cli/commands/call-command.ts imports @toolhost/core/files only for an attachment.
    expect([...packages].filter((name) => name === 'yaml')).toEqual([]);
    expect(
      [...own].filter((file) => /^core\/dist\/(entry\/files|utils\/front-matter)\.js$/.test(file)),
    ).toEqual([]);
  });

  it('"tools" lists grep_search, glob and read_many_files without loading what a search runs', () => {
    const { own, status } = loadedBy(['tools', '--json']);
    expect(status).toBe(0);
    // Each tool imports them in execute().
    expect([...own].filter((file) => SEARCH_RUN_MODULE.test(file))).toEqual([]);
  });

  it('"tools" lists the shell tool without loading its sandbox or its read-only analysis', () => {
    const { own, status } = loadedBy(['tools', '--json']);
    expect(status).toBe(0);
    // tools/shell.ts imports them on its first call.
    expect([...own].filter((file) => SHELL_CALL_MODULE.test(file))).toEqual([]);
  });

  it('"mcp" answers initialize and tools/list on stdio without the HTTP stack or the command-file parsers', () => {
    const { packages, status } = loadedBy(['mcp'], base, MCP_LISTING);
    expect(status).toBe(0);
    expect(readFileSync(path.join(base, `output-${runs}.txt`), 'utf8')).toContain('read_file');
    // --http imports its service; prompts/list imports the command loader (YAML, TOML).
    expect([...packages].filter((name) => /^(hono|@hono\/.+|yaml|smol-toml)$/.test(name))).toEqual(
      [],
    );
  });

  it('"mcp" answers tools/list without the MCP client side, the scheduler or the HTTP service\'s checks', () => {
    const { files, own, packages, status } = loadedBy(['mcp'], base, MCP_LISTING);
    expect(status).toBe(0);
    expect(readFileSync(path.join(base, `output-${runs}.txt`), 'utf8')).toContain('read_file');
    // The server imports @toolhost/core/mcp-server, not the /mcp barrel; the client side
    // loads with the first configured MCP server (tools/tool-registry.ts).
    expect([...files].filter((url) => MCP_SDK_CLIENT.test(url))).toEqual([]);
    expect([...packages].filter((name) => MCP_CLIENT_PACKAGES.includes(name))).toEqual([]);
    expect([...own].filter((file) => MCP_NOT_FOR_LISTING.test(file))).toEqual([]);
  });

  it('"mcp" answers initialize and tools/list before the MCP SDK loads', () => {
    const { packages, own, status } = loadedBy(['mcp'], base, MCP_LISTING);
    expect(status).toBe(0);
    const answers = readFileSync(path.join(base, `output-${runs}.txt`), 'utf8');
    expect(answers).toContain('"protocolVersion":"2025-06-18"');
    expect(answers).toContain('read_file');
    expect(
      [...packages].filter((name) => /^(@modelcontextprotocol\/sdk|zod|ajv)/.test(name)),
    ).toEqual([]);
    expect(own).toContain('core/dist/mcp/stdio-opening.js');
    expect(own).not.toContain('core/dist/mcp/mcp-server.js');
  });

  it('"mcp" loads the MCP SDK while a client that has listed the tools stays quiet', async () => {
    // The recorder writes each ES module as it is resolved, so the record grows while the
    // server runs; the client keeps stdin open and sends nothing after its tools/list.
    const record = path.join(base, 'record-quiet.txt');
    writeFileSync(record, '');
    const child = spawn(CLI, ['mcp'], {
      cwd: base,
      stdio: ['pipe', 'pipe', 'ignore'],
      env: recordingEnv(base, record),
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let answers = '';
    child.stdout.on('data', (chunk) => {
      answers += String(chunk);
    });
    child.stdin.write(MCP_LISTING);
    const loaded = () => readFileSync(record, 'utf8');
    try {
      expect(await waitUntil(() => answers.includes('read_file'), 20_000)).toBe(true);
      expect(await waitUntil(() => loaded().includes('/core/dist/mcp/mcp-server.js'), 20_000)).toBe(
        true,
      );
      // mcp-server.js is recorded as it is resolved, before its own imports are: the SDK's
      // server modules follow a moment later, so the test waits for them too.
      const sdkServer = /@modelcontextprotocol\/sdk\/dist\/esm\/server\//;
      expect(await waitUntil(() => sdkServer.test(loaded()), 20_000)).toBe(true);
    } finally {
      child.stdin.end();
      await exited;
    }
  });

  it('"mcp" loads no more files than it is pinned to up to answering tools/list', () => {
    const { files, status } = loadedBy(['mcp'], base, MCP_LISTING);
    expect(status).toBe(0);
    expect(files.size).toBeGreaterThan(100);
    expect(files.size).toBeLessThanOrEqual(MOST_FILES.mcp);
  });

  it('"restore" lists checkpoints without the conversation core, the agent or a model client', () => {
    const { own, packages, status } = loadedBy(['restore']);
    expect(status).toBe(0);
    // The checkpoints come from @toolhost/core/files, not the whole conversation entry.
    const core = [
      'core/dist/conversation/conversation.js',
      'core/dist/conversation/open-conversation.js',
      'core/dist/agent/agent-loop.js',
    ];
    expect(core.filter((file) => own.has(file))).toEqual([]);
    expect([...packages].filter((name) => HEAVY.includes(name))).toEqual([]);
  });

  it.each([
    ['tools', () => ['tools', '--json']],
    ['call', READ_FILE],
  ])('"%s" imports none of Node\'s network modules (DNS, TLS, sockets, HTTP)', (_name, args) => {
    const { builtins, status } = loadedBy(args());
    expect(status).toBe(0);
    // web_fetch checks a URL with web/url-check.ts; the fetching code loads on the first fetch.
    expect([...builtins].filter((name) => NETWORK.test(name))).toEqual([]);
  });

  it.each([
    ['tools', () => ['tools', '--json']],
    ['call', READ_FILE],
    ['-p (headless)', () => ['-p', 'hello']],
  ])('"%s" loads no terminal UI (Ink, React)', (name, args) => {
    const { packages } = loadedBy(
      args(),
      name.startsWith('-p') ? path.join(base, 'home-for-p') : base,
    );
    expect(packages.size).toBeGreaterThan(0);
    expect([...packages].filter((name) => TERMINAL_UI.test(name))).toEqual([]);
  });
});
