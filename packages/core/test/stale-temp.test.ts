/**
 * "No temporary file stays behind": a writer killed with KILL in the middle of a write leaves
 * its temporary file, and the next write in that folder removes it. A live writer's
 * temporary file is never touched.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WriteFileTool } from '../src/tools/write-file.js';
import { TEMP_FILE_MARKER } from '../src/utils/atomic-write.js';
import { compileForChild } from './helpers/child-module.js';
import { waitUntil } from './helpers/processes.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

let ws: TempWorkspace;
const children: ChildProcess[] = [];
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  ws.cleanup();
});

const tempFiles = (dir: string) => readdirSync(dir).filter((n) => n.startsWith(TEMP_FILE_MARKER));

describe('temporary files of killed writers', () => {
  it('are removed by the next write in their folder', async () => {
    const size = 16_000_000;
    const folder = ws.mkdir('data');
    const target = path.join(folder, 'big.txt');
    writeFileSync(target, 'A'.repeat(size));
    const child = compileForChild(
      path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/utils/atomic-write.ts'),
    );
    const script = `
      import { writeFileAtomic } from ${JSON.stringify(child.file)};
      for (;;) await writeFileAtomic(${JSON.stringify(target)}, Buffer.alloc(${size}, 'B'));`;
    let stale: string[] = [];
    try {
      // Until a kill lands mid-write (the temporary file is still there after it).
      for (let attempt = 0; attempt < 20 && stale.length === 0; attempt++) {
        const writer = spawn(process.execPath, ['--input-type=module', '-e', script], {
          stdio: 'ignore',
        });
        children.push(writer);
        const exited = new Promise((resolve) => writer.on('exit', resolve));
        await waitUntil(() => tempFiles(folder).length > 0, 10_000, 2);
        writer.kill('SIGKILL');
        await exited;
        stale = tempFiles(folder);
      }
    } finally {
      child.cleanup();
    }
    expect(stale.length, 'no kill landed mid-write in 20 attempts').toBeGreaterThan(0);
    const size0 = readFileSync(target).length;
    expect(size0).toBe(size);

    // A live writer's file (its PID is running) stays.
    const live = spawn('sleep', ['60'], { stdio: 'ignore' });
    children.push(live);
    const liveTemp = `${TEMP_FILE_MARKER}other.txt.${live.pid}-0123456789ab`;
    writeFileSync(path.join(folder, liveTemp), 'in progress');

    const result = await new WriteFileTool(ws.config).execute(
      { file_path: path.join(folder, 'small.txt'), content: 'hi\n' },
      new AbortController().signal,
    );
    expect(result.error).toBeUndefined();
    expect(tempFiles(folder)).toEqual([liveTemp]);
  });
});
