/**
 * What the installed command loads at start, read from the bundle's own record of which
 * inputs went into which file (bundle/meta.json, written by scripts/bundle.mjs). A command
 * that does not use MCP, the web, shell parsing or a model must not load them; speed itself
 * is measured by `npm run bench`, never here.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPO = path.resolve(CLI, '../..');

interface Output {
  imports: { path: string; kind: string; external?: boolean }[];
  inputs: Record<string, unknown>;
  entryPoint?: string;
}
const meta = JSON.parse(readFileSync(path.join(CLI, 'bundle', 'meta.json'), 'utf8')) as {
  external: string[];
  metafile: { outputs: Record<string, Output> };
};
const outputs = meta.metafile.outputs;

/** Output files a chunk loads before it runs (static imports, transitively). */
function loadedWith(start: string): Set<string> {
  const seen = new Set<string>();
  const pending = [start];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const imported of outputs[file]?.imports ?? []) {
      if (imported.kind === 'import-statement' && !imported.external) pending.push(imported.path);
    }
  }
  return seen;
}

function outputFor(entry: string): string {
  const found = Object.entries(outputs).find(([, output]) => output.entryPoint === entry);
  if (!found) throw new Error(`no bundle output for ${entry}`);
  return found[0];
}

/** The npm packages whose code is in the given output files, plus external ones imported. */
function packagesIn(files: Set<string>): Set<string> {
  const names = new Set<string>();
  for (const file of files) {
    const output = outputs[file]!;
    for (const input of Object.keys(output.inputs)) {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
      if (match) names.add(match[1]!);
    }
    for (const imported of output.imports) {
      if (imported.external && imported.kind === 'import-statement' && !isBuiltin(imported.path))
        names.add(imported.path);
    }
  }
  return names;
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

/** Node's network modules: loading them (DNS reads resolv.conf) is for commands that go online. */
const NETWORK = /^(node:)?(dns|dns\/promises|net|tls|http|https|http2|dgram)$/;

/** The interactive terminal's libraries: only the interactive mode may load them. */
const TERMINAL_UI = /^(ink|ink-.+|@inkjs\/.+|react|react-.+|yoga-.+|marked|marked-terminal)$/;

describe('the installed command', () => {
  it('runs the bundle built from the current compiled code', () => {
    const bundled = statSync(path.join(CLI, 'bundle', 'index.js')).mtimeMs;
    for (const info of ['packages/core/tsconfig.tsbuildinfo', 'packages/cli/tsconfig.tsbuildinfo'])
      expect(bundled).toBeGreaterThanOrEqual(statSync(path.join(REPO, info)).mtimeMs);
  });

  it('answers --version and -v before loading any of its code', () => {
    // The launcher and package.json alone, with no bundle or compiled code beside them:
    // any other command says it is not built.
    const alone = mkdtempSync(path.join(os.tmpdir(), 'toolhost-launcher-'));
    try {
      mkdirSync(path.join(alone, 'bin'));
      for (const file of ['toolhost.js', 'package.json'])
        copyFileSync(path.join(CLI, 'bin', file), path.join(alone, 'bin', file));
      copyFileSync(path.join(CLI, 'package.json'), path.join(alone, 'package.json'));
      const run = (...args: string[]) =>
        spawnSync(process.execPath, [path.join(alone, 'bin', 'toolhost.js'), ...args], {
          encoding: 'utf8',
        });
      const { version } = JSON.parse(readFileSync(path.join(CLI, 'package.json'), 'utf8'));
      for (const flag of ['--version', '-v']) {
        const answer = run(flag);
        expect(answer.status).toBe(0);
        expect(answer.stdout).toBe(`${version}\n`);
      }
      expect(run('tools').status).toBe(70);
    } finally {
      rmSync(alone, { recursive: true, force: true });
    }
  });

  it('loads only the command line parser to print its version or help', () => {
    const atStart = loadedWith(outputFor('packages/cli/dist/index.js'));
    expect([...packagesIn(atStart)].sort()).toEqual(['commander']);
  });

  it.each([
    ['tools', 'packages/cli/dist/commands/tools-command.js'],
    ['call', 'packages/cli/dist/commands/call-command.js'],
  ])('"%s" loads no MCP, web, shell-parsing, model or legacy-encoding code', (_name, command) => {
    const loaded = new Set([
      ...loadedWith(outputFor('packages/cli/dist/index.js')),
      ...loadedWith(outputFor('packages/cli/dist/session.js')),
      ...loadedWith(outputFor(command)),
    ]);
    const heavy = [...packagesIn(loaded)].filter((name) => HEAVY.includes(name));
    // Import these where they are used (`await import(...)`), not at the top of a module.
    expect(heavy).toEqual([]);
  });

  it.each([
    ['tools', 'packages/cli/dist/commands/tools-command.js'],
    ['call', 'packages/cli/dist/commands/call-command.js'],
  ])('"%s" loads none of Node\'s network modules (DNS, TLS, sockets, HTTP)', (_name, command) => {
    const loaded = new Set([
      ...loadedWith(outputFor('packages/cli/dist/index.js')),
      ...loadedWith(outputFor('packages/cli/dist/session.js')),
      ...loadedWith(outputFor(command)),
    ]);
    const network = new Set<string>();
    for (const file of loaded)
      for (const imported of outputs[file]!.imports)
        if (imported.kind === 'import-statement' && NETWORK.test(imported.path))
          network.add(imported.path);
    // web_fetch checks a URL with web/url-check.ts; the fetching code loads on the first fetch.
    expect([...network]).toEqual([]);
  });

  it.each([
    ['tools', 'packages/cli/dist/commands/tools-command.js'],
    ['call', 'packages/cli/dist/commands/call-command.js'],
    ['mcp', 'packages/cli/dist/commands/mcp-command.js'],
    ['-p (headless)', 'packages/cli/dist/agent/headless.js'],
  ])('"%s" loads no terminal UI (Ink, React)', (_name, command) => {
    const loaded = new Set([
      ...loadedWith(outputFor('packages/cli/dist/index.js')),
      ...loadedWith(outputFor('packages/cli/dist/session.js')),
      ...loadedWith(outputFor(command)),
    ]);
    expect([...packagesIn(loaded)].filter((name) => TERMINAL_UI.test(name))).toEqual([]);
  });
});
