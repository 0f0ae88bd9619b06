/**
 * The bundle's cached start: every ES module chunk of bundle/ rewritten as a CommonJS
 * function (`<chunk>.cjs` beside it) that bin/start-bundle.cjs compiles with `vm.Script`
 * and V8's code cache (`<chunk>.v8cache`), made here by running representative commands.
 * Node 20 has no compile cache for ES modules, and compiling them was the largest single
 * cost of a start; with the cache V8 deserializes the functions a command used at build
 * time instead of parsing and compiling them again.
 *
 * The rewritten chunks keep the ES chunks' module graph (the same chunks, each loaded once),
 * so the MCP SDK, the web stack, Ink and the rest stay in chunks of their own, loaded on
 * first use. `manifest.json` records each chunk's static imports of other chunks, the
 * ES-module-only packages it imports (imported first, since a CommonJS function cannot),
 * the Node and V8 it was cached with, and a checksum of each cache file (checksumOf), so a cache from
 * another Node or a damaged one is never handed to V8.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';
import { openingLines } from './mcp-opening.mjs';

/** The banner bundle.mjs puts on every ES chunk; the CommonJS function gets `require` as a parameter. */
export const ESM_BANNER =
  "import { createRequire as __toolhostCreateRequire } from 'node:module'; const require = __toolhostCreateRequire(import.meta.url);";

/**
 * The parameters of every rewritten chunk, kept on its first line so line numbers in stack
 * traces stay those of the ES chunk. The loader passes them in this order.
 */
const WRAPPER_START =
  '(function (exports, require, module, __toolhostImportMeta, __toolhostImportChunk, __toolhostImport, __toolhostBuiltin) {';

/**
 * Node's modules that every start has loaded before the bundle runs (or that the launcher
 * loads itself): requiring them costs nothing, so they are required as the chunk loads.
 * Every other Node module a chunk imports (child_process, crypto, fs/promises, os,
 * stream...) is required on first use: loading one costs 1-5 ms at each start, and a command
 * such as `toolhost tools` runs none of the code that needs them.
 */
const LOADED_AT_START = new Set(['fs', 'path', 'module', 'url', 'buffer', 'events', 'util', 'vm']);

/**
 * A top-level `var x = require("node:name")` (or `__toESM(require(...))`, the form of a
 * default import) as esbuild writes it for a chunk's static import of a Node module.
 */
const BUILTIN_REQUIRE = /^var ([\w$]+) = (__toESM\()?require\("node:([\w/]+)"\)(?:, 1)?(\))?;$/gm;

/**
 * Makes a chunk's imports of Node modules not loaded at start lazy: the variable holds what
 * the launcher's `__toolhostBuiltin` returns, an object that requires the module on the
 * first look at any of its properties (`x.spawn`, or `x.default` for a default import).
 */
export function lazyBuiltinImports(code) {
  return code.replace(BUILTIN_REQUIRE, (statement, name, toEsm, builtin, close) => {
    if (LOADED_AT_START.has(builtin) || Boolean(toEsm) !== Boolean(close)) return statement;
    return `var ${name} = __toolhostBuiltin("node:${builtin}", ${toEsm ? 'true' : 'false'});`;
  });
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether a package resolves, for `require`, to a CommonJS file; ESM-only ones do not. */
function requirable(fromDir, specifier) {
  const require = createRequire(path.join(fromDir, 'index.js'));
  let file;
  try {
    file = require.resolve(specifier);
  } catch {
    return false;
  }
  if (file.endsWith('.mjs')) return false;
  if (file.endsWith('.cjs')) return true;
  // A .js file is CommonJS unless its nearest package.json says "type": "module".
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    try {
      return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).type !== 'module';
    } catch {}
  }
  return true;
}

/**
 * Writes `<chunk>.cjs` for every ES chunk in `outDir` and returns the manifest's chunk
 * table: for each chunk (by its .js name) the chunks it imports statically and the
 * ES-module-only packages it imports statically.
 */
export async function writeCommonJsChunks(outDir, metafile) {
  const prefix = `${path.basename(outDir)}/`;
  const outputs = Object.entries(metafile.outputs).filter(([file]) => file.endsWith('.js'));
  const names = new Set(
    outputs.map(([file]) => file.slice(file.lastIndexOf(prefix) + prefix.length)),
  );
  const chunkImport = new RegExp(
    `\\bimport\\("\\./(${[...names].map(escapeRegExp).join('|')})"\\)`,
    'g',
  );
  const chunks = {};
  for (const [file, output] of outputs) {
    const name = file.slice(file.lastIndexOf(prefix) + prefix.length);
    let source = readFileSync(path.join(outDir, name), 'utf8').replace(/^#!.*\n/, '');
    if (!source.startsWith(ESM_BANNER))
      throw new Error(`${name} does not start with the bundle's banner`);
    source = source.slice(ESM_BANNER.length);
    if (source.includes('import.meta.resolve'))
      throw new Error(`${name} uses import.meta.resolve, which the CommonJS chunks do not offer`);
    // Another chunk imported on demand goes through the loader, which keeps one instance.
    source = source.replace(chunkImport, (_, chunk) => `__toolhostImportChunk("./${chunk}")`);
    // A package or Node module imported on demand is imported by the loader: `import()` in a
    // vm.Script would need Node's experimental loader hook (and print a warning).
    const dynamicPackages = output.imports
      .filter((entry) => entry.kind === 'dynamic-import' && entry.external)
      .map((entry) => entry.path);
    if (dynamicPackages.length > 0) {
      const packageImport = new RegExp(
        `\\bimport\\("(${[...new Set(dynamicPackages)].map(escapeRegExp).join('|')})"\\)`,
        'g',
      );
      source = source.replace(packageImport, (_, specifier) => `__toolhostImport("${specifier}")`);
    }
    const { code } = await transform(source, {
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      charset: 'ascii',
      // The ES chunk's own import.meta (url, dirname, filename), as the loader builds it.
      define: { 'import.meta': '__toolhostImportMeta' },
      logLevel: 'error',
    });
    writeFileSync(
      path.join(outDir, name.replace(/\.js$/, '.cjs')),
      `${WRAPPER_START}${lazyBuiltinImports(code)}\n})`,
    );
    const statics = output.imports.filter((entry) => entry.kind === 'import-statement');
    chunks[name] = {
      imports: statics
        .filter((entry) => !entry.external)
        .map((entry) => entry.path.slice(entry.path.lastIndexOf(prefix) + prefix.length)),
      esmPackages: [
        ...new Set(
          statics
            .filter((entry) => entry.external && !isBuiltin(entry.path))
            .map((entry) => entry.path)
            .filter((specifier) => !requirable(outDir, specifier)),
        ),
      ],
    };
  }
  return chunks;
}

/** The same checksum the launcher computes before it hands a cache file to V8. */
const { checksumOf } = createRequire(import.meta.url)('../bin/start-bundle.cjs');

/**
 * Starts scripts/scripted-model.mjs and resolves to its base URL and a function that stops
 * it, or to undefined (with a warning) when it cannot listen: `-p` then starts uncached.
 */
function startScriptedModel() {
  const server = spawn(
    process.execPath,
    [fileURLToPath(new URL('./scripted-model.mjs', import.meta.url))],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const stop = () => {
    server.stdin.end();
    server.kill();
  };
  return new Promise((resolve) => {
    let out = '';
    let settled = false;
    const done = (port) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (port) return resolve({ baseUrl: `http://127.0.0.1:${port}/v1`, stop });
      stop();
      console.warn('warning: the stand-in model did not start; toolhost -p will start uncached');
      resolve(undefined);
    };
    const timer = setTimeout(() => done(undefined), 10_000);
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const port = /^(\d+)\n/.exec(out)?.[1];
      if (port) done(port);
    });
    server.on('error', () => done(undefined));
    server.on('exit', () => done(undefined));
  });
}

/**
 * Runs the commands most starts are made of through the cached start, each writing the code
 * it compiled into the chunks' cache files, one after another so later runs add to what
 * earlier ones cached; then records the cache files' checksums in the manifest. A headless
 * `-p` run asks a stand-in model on 127.0.0.1 (scripted-model.mjs) for its one answer.
 */
export async function writeCodeCaches(outDir, launcher) {
  const home = mkdtempSync(path.join(os.tmpdir(), 'toolhost-code-cache-'));
  const model = await startScriptedModel();
  try {
    const sample = path.join(home, 'sample.txt');
    writeFileSync(sample, 'A small file read while the code cache is made.\n');
    const env = {
      ...process.env,
      HOME: home,
      USERPROFILE: home,
      NO_COLOR: '1',
      // No settings of the machine's (MCP servers, a model) take part.
      TOOLHOST_SYSTEM_SETTINGS_PATH: path.join(home, 'no-system-settings.json'),
      TOOLHOST_WRITE_CODE_CACHE: '1',
    };
    const runs = [
      { args: ['--help'] },
      { args: ['tools', '--root', home] },
      { args: ['call', 'read_file', JSON.stringify({ absolute_path: sample }), '--root', home] },
      { args: ['call', 'list_directory', JSON.stringify({ path: home }), '--root', home] },
      { args: ['mcp', '--root', home], input: openingLines('code-cache') },
    ];
    if (model)
      runs.push({
        args: ['-p', 'Answer with the word done.'],
        env: { OPENAI_MODEL: 'scripted', OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: 'none' },
      });
    for (const { args, input, env: more } of runs) {
      const run = spawnSync(process.execPath, [launcher, ...args], {
        cwd: home,
        env: { ...env, ...more },
        input: input ?? '',
        encoding: 'utf8',
        timeout: 60_000,
      });
      // A start without a cache is slower, not wrong: the build goes on (and says so); the
      // cached-start test fails on chunks of tools and call that have none.
      if (run.status !== 0)
        console.warn(
          `warning: toolhost ${args[0]} failed while making the code cache (${run.status ?? run.signal}); its chunks may start uncached:\n${run.stderr}`,
        );
    }
  } finally {
    model?.stop();
    rmSync(home, { recursive: true, force: true });
  }
  const manifestFile = path.join(outDir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  manifest.cache = {
    node: process.version,
    v8: process.versions.v8,
    arch: process.arch,
    files: {},
  };
  for (const name of Object.keys(manifest.chunks)) {
    let data;
    try {
      data = readFileSync(path.join(outDir, name.replace(/\.js$/, '.v8cache')));
    } catch {
      continue; // no representative command loaded it: it compiles as it loads
    }
    manifest.cache.files[name] = checksumOf(data);
  }
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 1)}\n`);
  return Object.keys(manifest.cache.files).length;
}
