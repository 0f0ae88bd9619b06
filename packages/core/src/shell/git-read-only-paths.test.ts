/**
 * The folders and files read-only git is pointed at: `-C` resolved as the kernel does
 * (links first, then `..`), and `git diff` given paths, which outside a repository or
 * outside the work tree compares any two files as `--no-index` does. Real git printing a
 * secret that way is in test/shell-read-only-classes.test.ts.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitProblem } from './git-read-only.js';
import type { ShellWord } from './shell-words.js';

let base: string;
let ws: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'toolhost-git-paths-')));
  ws = path.join(base, 'ws');
  mkdirSync(ws);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const words = (...values: string[]): ShellWord[] =>
  values.map((value) => ({ value, literal: true }));

/** gitProblem in `cwd`, recording where the config check was asked about. */
function judge(args: ShellWord[], cwd = ws) {
  const configDirs: string[] = [];
  const problem = gitProblem(
    args,
    cwd,
    () => null,
    (dir) => {
      configDirs.push(dir);
      return null;
    },
  );
  return { problem, configDirs };
}

/** A repository at `at`: a `.git` folder, or with `bare` the folder itself a git folder. */
function repository(at: string, bare = false) {
  const gitDir = bare ? at : path.join(at, '.git');
  mkdirSync(path.join(gitDir, 'objects'), { recursive: true });
  writeFileSync(path.join(gitDir, 'HEAD'), 'ref: refs/heads/main\n');
}

describe('git -C', () => {
  it('follows a link before `..`, as the kernel does', () => {
    mkdirSync(path.join(base, 'outside', 'sub'), { recursive: true });
    symlinkSync(path.join(base, 'outside', 'sub'), path.join(ws, 'linkdir'));
    expect(judge(words('-C', 'linkdir/..', 'status')).configDirs).toEqual([
      path.join(base, 'outside'),
    ]);
    expect(judge(words('-C', 'a/..', 'status')).configDirs).toEqual([ws]);
    expect(judge(words('-C', `${ws}/linkdir/..`, 'status')).configDirs).toEqual([
      path.join(base, 'outside'),
    ]);
  });

  it('takes a folder in a loop of links as written', () => {
    symlinkSync('loop', path.join(ws, 'loop'));
    expect(judge(words('-C', 'loop/x', 'status')).configDirs).toEqual([path.join(ws, 'loop/x')]);
  });
});

describe('git diff given paths', () => {
  const noIndex = /compares (any )?files|as --no-index does/;

  it('asks outside a repository when given two paths, not with fewer', () => {
    expect(judge(words('diff', 'a.txt', '/etc/passwd')).problem).toMatch(
      /^git diff outside a repository compares any files, as --no-index does$/,
    );
    expect(judge(words('diff', '--stat', 'a', 'b')).problem).toMatch(noIndex);
    expect(judge(words('diff', 'a.txt')).problem).toBeNull();
    expect(judge(words('diff')).problem).toBeNull();
  });

  it('asks in a repository when one of two paths lies outside its work tree', () => {
    repository(ws);
    expect(judge(words('diff', 'a.txt', path.join(base, 'secret.txt'))).problem).toBe(
      `git diff given ${path.join(base, 'secret.txt')}, outside the work tree, compares files as --no-index does`,
    );
    expect(judge(words('diff', '../secret.txt', 'a.txt')).problem).toMatch(noIndex);
    expect(judge(words('diff', '--', 'a.txt', '../x')).problem).toMatch(noIndex);
    // Revisions and paths inside: an ordinary diff.
    expect(judge(words('diff', 'HEAD', 'a.txt')).problem).toBeNull();
    expect(judge(words('diff', 'main..topic', '--', 'a.txt')).problem).toBeNull();
    expect(judge(words('diff', 'a.txt', 'sub/../b.txt')).problem).toBeNull();
    expect(judge(words('diff', 'a.txt', '../secret.txt')).configDirs).toEqual([]);
  });

  it('asks where the repository layout cannot be read', () => {
    writeFileSync(path.join(ws, '.git'), 'not a gitdir line\n');
    expect(judge(words('diff', 'a', 'b')).problem).toMatch(noIndex);
  });

  it('asks in a bare repository, which has no work tree, for any two paths', () => {
    repository(ws, true);
    expect(judge(words('diff', 'a', 'b')).problem).toMatch(noIndex);
    expect(judge(words('diff', 'HEAD')).problem).toBeNull();
  });

  it('asks when one of two paths lies outside the workspace, in a repository around it', () => {
    repository(base);
    const inside = (word: ShellWord, cwd: string) =>
      path.resolve(cwd, word.value).startsWith(`${ws}/`) ? null : `${word.value} is outside`;
    const judgeIn = (...values: string[]) => gitProblem(words(...values), ws, inside, () => null);
    expect(judgeIn('diff', 'a.txt', '../other.txt')).toBe('../other.txt is outside');
    expect(judgeIn('diff', 'HEAD', 'a.txt')).toBeNull();
    expect(judgeIn('diff', '../other.txt')).toBeNull();
  });

  it('leaves other subcommands given paths alone', () => {
    expect(judge(words('log', 'a.txt', '/etc/passwd')).problem).toBeNull();
  });
});
