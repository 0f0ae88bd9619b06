/**
 * The file tools stay inside the workspace under links and races: a listing never goes
 * into a linked folder that leads outside, and grep_search never shows a line read from a
 * file outside, even while a folder flips between a real folder and a link to one outside
 * (the flipping is done by a separate process, as fast as it can rename). The outside
 * folder holds a secret in its file's content and in a file name; neither may appear.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GlobTool } from '../src/tools/glob.js';
import { GrepTool } from '../src/tools/grep.js';
import { LsTool } from '../src/tools/ls.js';
import { ReadManyFilesTool } from '../src/tools/read-many-files.js';
import type { ToolResult } from '../src/tools/tools.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

const SECRET = 'secret-outside-content';
const SECRET_NAME = 'secret-outside-name.txt';
let ws: TempWorkspace;
let outside: string;
beforeEach(() => {
  ws = makeWorkspace();
  outside = path.join(ws.base, 'outside');
  mkdirSync(outside);
  writeFileSync(path.join(outside, SECRET_NAME), `needle ${SECRET}\n`);
  writeFileSync(path.join(outside, 'x.txt'), `needle ${SECRET}\n`);
  ws.write('inside.txt', 'needle inside\n');
});
afterEach(async () => {
  await ws.config.dispose();
  ws.cleanup();
});

const signal = new AbortController().signal;
const text = (result: ToolResult) => `${String(result.llmContent)}\n${result.error?.message ?? ''}`;

describe('listings never go into a linked folder that leads outside', () => {
  beforeEach(() => symlinkSync(outside, ws.p('link-dir')));

  for (const engine of ['ripgrep', 'javascript'] as const) {
    for (const pattern of ['link-dir/*', 'link-dir/**', 'link-dir/*.txt', '**/*.txt']) {
      it(`glob ${JSON.stringify(pattern)} (${engine})`, async () => {
        const tool = new GlobTool(ws.config, { engine });
        const result = await tool.execute({ pattern }, signal);
        expect(text(result)).not.toContain(SECRET_NAME);
      });
    }
  }

  it('glob finds the files inside all the same', async () => {
    const result = await new GlobTool(ws.config).execute({ pattern: '**/*.txt' }, signal);
    expect(text(result)).toContain('inside.txt');
  });

  for (const paths of [['link-dir/*'], ['link-dir'], ['**/*.txt'], ['*/secret*']]) {
    it(`read_many_files ${JSON.stringify(paths)}`, async () => {
      const result = await new ReadManyFilesTool(ws.config).execute({ paths }, signal);
      expect(text(result)).not.toContain(SECRET);
      expect(text(result)).not.toContain(SECRET_NAME);
    });
  }

  it('list_directory of the link is refused, of its parent lists the link only', async () => {
    const tool = new LsTool(ws.config);
    expect(text(await tool.execute({ path: ws.p('link-dir') }))).not.toContain(SECRET_NAME);
    const parent = text(await tool.execute({ path: ws.root }));
    expect(parent).toContain('link-dir');
    expect(parent).not.toContain(SECRET_NAME);
  });

  it('grep_search does not follow the link', async () => {
    for (const engine of ['ripgrep', 'javascript'] as const) {
      const result = await new GrepTool(ws.config, { engine }).execute(
        { pattern: 'needle' },
        signal,
      );
      expect(text(result)).toContain('needle inside');
      expect(text(result)).not.toContain(SECRET);
    }
  });
});

/**
 * Starts a process that swaps `ws/flip` between a real folder (its x.txt inside) and a link
 * to the outside folder, until killed.
 */
function startFlipping(): ChildProcess {
  const real = ws.p('flip-real');
  mkdirSync(real);
  writeFileSync(path.join(real, 'x.txt'), 'needle inside the flipping folder\n');
  symlinkSync(outside, ws.p('flip-link'));
  const script = `
    const { renameSync } = require('node:fs');
    const [flip, real, link] = process.argv.slice(1);
    for (;;) {
      try { renameSync(real, flip); renameSync(flip, real); renameSync(link, flip); renameSync(flip, link); } catch {}
    }`;
  return spawn(process.execPath, ['-e', script, ws.p('flip'), real, ws.p('flip-link')], {
    stdio: 'ignore',
  });
}

describe('grep_search shows nothing from outside while a folder flips to a link', () => {
  for (const engine of ['ripgrep', 'javascript'] as const) {
    it(`${engine}: no call of many shows the outside content`, async () => {
      const flipper = startFlipping();
      try {
        const tool = new GrepTool(ws.config, { engine });
        const leaks: string[] = [];
        let insideSeen = 0;
        for (let call = 0; call < (engine === 'ripgrep' ? 150 : 300); call++) {
          const output = text(await tool.execute({ pattern: 'needle', path: ws.root }, signal));
          if (output.includes(SECRET)) leaks.push(output);
          if (output.includes('needle inside the flipping folder')) insideSeen++;
        }
        expect(leaks).toEqual([]);
        // The folder was really searched while it was a folder.
        expect(insideSeen).toBeGreaterThan(0);
      } finally {
        flipper.kill('SIGKILL');
      }
    }, 60_000);
  }

  it('list_directory and read_many_files: no call of many shows the outside folder', async () => {
    const flipper = startFlipping();
    try {
      const ls = new LsTool(ws.config);
      const many = new ReadManyFilesTool(ws.config);
      for (let call = 0; call < 300; call++) {
        expect(text(await ls.execute({ path: ws.p('flip') }))).not.toContain(SECRET_NAME);
        const read = text(await many.execute({ paths: ['flip/*'] }, signal));
        expect(read).not.toContain(SECRET);
        expect(read).not.toContain(SECRET_NAME);
      }
    } finally {
      flipper.kill('SIGKILL');
    }
  }, 60_000);

  it('glob: no call of many lists the outside file name', async () => {
    const flipper = startFlipping();
    try {
      const tool = new GlobTool(ws.config, { engine: 'javascript' });
      for (let call = 0; call < 300; call++) {
        const result = await tool.execute({ pattern: '**/*.txt' }, signal);
        expect(text(result)).not.toContain(SECRET_NAME);
      }
    } finally {
      flipper.kill('SIGKILL');
    }
  }, 60_000);
});
