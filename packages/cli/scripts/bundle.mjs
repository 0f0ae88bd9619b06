/**
 * Bundles the compiled command (dist/index.js and everything it imports from
 * @toolhost/core and npm packages) into bundle/, so a start reads a few files instead of
 * hundreds. Run by `npm run build` after tsc, so it always bundles what src holds; nothing
 * in src needs to know about it.
 *
 * - Dynamic `import()`s become separate chunks, loaded only by the commands that use them.
 * - `import { X } from '@toolhost/core'` is pointed at the module that defines X. Through
 *   the package's index every command would reach every module of the core (esbuild
 *   assigns files to chunks by what they import, not by what they use), so `toolhost tools`
 *   would load the MCP server and anything else the index names.
 * - Our own modules keep seeing their own location: `import.meta.url` in a compiled file
 *   becomes that file's URL, so paths resolved from it (package.json, schemas) still work.
 * - A package that reads its own files at run time (`__dirname`, `import.meta.url`,
 *   `require.resolve`, `.wasm`, native addons) cannot be moved into a bundle; it is found by
 *   a first pass and kept external, loaded from node_modules as before.
 * - Optional packages that are never installed stay external: Ink imports
 *   `react-devtools-core` only when DEV=true (a developer's own debugging session).
 * - Ink reads its own package.json, so it stays external; React goes with it (one copy).
 * - bundle/meta.json records which inputs went into which chunk (the startup test reads it).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { ESM_BANNER, writeCodeCaches, writeCommonJsChunks } from './code-cache.mjs';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPO = path.resolve(CLI, '../..');
const OUT = path.join(CLI, 'bundle');
const ENTRY = path.join(CLI, 'dist', 'index.js');

/** Signs that a module locates files relative to itself at run time. */
/** Imported only by code paths a person never takes; not installed, so not bundled. */
const NEVER_INSTALLED = ['react-devtools-core'];

/**
 * Packages that must be one shared copy with a package kept external: React's hooks work
 * only when Ink and our components use the same React.
 */
const FOLLOWS_EXTERNAL = { ink: ['react', 'react-reconciler', 'scheduler'] };

const READS_OWN_FILES =
  /\b__dirname\b|\b__filename\b|import\.meta\.(url|dirname|filename)|require\.resolve\b|\.wasm\b|\.node['"]/;

/**
 * The source without its comment lines: commander's documentation mentions `__dirname`,
 * which alone kept it out of the bundle. Only whole lines go (a `/*` inside a string, such
 * as a glob, must not hide the code after it).
 */
const withoutCommentLines = (source) =>
  source
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .join('\n');

const CORE_INDEX = path.join(REPO, 'packages', 'core', 'dist', 'index.js');

/** For each name the core's index exports, the compiled module that defines it. */
async function coreExportSources() {
  const sources = new Map();
  const index = readFileSync(CORE_INDEX, 'utf8');
  const coreDir = path.dirname(CORE_INDEX);
  for (const [, names, from] of index.matchAll(/export\s*\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
    for (const spec of names
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean)) {
      const [imported, exported = imported] = spec.split(/\s+as\s+/);
      sources.set(exported, { file: path.resolve(coreDir, from), imported });
    }
  }
  for (const [, from] of index.matchAll(/export\s*\*\s*from\s*'([^']+)'/g)) {
    const file = path.resolve(coreDir, from);
    for (const name of Object.keys(await import(pathToFileURL(file).href))) {
      if (!sources.has(name)) sources.set(name, { file, imported: name });
    }
  }
  return sources;
}

/** Rewrites the command's named imports from the core's index into imports of their modules. */
function directCoreImports(sources) {
  return (source) =>
    source.replace(/import\s*\{([^}]*)\}\s*from\s*'@toolhost\/core';/g, (statement, names) => {
      const lines = [];
      for (const spec of names
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean)) {
        const [name, local = name] = spec.split(/\s+as\s+/);
        const found = sources.get(name);
        if (!found) return statement; // unknown to the map: leave the statement whole
        lines.push(`import { ${found.imported} as ${local} } from ${JSON.stringify(found.file)};`);
      }
      return lines.join(' ');
    });
}

const isOwnModule = (file) => !file.split(path.sep).includes('node_modules');

/** The package a node_modules path belongs to, e.g. "@scope/name". */
function packageOf(file) {
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf('node_modules');
  if (at === -1) return undefined;
  const first = parts[at + 1];
  return first?.startsWith('@') ? `${first}/${parts[at + 2]}` : first;
}

/**
 * Our own compiled modules, as the bundle needs them: `import.meta.url` is the module's
 * original URL, and imports from the core's index go to the defining modules.
 */
function ownModules(rewriteCoreImports) {
  return {
    name: 'own-modules',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /\.js$/ }, (args) => {
        if (!isOwnModule(args.path)) return undefined;
        let source = readFileSync(args.path, 'utf8');
        const relative = path.relative(OUT, args.path).split(path.sep).join('/');
        source = source.replaceAll(
          'import.meta.url',
          `new URL(${JSON.stringify(relative)}, import.meta.url).href`,
        );
        if (args.path.startsWith(path.join(CLI, 'dist'))) source = rewriteCoreImports(source);
        return { contents: source, loader: 'js', resolveDir: path.dirname(args.path) };
      });
    },
  };
}

const rewriteCoreImports = directCoreImports(await coreExportSources());

function options(external) {
  return {
    entryPoints: { index: ENTRY },
    outdir: OUT,
    // The metafile's paths are relative to this folder, wherever the build is started from.
    absWorkingDir: REPO,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Our workspace packages resolve through their symlinks to their compiled dist/.
    preserveSymlinks: false,
    mainFields: ['module', 'main'],
    external,
    plugins: [ownModules(rewriteCoreImports)],
    metafile: true,
    logLevel: 'warning',
    logOverride: { 'empty-import-meta': 'silent' },
    // Bundled CommonJS modules call require() for Node's own modules.
    banner: { js: ESM_BANNER },
    // Chunks sit beside index.js: the rewritten import.meta.url above is relative to OUT,
    // so a chunk one folder deeper would resolve every own-file path one level wrong.
    chunkNames: '[name]-[hash]',
  };
}

/** Packages that must stay in node_modules: they read their own files at run time. */
async function packagesReadingOwnFiles() {
  const probe = await build({ ...options(NEVER_INSTALLED), write: false, logLevel: 'silent' });
  const found = new Set();
  for (const input of Object.keys(probe.metafile.inputs)) {
    const file = path.resolve(REPO, input);
    const name = packageOf(file);
    if (!name || found.has(name) || !existsSync(file)) continue;
    if (READS_OWN_FILES.test(withoutCommentLines(readFileSync(file, 'utf8')))) found.add(name);
  }
  for (const name of [...found])
    for (const shared of FOLLOWS_EXTERNAL[name] ?? []) found.add(shared);
  return [...found].sort();
}

const external = await packagesReadingOwnFiles();
rmSync(OUT, { recursive: true, force: true });
const result = await build(
  options([...NEVER_INSTALLED, ...external.flatMap((name) => [name, `${name}/*`])]),
);
writeFileSync(
  path.join(OUT, 'meta.json'),
  JSON.stringify({ external, metafile: result.metafile }, null, 1),
);
writeFileSync(path.join(OUT, 'package.json'), '{ "type": "module" }\n');
// The same chunks as CommonJS functions for the cached start, then their code caches, made
// by running the launcher (which picks them up once manifest.json exists).
const chunks = await writeCommonJsChunks(OUT, result.metafile);
writeFileSync(path.join(OUT, 'manifest.json'), `${JSON.stringify({ chunks }, null, 1)}\n`);
const cached = await writeCodeCaches(OUT, path.join(CLI, 'bin', 'toolhost.js'));
console.log(
  `bundled ${path.relative(REPO, ENTRY)} into ${path.relative(REPO, OUT)} (${Object.keys(result.metafile.outputs).length} files, ${cached} with a code cache; kept in node_modules: ${external.join(', ') || 'none'})`,
);
