/**
 * Default mode checks the files a read-only command is given, not the ones it finds while
 * walking a folder. A link planted in the workspace leads to a folder outside it; each line
 * below reads through that link in real bash (proven first in yolo mode), so in default
 * mode it must ask, and with the person declining nothing from outside may come back.
 * Lines that walk folders without following links still run without asking. The OS
 * sandbox is off: the allow-list must hold where the sandbox does not work, and the
 * sandbox hides the temporary folder that stands for the outside here.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseFolder, runThroughScheduler } from './helpers/shell-policy.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

const NAME = 'outside-canary-name';
const settings = { tools: { shell: { sandbox: 'off' as const, parseOnlyAutoApproval: true } } };
const CONTENT = 'outside-canary-content';

let ws: TempWorkspace;
let outside: string;
beforeAll(() => {
  ws = makeWorkspace();
  outside = path.join(ws.base, 'outside');
  mkdirSync(outside);
  writeFileSync(path.join(outside, NAME), `${CONTENT}\n`);
});
afterAll(() => ws.cleanup());

/**
 * `a/link` leads to the folder outside, `b/link` is a folder with a different file of the
 * same name; `c/file` leads to the file outside, `d/file` is a file inside.
 */
function linkedFolders(dir: string) {
  mkdirSync(path.join(dir, 'a'));
  symlinkSync(outside, path.join(dir, 'a/link'));
  mkdirSync(path.join(dir, 'b/link'), { recursive: true });
  writeFileSync(path.join(dir, 'b/link', NAME), 'inside\n');
  mkdirSync(path.join(dir, 'c'));
  symlinkSync(path.join(outside, NAME), path.join(dir, 'c/file'));
  mkdirSync(path.join(dir, 'd'));
  writeFileSync(path.join(dir, 'd/file'), 'inside\n');
  writeFileSync(path.join(dir, 'list'), `${path.join(outside, NAME)}\0`);
}

describe('read-only lines that follow links out of the workspace ask', () => {
  for (const [attempt, canary] of [
    ['grep -R canary .', CONTENT],
    ['grep --dereference-recursive canary a', CONTENT],
    ['diff -r a b', CONTENT],
    ['diff --recursive a b', CONTENT],
    ['diff -r c d', CONTENT],
    ['ls -RL a', NAME],
    ['ls -R --dereference a', NAME],
    ['du -aL a', NAME],
    ['du -a --dereference a', NAME],
    ['find -L a', NAME],
    ['find a -follow', NAME],
    // The count of bytes read and the name wc was given from the list.
    ['wc -c --files0-from=list', `${CONTENT.length + 1} /`],
  ] as const) {
    it(JSON.stringify(attempt), async () => {
      const open = caseFolder(ws, linkedFolders);
      const yolo = await runThroughScheduler(ws, attempt, {
        mode: 'yolo',
        directory: open,
        settings,
      });
      expect(yolo.message, 'in yolo mode the line reads outside').toContain(canary);
      const dir = caseFolder(ws, linkedFolders);
      const run = await runThroughScheduler(ws, attempt, {
        mode: 'default',
        directory: dir,
        settings,
      });
      expect(run.asked).toHaveLength(1);
      expect(run.message).not.toContain(canary);
    });
  }
});

describe('read-only lines that do not follow links still run', () => {
  for (const [attempt, marker] of [
    ['grep -r inside .', 'b/link/'],
    ['ls -R a', 'link'],
    ['du -a a', 'a/link'],
    ['find -P a', 'a/link'],
    // Compares the links as links: neither the folder nor the file outside is read.
    ['diff -r --no-dereference a b', 'File a/link is a symbolic link'],
    ['diff -r --no-dereference c d', 'File c/file is a symbolic link'],
  ] as const) {
    it(JSON.stringify(attempt), async () => {
      const dir = caseFolder(ws, linkedFolders);
      const run = await runThroughScheduler(ws, attempt, {
        mode: 'default',
        directory: dir,
        settings,
      });
      expect(run.asked).toEqual([]);
      expect(run.message).toContain(marker);
      expect(run.message).not.toContain(CONTENT);
    });
  }
});
