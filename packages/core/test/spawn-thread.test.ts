import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partsToText } from '../src/contract/content.js';
import { GrepTool } from '../src/tools/grep.js';
import { spawnFromThread, spawnThread, type ThreadChild } from '../src/utils/spawn-thread.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'toolhost-spawn-thread-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Everything a child reports, in the order it arrived, and its end. */
function watch(child: ThreadChild, name: string, events: string[]) {
  let out = '';
  child.on('stdout', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    events.push(`${name}: ${chunk.toString('utf8').trim()}`);
  });
  return new Promise<{ code: number | null; signal: string | null; out: string }>((resolve) =>
    child.on('close', (code: number | null, signal: string | null) => {
      events.push(`${name} closed`);
      resolve({ code, signal, out });
    }),
  );
}

describe('children started from the worker thread', () => {
  let ws: TempWorkspace;
  beforeAll(() => {
    ws = makeWorkspace();
    // Over a megabyte of matching lines: many batches, and the reader's acknowledgements.
    for (let i = 0; i < 40; i++)
      ws.write(
        `src/f${i}.txt`,
        Array.from({ length: 1000 }, (_, line) => `needle ${i}:${line} ${'x'.repeat(20)}`).join(
          '\n',
        ),
      );
  });
  afterAll(() => ws.cleanup());

  it('give grep_search the same answer, counted over the whole output, as a direct start', async () => {
    const grep = () =>
      new GrepTool(ws.config).execute({ pattern: 'needle' }, new AbortController().signal);
    const direct = partsToText((await grep()).llmContent);
    expect(direct).toContain('Found 40000 matches');
    // One place: the rest of this file also sees one child run at a time.
    spawnFromThread(1);
    expect(spawnThread()).toBeDefined();
    expect(partsToText((await grep()).llmContent)).toBe(direct);
  });

  it('run at most the limit at once; the others start in turn, and one killed while waiting never runs', async () => {
    spawnFromThread(1);
    const thread = spawnThread()!;
    const go = path.join(dir, 'go');
    const ranC = path.join(dir, 'c-ran');
    const events: string[] = [];
    const a = thread.spawn(
      'sh',
      ['-c', `echo a; while [ ! -e '${go}' ]; do sleep 0.01; done`],
      dir,
    );
    const b = thread.spawn('sh', ['-c', 'echo b'], dir);
    const c = thread.spawn('sh', ['-c', `touch '${ranC}'`], dir);
    const aStarted = new Promise<void>((resolve) => a.once('stdout', () => resolve()));
    const aDone = watch(a, 'a', events);
    const bDone = watch(b, 'b', events);
    const cDone = watch(c, 'c', events);
    c.kill();
    expect(await cDone).toMatchObject({ code: null, signal: 'SIGTERM' });
    // a is running (it printed) and waits for "go": b must not have started.
    await aStarted;
    writeFileSync(go, '');
    await Promise.all([aDone, bDone]);
    expect(events).toEqual(['c closed', 'a: a', 'a closed', 'b: b', 'b closed']);
    expect(existsSync(ranC)).toBe(false);
  });

  it('end a search cancelled while its ripgrep waits for a place, without starting it', async () => {
    spawnFromThread(1);
    const thread = spawnThread()!;
    const go = path.join(dir, 'go-search');
    const busy = thread.spawn('sh', ['-c', `while [ ! -e '${go}' ]; do sleep 0.01; done`], dir);
    const busyDone = watch(busy, 'busy', []);
    try {
      const controller = new AbortController();
      const search = new GrepTool(ws.config).execute({ pattern: 'needle' }, controller.signal);
      controller.abort();
      const result = await search;
      expect(partsToText(result.llmContent)).not.toContain('Found');
    } finally {
      writeFileSync(go, '');
      await busyDone;
    }
  });

  it('end a child when killed, and report a program that cannot start', async () => {
    spawnFromThread(1);
    const thread = spawnThread()!;
    const child = thread.spawn('sh', ['-c', 'echo $$; exec sleep 1000'], dir);
    const printed = new Promise<number>((resolve) =>
      child.once('stdout', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
    );
    const done = watch(child, 'sleep', []);
    const pid = await printed;
    child.kill();
    expect(await done).toMatchObject({ signal: 'SIGTERM' });
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);

    const missing = thread.spawn(path.join(dir, 'no-such-program'), [], dir);
    const failed = new Promise<Error>((resolve) => missing.once('error', resolve));
    expect(await failed).toMatchObject({ code: 'ENOENT' });
  });

  it('run from a helper process, started again after it was killed', async () => {
    spawnFromThread(1);
    const thread = spawnThread()!;
    const first = thread.spawn('sh', ['-c', 'echo $$; exec sleep 1000'], dir);
    const up = new Promise<number>((resolve) =>
      first.once('stdout', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
    );
    const failed = new Promise<Error>((resolve) => first.once('error', resolve));
    const sleeper = await up;
    // Started by whichever thread runs this file.
    const helper = readdirSync('/proc/self/task')
      .flatMap((task) => readFileSync(`/proc/self/task/${task}/children`, 'utf8').split(' '))
      .filter(Boolean)
      .map(Number)
      .find((pid) =>
        readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('toolhost spawn helper'),
      );
    expect(helper).toBeDefined();
    process.kill(helper!, 'SIGKILL');
    expect((await failed).message).toMatch(/spawn helper ended/);
    process.kill(sleeper, 'SIGKILL');
    const again = thread.spawn('sh', ['-c', 'echo again'], dir);
    expect(await watch(again, 'again', [])).toMatchObject({ code: 0, out: 'again\n' });
  });
});
