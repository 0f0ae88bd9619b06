/**
 * Repository config that makes read-only git run a program beyond the classic keys: what a
 * partial clone's fetch runs, `ext::` transports, bare repositories git finds on its own,
 * and the git folders of gitlinks found in the index (with or without `.gitmodules`).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitConfigProblem } from './git-read-only-config.js';

let base: string;
let ws: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'toolhost-git-programs-')));
  ws = path.join(base, 'ws');
  mkdirSync(ws);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const inWorkspace = (target: string) => target === ws || target.startsWith(`${ws}/`);

/** A repository at `at` (the workspace by default) with `config` as its config. */
function repo(config = '', at = ws): string {
  mkdirSync(path.join(at, '.git', 'objects', 'info'), { recursive: true });
  writeFileSync(path.join(at, '.git', 'config'), `[core]\n\tbare = false\n${config}`);
  return at;
}

describe('what else can make read-only git run a program', () => {
  it('asks for keys that run a program when a partial clone fetches a missing object', () => {
    for (const line of [
      '[remote "origin"]\n\tuploadpack = touch x; git-upload-pack',
      '[remote "origin"]\n\treceivepack = x',
      '[remote "origin"]\n\tpromisor = true',
      '[remote "origin"]\n\tpartialclonefilter = blob:none',
      '[extensions]\n\tpartialClone = origin',
      '[core]\n\tgitProxy = ./proxy',
      '[credential]\n\thelper = ./x',
      '[merge "x"]\n\tdriver = ./x',
      '[uploadpack]\n\tpackObjectsHook = ./x',
    ]) {
      repo(`${line}\n`);
      expect(gitConfigProblem(ws, inWorkspace), line).toMatch(/can make git run a program$/);
    }
  });

  it('asks for an ext:: transport anywhere in the config', () => {
    for (const line of [
      '[remote "origin"]\n\turl = ext::sh -c touch% x',
      '[url "ext::sh -c touch% x"]\n\tinsteadOf = origin',
    ]) {
      repo(`${line}\n`);
      expect(gitConfigProblem(ws, inWorkspace), line).toMatch(/ext:: transport/);
    }
  });

  it('asks for a bare repository git would find on its own, the folder itself included', () => {
    const evil = path.join(ws, 'evil');
    mkdirSync(path.join(evil, 'objects'), { recursive: true });
    writeFileSync(path.join(evil, 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(path.join(evil, 'config'), '[core]\n\tbare = true\n');
    for (const dir of [evil, path.join(evil, 'objects')])
      expect(gitConfigProblem(dir, inWorkspace)).toBe(
        `git would use ${evil} as a bare repository, which read-only git does not use`,
      );
    // A .git beside it wins, as in git: the folder is then a work tree.
    repo('', evil);
    expect(gitConfigProblem(evil, inWorkspace)).toBeNull();
  });

  it('takes a folder with a HEAD beside objects or a commondir for a bare repository', () => {
    const evil = path.join(ws, 'evil');
    mkdirSync(evil);
    writeFileSync(path.join(evil, 'HEAD'), 'ref: refs/heads/main\n');
    expect(gitConfigProblem(evil, inWorkspace)).toBeNull(); // a HEAD alone is no git folder
    writeFileSync(path.join(evil, 'commondir'), '.\n');
    expect(gitConfigProblem(evil, inWorkspace)).toMatch(/as a bare repository/);
    const objectsOnly = path.join(ws, 'objects-only');
    mkdirSync(path.join(objectsOnly, 'objects'), { recursive: true });
    expect(gitConfigProblem(objectsOnly, inWorkspace)).toBeNull();
  });

  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
      cwd,
      env,
      encoding: 'utf8',
    });

  /** The workspace a repository (of `format`) whose index has a gitlink to deep/sub. */
  function withGitlink(format = 'sha1'): string {
    const sub = path.join(ws, 'deep', 'sub');
    mkdirSync(sub, { recursive: true });
    git(sub, 'init', '-q', `--object-format=${format}`);
    git(sub, 'commit', '-q', '--allow-empty', '-m', 'one');
    git(ws, 'init', '-q', `--object-format=${format}`);
    const head = git(sub, 'rev-parse', 'HEAD').trim();
    git(ws, 'update-index', '--add', '--cacheinfo', `160000,${head},deep/sub`);
    return sub;
  }

  it('reads the index of a SHA-256 repository, its object format spelled any way git reads', () => {
    const sub = withGitlink('sha256');
    const textconv = path.join(sub, '.git', 'config');
    writeFileSync(textconv, '[diff "x"]\n\ttextconv = ./run.sh\n');
    const config = path.join(ws, '.git', 'config');
    for (const spelling of [
      '\tobjectformat = sha256',
      'objectFormat=sha256',
      '  objectformat =  sha256',
    ]) {
      const text = `[core]\n\trepositoryformatversion = 1\n[extensions]\n${spelling}\n[user]\n\tname = t\n`;
      writeFileSync(config, text);
      expect(gitConfigProblem(ws, inWorkspace), spelling).toContain(textconv);
    }
  });

  it('reads a SHA-1 index as such, whatever else mentions the format', () => {
    const sub = withGitlink();
    // The gitlink is found (and its config read) only when its entry is read right.
    const textconv = path.join(sub, '.git', 'config');
    writeFileSync(textconv, '[diff "x"]\n\ttextconv = ./run.sh\n');
    const config = path.join(ws, '.git', 'config');
    for (const line of ['# objectformat = sha256', '\tobjectformat = sha256x']) {
      writeFileSync(config, `[core]\n\tbare = false\n${line}\n`);
      expect(gitConfigProblem(ws, inWorkspace), line).toContain(textconv);
    }
  });

  it('passes over a gitlink whose .git names no folder', () => {
    const sub = withGitlink();
    rmSync(path.join(sub, '.git'), { recursive: true });
    writeFileSync(path.join(sub, '.git'), 'no gitdir line here\n');
    expect(gitConfigProblem(ws, inWorkspace)).toBeNull();
  });

  it('asks when the index of a gitlink inside cannot be read either', () => {
    const sub = withGitlink();
    writeFileSync(path.join(sub, '.git', 'index'), 'DIRC not an index');
    expect(gitConfigProblem(ws, inWorkspace)).toBe(
      `the git index in ${path.join(sub, '.git')} could not be read`,
    );
  });

  it("reads the config of a gitlink's own git folder, with or without .gitmodules", () => {
    const sub = withGitlink();
    expect(gitConfigProblem(ws, inWorkspace)).toBeNull();
    const config = path.join(sub, '.git', 'config');
    writeFileSync(config, '[diff "x"]\n\ttextconv = ./run.sh\n');
    expect(gitConfigProblem(ws, inWorkspace)).toBe(
      `the repository's git config (${config}) sets "textconv =", which can make git run a program`,
    );
    writeFileSync(path.join(ws, '.git', 'index'), 'DIRC not an index');
    expect(gitConfigProblem(ws, inWorkspace)).toBe(
      `the git index in ${path.join(ws, '.git')} could not be read`,
    );
  });
});
