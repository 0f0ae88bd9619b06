/**
 * The cached start: the installed command runs the bundle's CommonJS chunks with the V8 code
 * cache the build made (scripts/code-cache.mjs, bin/start-bundle.cjs). It must print exactly
 * what the ES bundle prints, use the cache for the commands most starts are made of, and
 * start as usual from source when a cache file is damaged, refused by V8 or from another
 * Node. Whether it is faster is measured by `npm run bench`, never here.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openingLines } from '../scripts/mcp-opening.mjs';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPO = path.resolve(CLI, '../..');

interface Manifest {
  chunks: Record<string, { imports: string[]; esmPackages: string[] }>;
  cache?: { node: string; v8: string; arch: string; files: Record<string, string> };
}

let base: string;
let home: string;
let sample: string;

beforeAll(() => {
  base = mkdtempSync(path.join(os.tmpdir(), 'toolhost-cached-start-'));
  home = path.join(base, 'home');
  mkdirSync(home);
  sample = path.join(home, 'notes.txt');
  writeFileSync(sample, 'first line\nsecond line\n');
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Each chunk's cache outcome, from TOOLHOST_CODE_CACHE_REPORT=1; undefined if not printed. */
  cache?: Record<string, string>;
}

function run(launcher: string, args: string[], input = ''): Run {
  const result = spawnSync(process.execPath, [launcher, ...args], {
    cwd: home,
    input,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: home,
      NO_COLOR: '1',
      TOOLHOST_SYSTEM_SETTINGS_PATH: path.join(home, 'no-system-settings.json'),
      TOOLHOST_CODE_CACHE_REPORT: '1',
    },
    timeout: 25_000,
  });
  const reported = /^toolhost code cache: (.*)$/m.exec(result.stderr);
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr.replace(/^toolhost code cache: .*\n/m, ''),
    cache: reported ? JSON.parse(reported[1]!) : undefined,
  };
}

const COMMANDS: [string, () => string[], string?][] = [
  [
    'mcp (initialize, tools/list)',
    () => ['mcp', '--root', home],
    openingLines('cached-start-test'),
  ],
  ['tools --json', () => ['tools', '--json', '--root', home]],
  ['call read_file', () => ['call', 'read_file', JSON.stringify({ absolute_path: sample })]],
  ['call list_directory', () => ['call', 'list_directory', JSON.stringify({ path: home })]],
  ['--help', () => ['--help']],
  ['an unknown tool', () => ['call', 'no_such_tool', '{}']],
];

/** Runs the ES bundle in `cliDir` directly, as the launcher did before the cached start. */
function esBundleLauncher(cliDir: string): string {
  const file = path.join(base, `es-start-${path.basename(path.dirname(cliDir))}.mjs`);
  const entry = pathToFileURL(path.join(cliDir, 'bundle', 'index.js')).href;
  writeFileSync(file, `await import(${JSON.stringify(entry)});\n`);
  return file;
}

describe('the cached start', () => {
  const manifest = JSON.parse(
    readFileSync(path.join(CLI, 'bundle', 'manifest.json'), 'utf8'),
  ) as Manifest;

  it('has a code cache made by this Node for the chunks of --help, tools, call and -p', () => {
    expect(manifest.cache).toMatchObject({
      node: process.version,
      v8: process.versions.v8,
      arch: process.arch,
    });
    const byPrefix = (prefix: string) => {
      const name = Object.keys(manifest.chunks).find((chunk) => chunk.startsWith(prefix));
      if (!name) throw new Error(`no chunk ${prefix}*`);
      return name;
    };
    const needed = new Set<string>();
    const pending = [
      'index.js',
      byPrefix('session-'),
      byPrefix('tools-command-'),
      byPrefix('call-command-'),
      // Cached by a headless run against the build's stand-in model (scripted-model.mjs).
      byPrefix('headless-'),
    ];
    while (pending.length > 0) {
      const name = pending.pop()!;
      if (needed.has(name)) continue;
      needed.add(name);
      pending.push(...manifest.chunks[name]!.imports);
    }
    expect([...needed].filter((name) => manifest.cache?.files[name] === undefined)).toEqual([]);
  });

  it.each(COMMANDS)(
    'prints for %s what the ES bundle prints, from the cache',
    (_label, args, input) => {
      const cached = run(path.join(CLI, 'bin', 'toolhost.js'), args(), input);
      const plain = run(esBundleLauncher(CLI), args(), input);
      expect(cached.stdout + cached.stderr).not.toBe('');
      expect(cached.stdout).toBe(plain.stdout);
      expect(cached.stderr).toBe(plain.stderr);
      expect(cached.status).toBe(plain.status);
      expect(plain.cache).toBeUndefined();
      expect(cached.cache?.['index.js']).toBe('used');
      expect(Object.values(cached.cache ?? {}).filter((outcome) => outcome !== 'used')).toEqual([]);
    },
  );

  // A call checks paths, which hashes the project's root for its folder of saved outputs.
  const NOT_USED_BY_ANY = ['child_process', 'dgram', 'readline', 'fs/promises'];
  it.each([
    ['tools --json', () => ['tools', '--json', '--root', home], [...NOT_USED_BY_ANY, 'crypto']],
    [
      'call list_directory',
      () => ['call', 'list_directory', JSON.stringify({ path: home })],
      NOT_USED_BY_ANY,
    ],
  ])('loads none of the Node modules that %s does not use', (_label, args, unused) => {
    // Node's own record of the modules it loaded, written when the command exits.
    const record = path.join(base, `modules-${args()[0]}.json`);
    const preload = path.join(base, 'record-modules.cjs');
    writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.moduleLoadList)));\n`,
    );
    const result = spawnSync(
      process.execPath,
      ['--require', preload, path.join(CLI, 'bin', 'toolhost.js'), ...args()],
      { cwd: home, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: home, NO_COLOR: '1' } },
    );
    expect(result.status).toBe(0);
    const loaded = JSON.parse(readFileSync(record, 'utf8')) as string[];
    // Commander requires child_process, the config used to hash with crypto at start, and
    // process.stdin (a socket on a pipe) was made by every start: each now waits for its use.
    expect(unused.filter((name) => loaded.includes(`NativeModule ${name}`))).toEqual([]);
  });

  describe('with a damaged, refused or foreign cache', () => {
    /** A copy of the installed package (bin, bundle, package.json) whose cache files can be spoiled. */
    function copyOfPackage(name: string): { cliDir: string; launcher: string; manifest: Manifest } {
      const root = path.join(base, name);
      const cliDir = path.join(root, 'packages', 'cli');
      mkdirSync(cliDir, { recursive: true });
      for (const part of ['bin', 'bundle', 'package.json'])
        cpSync(path.join(CLI, part), path.join(cliDir, part), { recursive: true });
      // Code that reads files of the core (its package.json, schemas) finds them as before.
      symlinkSync(path.join(REPO, 'packages', 'core'), path.join(root, 'packages', 'core'));
      symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'));
      const copied = JSON.parse(
        readFileSync(path.join(cliDir, 'bundle', 'manifest.json'), 'utf8'),
      ) as Manifest;
      return { cliDir, launcher: path.join(cliDir, 'bin', 'toolhost.js'), manifest: copied };
    }
    const saveManifest = (cliDir: string, changed: Manifest) =>
      writeFileSync(path.join(cliDir, 'bundle', 'manifest.json'), JSON.stringify(changed));
    const cacheFile = (cliDir: string, chunk: string) =>
      path.join(cliDir, 'bundle', chunk.replace(/\.js$/, '.v8cache'));
    const toolsChunk = Object.keys(manifest.chunks).find((name) =>
      name.startsWith('tools-command-'),
    )!;

    function expectSameAsReference(launcher: string): Record<string, string> | undefined {
      const reference = run(path.join(CLI, 'bin', 'toolhost.js'), [
        'tools',
        '--json',
        '--root',
        home,
      ]);
      const spoiled = run(launcher, ['tools', '--json', '--root', home]);
      expect(spoiled.stderr).toBe('');
      expect(spoiled.status).toBe(0);
      expect(spoiled.stdout).toBe(reference.stdout);
      return spoiled.cache;
    }

    it('ignores a cache file whose bytes changed', () => {
      const { cliDir, launcher } = copyOfPackage('damaged');
      for (const chunk of ['index.js', toolsChunk]) {
        const file = cacheFile(cliDir, chunk);
        const data = readFileSync(file);
        for (let at = 64; at < data.length; at += 97) data[at] = data[at]! ^ 0x5a;
        writeFileSync(file, data);
      }
      const outcome = expectSameAsReference(launcher);
      expect(outcome?.['index.js']).toBe('damaged');
      expect(outcome?.[toolsChunk]).toBe('damaged');
    });

    it('compiles from source when V8 refuses a cache made for other code', () => {
      const { cliDir, launcher, manifest: copied } = copyOfPackage('refused');
      // Another chunk's cache, intact and listed, but made for other source: V8 says no.
      cpSync(cacheFile(cliDir, 'index.js'), cacheFile(cliDir, toolsChunk));
      copied.cache!.files[toolsChunk] = copied.cache!.files['index.js']!;
      saveManifest(cliDir, copied);
      const outcome = expectSameAsReference(launcher);
      expect(outcome?.[toolsChunk]).toBe('rejected');
      expect(outcome?.['index.js']).toBe('used');
    });

    it('does not read a cache made by another Node, or a missing one', () => {
      const foreign = copyOfPackage('foreign');
      saveManifest(foreign.cliDir, {
        ...foreign.manifest,
        cache: { ...foreign.manifest.cache!, node: 'v0.0.1' },
      });
      // Node 22 and later start the ES bundle with their own compile cache instead.
      const outcome = expectSameAsReference(foreign.launcher);
      expect(Object.values(outcome ?? {}).filter((value) => value !== 'none')).toEqual([]);

      const missing = copyOfPackage('missing');
      rmSync(cacheFile(missing.cliDir, toolsChunk));
      expect(expectSameAsReference(missing.launcher)?.[toolsChunk]).toBe('missing');
    });

    it('starts the ES bundle when the build left no CommonJS chunks', () => {
      const { cliDir, launcher } = copyOfPackage('no-manifest');
      rmSync(path.join(cliDir, 'bundle', 'manifest.json'));
      expect(expectSameAsReference(launcher)).toBeUndefined();
    });
  });
});
