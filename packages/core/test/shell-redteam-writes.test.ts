/**
 * Files created by programs that write the names they are given, attacked under an Edit
 * deny rule for a file that does not exist yet (which the kernel cannot bind read-only), in
 * yolo mode: the other spellings of the writers in shell-redteam-runs.test.ts, as creations.
 * No sandbox, so the analysis alone decides; the file must never appear.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ruleSession } from './helpers/rule-session.js';
import { makeTempDirs, type TempDirs } from './helpers/temp-workspace.js';

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

/** Lines that create fresh.txt, which does not exist yet (the kernel binds only what exists). */
const CREATES = [
  'ls; touch fresh.txt',
  'ls; cd sub && touch ../fresh.txt',
  'ls; cp x.txt fresh.txt',
  'ls; cp -t . sub/fresh.txt',
  'ls; cp sub/f* .',
  'ls; mv sub/fresh.txt .',
  'ls; ln -s x.txt fresh.txt',
  'ls; mkdir fresh.txt',
  'ls; echo x | tee fresh.txt',
  'ls; dd if=x.txt of=fresh.txt',
  'ls; truncate -s1 fresh.txt',
  'ls; install -D x.txt fresh.txt',
  'ls; tar -xf a.tar',
  'ls; echo fresh.txt | xargs touch',
  'ls; env touch fresh.txt',
  "ls; sh -c 'touch fresh.txt'",
];

describe('files created by programs that write their operands', () => {
  it('an Edit deny on a file that does not exist yet holds in yolo mode', async () => {
    mkdirSync(`${dirs.root}/sub`);
    writeFileSync(`${dirs.root}/x.txt`, 'x');
    writeFileSync(`${dirs.root}/sub/fresh.txt`, 'x');
    execFileSync('tar', ['-cf', `${dirs.root}/a.tar`, '-C', `${dirs.root}/sub`, 'fresh.txt']);
    const s = ruleSession(dirs, { deny: ['Edit(./fresh.txt)'] }, 'yolo', { sandbox: 'off' });
    const created: string[] = [];
    try {
      for (const line of CREATES) {
        await s.run(line);
        if (existsSync(`${dirs.root}/fresh.txt`)) {
          created.push(line);
          rmSync(`${dirs.root}/fresh.txt`, { recursive: true, force: true });
        }
        writeFileSync(`${dirs.root}/sub/fresh.txt`, 'x');
      }
      expect(created).toEqual([]);
    } finally {
      await s.dispose();
    }
  }, 120_000);
});
