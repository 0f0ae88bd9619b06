/**
 * The floor that loading modules sets under a command's start: how many files a toolhost
 * command loads (recorded with the test suite's load recorder), and a chain of that many
 * empty ES modules for node to load. Running the chain costs what Node's module loader
 * alone costs for that many files, with none of toolhost's code run; the gap between
 * `node -e 0` and it is what no change short of loading fewer files (or a bundle) can win.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO } from './lib.mjs';

const PRELOAD = path.join(REPO, 'packages/cli/test/fixtures/load-recorder/preload.mjs');

/** The files (ES modules and CommonJS) a toolhost command loads, Node's built-ins left out. */
export function modulesLoadedBy(command, args, env) {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'toolhost-bench-load-'));
  const record = path.join(folder, 'record.txt');
  spawnSync(command, args, {
    env: { ...env, TOOLHOST_LOAD_RECORD: record, NODE_OPTIONS: `--import=${PRELOAD}` },
    stdio: 'ignore',
  });
  const urls = readFileSync(record, 'utf8').split('\n').filter(Boolean);
  return new Set(urls.filter((url) => url.startsWith('file:'))).size;
}

/** A folder holding `count` empty ES modules, each importing the next; returns the first. */
export function moduleChain(count) {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'toolhost-bench-chain-'));
  mkdirSync(path.join(folder, 'chain'));
  writeFileSync(path.join(folder, 'chain', 'package.json'), '{ "type": "module" }\n');
  for (let index = 0; index < count; index++) {
    const next = index + 1 < count ? `import './m${index + 1}.js';\n` : '';
    writeFileSync(
      path.join(folder, 'chain', `m${index}.js`),
      `${next}export const v = ${index};\n`,
    );
  }
  return path.join(folder, 'chain', 'm0.js');
}
