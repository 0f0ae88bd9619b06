#!/usr/bin/env node
// The installed command. It lives outside dist/ so that npm can link it during `npm ci`,
// before the `prepare` script has built dist/. It is CommonJS (bin/package.json says so),
// so a start that only prints the version never loads Node's ES module loader.
//
// It runs the compiled code in dist/ as it is: every package is found by Node's own module
// resolution from the file that imports it, which is what makes the same command work in a
// clone, a project's node_modules, a global install and a pnpm store alike. Node 22.1 and
// later keep compiled modules between runs themselves (module.enableCompileCache).
'use strict';
const { existsSync, readFileSync } = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const here = path.join(__dirname, '..');
const compiled = path.join(here, 'dist', 'index.js');

async function runCommand() {
  if (!existsSync(compiled)) {
    process.stderr.write(
      'toolhost: it is not built yet; run "npm run build" in the toolhost folder.\n',
    );
    process.exit(70);
  }
  require('node:module').enableCompileCache?.();
  await import(pathToFileURL(compiled).href);
}

// The version alone is answered here, without loading the command's code; the parser
// answers the same flag the same way.
const onlyArgument = process.argv.length === 3 ? process.argv[2] : undefined;
if (onlyArgument === '--version' || onlyArgument === '-v') {
  const { version } = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8'));
  process.stdout.write(`${version}\n`);
} else {
  runCommand().catch((error) => {
    process.stderr.write(`toolhost: could not start: ${error?.message ?? error}\n`);
    process.exit(70);
  });
}
