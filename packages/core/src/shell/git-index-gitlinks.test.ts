import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { indexGitlinks } from './git-index-gitlinks.js';

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'gitlinks-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function git(...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd: dir,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    encoding: 'utf8',
    stdio: 'pipe',
  });
}

/** A repository with files and two gitlinks (one in a folder), none named in .gitmodules. */
function repository(objectFormat = 'sha1') {
  git('init', '-q', `--object-format=${objectFormat}`);
  for (const name of ['a.txt', 'b/c.txt', 'zz.txt']) {
    execFileSync('mkdir', ['-p', path.dirname(path.join(dir, name))]);
    writeFileSync(path.join(dir, name), `${name}\n`);
  }
  git('add', '.');
  git('commit', '-qm', 'one');
  const head = git('rev-parse', 'HEAD').trim();
  git('update-index', '--add', '--cacheinfo', `160000,${head},sub`);
  git('update-index', '--add', '--cacheinfo', `160000,${head},b/nested/sub2`);
}

const index = () => path.join(dir, '.git', 'index');

describe('indexGitlinks', () => {
  it('finds the gitlinks of a version 2 index', () => {
    repository();
    expect(indexGitlinks(index())?.sort()).toEqual(['b/nested/sub2', 'sub']);
  });

  it('reads version 3 (extended flags) and version 4 (names compressed)', () => {
    repository();
    writeFileSync(path.join(dir, 'new.txt'), 'x\n');
    git('add', '-N', 'new.txt'); // intent-to-add: an extended flag, version 3
    expect(indexGitlinks(index())?.sort()).toEqual(['b/nested/sub2', 'sub']);
    git('update-index', '--index-version', '4');
    expect(indexGitlinks(index())?.sort()).toEqual(['b/nested/sub2', 'sub']);
  });

  it('reads a SHA-256 repository when told', () => {
    repository('sha256');
    expect(indexGitlinks(index(), true)?.sort()).toEqual(['b/nested/sub2', 'sub']);
  });

  it('finds none without an index, and gives up (null) on a file it cannot read', () => {
    expect(indexGitlinks(path.join(dir, 'missing'))).toEqual([]);
    writeFileSync(path.join(dir, 'index'), 'DIRC\0\0\0\x09\0\0\0\x01');
    expect(indexGitlinks(path.join(dir, 'index'))).toBeNull();
    writeFileSync(path.join(dir, 'index2'), 'not an index at all');
    expect(indexGitlinks(path.join(dir, 'index2'))).toBeNull();
    repository();
    const bytes = execFileSync('head', ['-c', '80', index()]);
    writeFileSync(path.join(dir, 'cut'), bytes);
    expect(indexGitlinks(path.join(dir, 'cut'))).toBeNull();
  });
});
