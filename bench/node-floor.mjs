/**
 * The least a fresh Node process does to answer like toolhost's grep_search or glob: it
 * starts, runs rg with the arguments toolhost gives it, and reads its output (grep) or
 * reads the listing and stats each file (glob), with nothing else loaded. Its time bounds
 * what any Node program can reach on that work, beside the native floors that pay no
 * Node start and no reading in JavaScript.
 *
 *   node node-floor.mjs grep <rg> <args...>   reads rg's output to the end
 *   node node-floor.mjs glob <rg> <args...>   stats each NUL-separated path rg lists
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';

const [mode, rg, ...args] = process.argv.slice(2);
const child = spawn(rg, args, { stdio: ['ignore', 'pipe', 'inherit'] });
let bytes = 0;
let newest = 0;
let pending = '';
if (mode === 'glob') {
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    const text = pending + chunk;
    let from = 0;
    for (let end = text.indexOf('\0'); end !== -1; end = text.indexOf('\0', from)) {
      const time = statSync(path.resolve(text.slice(from, end)), { throwIfNoEntry: false });
      newest = Math.max(newest, time?.mtimeMs ?? 0);
      from = end + 1;
    }
    pending = text.slice(from);
  });
} else {
  child.stdout.on('data', (chunk) => {
    bytes += chunk.length;
  });
}
child.on('close', (code) => {
  process.exitCode = code === 0 || code === 1 ? 0 : 2;
  if (bytes === 0 && newest === 0 && code === 0) process.exitCode = 3;
});
