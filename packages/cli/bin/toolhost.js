#!/usr/bin/env node
// The installed command. It lives outside dist/ so that npm can link it during `npm ci`,
// before the `prepare` script has built dist/. It is CommonJS (bin/package.json says so):
// a CommonJS start does not load Node's ES module loader, which the cached start below
// never needs.
//
// It runs the bundle (bundle/, built by `npm run build` after tsc) when that is at least as
// new as the compiled output, and the compiled output itself otherwise: a developer who
// ran only tsc still runs the code they just compiled. The bundle starts from its CommonJS
// chunks with V8's code cache (start-bundle.cjs) when the build made them, and from its ES
// chunks otherwise.
'use strict';
const { existsSync, readFileSync, statSync } = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const here = path.join(__dirname, '..');
const compiled = path.join(here, 'dist', 'index.js');
const bundleDir = path.join(here, 'bundle');
const bundled = path.join(bundleDir, 'index.js');

function modified(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The bundle, unless tsc has written something newer since it was built. */
function bundleIsCurrent() {
  const bundleTime = modified(bundled);
  if (bundleTime === undefined) return false;
  for (const info of ['tsconfig.tsbuildinfo', '../core/tsconfig.tsbuildinfo']) {
    const time = modified(path.join(here, info));
    if (time !== undefined && time > bundleTime) return false;
  }
  return true;
}

async function runCommand() {
  if (bundleIsCurrent()) {
    const { cacheFits, readManifest, startBundle } = require('./start-bundle.cjs');
    const manifest = readManifest(bundleDir);
    const module = require('node:module');
    // Node 22.1+ keeps compiled ES modules between runs itself: without a code cache made
    // for this Node, the ES bundle with that cache starts faster than uncached CommonJS.
    const nodeCaches = typeof module.enableCompileCache === 'function';
    if (manifest !== undefined && (cacheFits(manifest.cache) || !nodeCaches)) {
      await startBundle(bundleDir, manifest);
      return;
    }
    module.enableCompileCache?.();
    await import(pathToFileURL(bundled).href);
  } else if (existsSync(compiled)) {
    require('node:module').enableCompileCache?.();
    await import(pathToFileURL(compiled).href);
  } else {
    process.stderr.write(
      'toolhost: it is not built yet; run "npm run build" in the toolhost folder.\n',
    );
    process.exit(70);
  }
}

// The version alone is answered here, without loading the command's code (a third of the
// time `toolhost --version` took); the parser answers the same flag the same way.
const onlyArgument = process.argv.length === 3 ? process.argv[2] : undefined;
if (onlyArgument === '--version' || onlyArgument === '-v') {
  const { version } = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8'));
  process.stdout.write(`${version}\n`);
} else {
  runCommand().catch((error) => {
    process.stderr.write(`toolhost: could not start: ${error?.stack ?? error}\n`);
    process.exit(70);
  });
}
