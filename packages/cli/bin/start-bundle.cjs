/**
 * Runs the bundle's CommonJS chunks (bundle/<chunk>.cjs, written by scripts/code-cache.mjs)
 * with V8's code cache: each chunk is compiled by `vm.Script` from its cache file when the
 * build made one with this very Node and V8 and the file is intact, and from source otherwise
 * (V8 also refuses a cache that does not fit, and then compiles as usual). One instance of
 * each chunk, as in the ES module graph: a chunk imported on demand goes through
 * `importChunk`, which first imports the ES-module-only packages its chunks need.
 *
 * Nothing here writes into the installed folder, except when the build asks for it
 * (TOOLHOST_WRITE_CODE_CACHE=1, set by scripts/code-cache.mjs only), and then atomically.
 */
'use strict';
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const vm = require('node:vm');

/**
 * Node modules that bundled CommonJS packages may `require` at load (commander requires
 * child_process for subcommands it never runs here) and that a start has not loaded: they
 * get a stand-in that requires them on first use. Only modules whose exports are a plain
 * object: a stand-in cannot be called or extended, as `require('stream')` or
 * `require('events')` are.
 */
const LAZY_REQUIRES = new Set([
  'child_process',
  'crypto',
  'dgram',
  'dns',
  'fs/promises',
  'http',
  'http2',
  'https',
  'net',
  'os',
  'perf_hooks',
  'readline',
  'stream/promises',
  'string_decoder',
  'tls',
  'tty',
  'worker_threads',
  'zlib',
]);

/**
 * The manifest of the CommonJS chunks in `dir`, or undefined when there is none (an older
 * build) or it cannot be read: the caller then runs the ES bundle.
 */
function readManifest(dir) {
  try {
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    return manifest && typeof manifest.chunks === 'object' ? manifest : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The checksum the manifest records for a cache file: CRC-32 where Node has it (20.15 and
 * later), which loads less at start than a cryptographic hash and catches damage as well;
 * SHA-1 otherwise. The build and the start run the same Node (cacheFits), so they agree.
 */
function checksumOf(data) {
  const { crc32 } = require('node:zlib');
  if (typeof crc32 === 'function') return `crc32:${crc32(data).toString(16).padStart(8, '0')}`;
  return `sha1:${require('node:crypto').createHash('sha1').update(data).digest('hex')}`;
}

/** Whether the cache files were made by this Node and V8 (V8 would refuse them otherwise). */
function cacheFits(cache) {
  return (
    cache !== undefined &&
    cache.node === process.version &&
    cache.v8 === process.versions.v8 &&
    cache.arch === process.arch
  );
}

/** Starts the bundle in `dir` from its entry chunk `index.js`. */
function startBundle(dir, manifest) {
  const writeCache = process.env.TOOLHOST_WRITE_CODE_CACHE === '1';
  const cache = cacheFits(manifest.cache) ? manifest.cache : undefined;
  const nodeRequire = Module.createRequire(path.join(dir, 'index.js'));
  /** ES-module-only packages, imported before a chunk that needs them runs. */
  const esmPackages = new Map();
  /** Each chunk's module record, by its name (the ES chunk's file name). */
  const modules = new Map();
  const scripts = new Map();
  /** What became of each chunk's cache, for TOOLHOST_CODE_CACHE_REPORT=1 (tests, diagnosis). */
  const report = {};

  function cachedData(name) {
    const file = path.join(dir, name.replace(/\.js$/, '.v8cache'));
    const expected = cache?.files?.[name];
    if (expected === undefined && !writeCache) return undefined;
    let data;
    try {
      data = readFileSync(file);
    } catch {
      report[name] = 'missing';
      return undefined;
    }
    // A damaged cache file is never handed to V8: it checks versions and lengths, not every byte.
    if (expected !== undefined) {
      if (checksumOf(data) !== expected) {
        report[name] = 'damaged';
        return undefined;
      }
    }
    return data;
  }

  /** Lazy stand-ins for Node modules that bundled CommonJS packages require, by name. */
  const lazyRequired = new Map();

  function chunkRequire(specifier) {
    if (specifier.startsWith('./')) return requireChunk(specifier.slice(2));
    const imported = esmPackages.get(specifier);
    if (imported !== undefined) return imported;
    const builtin = specifier.replace(/^node:/, '');
    if (!LAZY_REQUIRES.has(builtin)) return nodeRequire(specifier);
    let lazy = lazyRequired.get(builtin);
    if (lazy === undefined) {
      lazy = lazyBuiltin(`node:${builtin}`, false);
      lazyRequired.set(builtin, lazy);
    }
    return lazy;
  }
  chunkRequire.resolve = nodeRequire.resolve;
  chunkRequire.cache = nodeRequire.cache;

  function requireChunk(name) {
    const known = modules.get(name);
    if (known !== undefined) return known.exports;
    if (manifest.chunks[name] === undefined) throw new Error(`toolhost: no chunk ${name}`);
    const module = { exports: {} };
    modules.set(name, module);
    const file = path.join(dir, name.replace(/\.js$/, '.cjs'));
    const data = cache !== undefined || writeCache ? cachedData(name) : undefined;
    const script = new vm.Script(readFileSync(file, 'utf8'), {
      filename: file,
      cachedData: data,
      importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    if (data !== undefined) report[name] = script.cachedDataRejected ? 'rejected' : 'used';
    else report[name] ??= 'none';
    scripts.set(name, script);
    // What `import.meta` is in the ES chunk of the same name.
    const chunkFile = path.join(dir, name);
    const importMeta = { url: pathToFileURL(chunkFile).href, dirname: dir, filename: chunkFile };
    script.runInThisContext()(
      module.exports,
      chunkRequire,
      module,
      importMeta,
      importChunk,
      importPackage,
      lazyBuiltin,
    );
    return module.exports;
  }

  /** The ES-module-only packages of a chunk and of every chunk it imports statically. */
  function esmPackagesOf(name, seen = new Set()) {
    if (seen.has(name) || modules.has(name)) return [];
    seen.add(name);
    const chunk = manifest.chunks[name];
    if (chunk === undefined) return [];
    return [
      ...chunk.esmPackages,
      ...chunk.imports.flatMap((imported) => esmPackagesOf(imported, seen)),
    ];
  }

  /**
   * A Node module a chunk imports statically but that a start has not loaded yet (see
   * lazyBuiltinImports in scripts/code-cache.mjs): required on the first look at one of its
   * properties. `withDefault`: a default import, whose `default` is the module itself.
   */
  function lazyBuiltin(specifier, withDefault) {
    let loaded;
    const load = () => {
      loaded ??= nodeRequire(specifier);
      return loaded;
    };
    const isDefault = (key) => withDefault && key === 'default';
    return new Proxy(Object.create(null), {
      get: (_, key) => (isDefault(key) ? load() : load()[key]),
      has: (_, key) => isDefault(key) || key in load(),
      ownKeys: () => [...Reflect.ownKeys(load()), ...(withDefault ? ['default'] : [])],
      getOwnPropertyDescriptor: (_, key) => {
        const value = isDefault(key) ? load() : undefined;
        const own = value === undefined ? Reflect.getOwnPropertyDescriptor(load(), key) : undefined;
        if (value === undefined && own === undefined) return undefined;
        return {
          value: value ?? load()[key],
          writable: false,
          enumerable: true,
          configurable: true,
        };
      },
    });
  }

  /** A package or Node module a chunk imports on demand (from bin/, which finds the same node_modules as bundle/). */
  const importPackage = (specifier) => import(specifier);

  async function importChunk(specifier) {
    const name = specifier.replace(/^\.\//, '');
    for (const packageName of esmPackagesOf(name)) {
      if (esmPackages.has(packageName)) continue;
      const namespace = await importPackage(packageName);
      // Marked as an ES module, so the chunk's `import x from` reads its `default`.
      esmPackages.set(packageName, { __proto__: null, __esModule: true, ...namespace });
    }
    return requireChunk(name);
  }

  if (process.env.TOOLHOST_CODE_CACHE_REPORT === '1') {
    process.on('exit', () =>
      process.stderr.write(`toolhost code cache: ${JSON.stringify(report)}\n`),
    );
  }
  if (writeCache) {
    process.on('exit', () => {
      for (const [name, script] of scripts) {
        const file = path.join(dir, name.replace(/\.js$/, '.v8cache'));
        const temporary = `${file}.${process.pid}.tmp`;
        writeFileSync(temporary, script.createCachedData());
        renameSync(temporary, file);
      }
    });
  }
  return importChunk('./index.js');
}

module.exports = { cacheFits, checksumOf, readManifest, startBundle };
