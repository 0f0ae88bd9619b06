/**
 * A folder inside the workspace swapped for a symbolic link to outside, over and over, by
 * another process while write_file and read_file run: no write may land outside and no
 * read may return outside content. Proved by what is on disk and what the reads returned.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReadFileTool } from '../src/tools/read-file.js';
import { WriteFileTool } from '../src/tools/write-file.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

let ws: TempWorkspace;
let swapper: ChildProcess | undefined;

beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(async () => {
  swapper?.kill('SIGKILL');
  swapper = undefined;
  await ws.config.dispose();
  ws.cleanup();
});

/**
 * Starts a process that swaps `folder` and a link to `target` in a loop; resolves once it
 * has swapped at least once, with a function that stops it and returns how many swaps it made.
 */
async function startSwapper(folder: string, target: string): Promise<() => Promise<number>> {
  const script = `
    const fs = require('node:fs');
    const [folder, target] = process.argv.slice(1);
    const real = folder + '.real';
    let swaps = 0, stop = false;
    // Each state (link or folder) holds for a random moment under a millisecond, so calls
    // meet both states however fast or loaded the machine is.
    const cell = new Int32Array(new SharedArrayBuffer(4));
    const pause = () => Atomics.wait(cell, 0, 0, Math.random());
    process.on('SIGTERM', () => { stop = true; });
    const loop = () => {
      for (let i = 0; i < 200 && !stop; i++) {
        try {
          fs.renameSync(folder, real);
          fs.symlinkSync(target, folder);
          pause();
          fs.unlinkSync(folder);
          fs.renameSync(real, folder);
          swaps++;
          pause();
          if (swaps === 1) process.stdout.write('swapping\\n');
        } catch {}
      }
      if (stop) { process.stdout.write('swaps ' + swaps + '\\n'); process.exit(0); }
      setImmediate(loop);
    };
    loop();`;
  const child = spawn(process.execPath, ['-e', script, folder, target], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  swapper = child;
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      if (output.includes('swapping')) resolve();
    });
    child.once('exit', () => reject(new Error(`the swapper ended early: ${output}`)));
  });
  return () =>
    new Promise<number>((resolve) => {
      child.once('exit', () => resolve(Number(/swaps (\d+)/.exec(output)?.[1] ?? 0)));
      child.kill('SIGTERM');
    });
}

describe('file tools under a racing folder swap', () => {
  it('never write outside the workspace and never read outside content', async () => {
    const inside = ws.mkdir('sub');
    writeFileSync(path.join(inside, 'notes.txt'), 'inside\n');
    const outside = path.join(ws.base, 'outside');
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'notes.txt'), 'OUTSIDE-SECRET\n');
    const writer = new WriteFileTool(ws.config);
    const reader = new ReadFileTool(ws.config);
    const signal = new AbortController().signal;

    const stop = await startSwapper(inside, outside);
    let written = 0;
    let refused = 0;
    const leaks: string[] = [];
    try {
      for (let i = 0; i < 400; i++) {
        const file = path.join(inside, `w${i}.txt`);
        const write = await writer.execute({ file_path: file, content: `write ${i}\n` }, signal);
        if (write.error) refused++;
        else written++;
        const read = await reader.execute(
          { absolute_path: path.join(inside, 'notes.txt') },
          signal,
        );
        if (read.error) refused++;
        else if (String(read.llmContent).includes('OUTSIDE')) leaks.push(`read ${i}`);
      }
    } finally {
      const swaps = await stop();
      // Enough swaps that calls met both states; how many depends on the machine's speed.
      expect(swaps).toBeGreaterThan(10);
    }
    // The folder is back in place; whatever landed, landed there.
    expect(readdirSync(outside)).toEqual(['notes.txt']);
    expect(readFileSync(path.join(outside, 'notes.txt'), 'utf8')).toBe('OUTSIDE-SECRET\n');
    expect(leaks).toEqual([]);
    // Both outcomes happened: the calls really raced with the swaps.
    expect(written).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
    for (const name of readdirSync(inside).filter((n) => n.startsWith('w')))
      expect(readFileSync(path.join(inside, name), 'utf8')).toMatch(/^write \d+\n$/);
    expect(readdirSync(inside).filter((n) => n.startsWith('.toolhost-write-'))).toEqual([]);
  });
});
