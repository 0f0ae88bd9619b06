/**
 * Shared setup of the checkpoint tests: a temporary home per test (with the GIT_DIR the
 * test runner may carry put back afterwards), git run as a person would in a project, and
 * the fixtures (a large ignored-folder project, a byte-exact fingerprint of a folder).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { makeTempDirs, type TempDirs } from './temp-workspace.js';

let home = '';

/** Fresh temporary folders for each test; `use` receives them and the user's ~/.toolhost. */
export function useCheckpointDirs(use: (dirs: TempDirs, userDir: string) => void): void {
  let dirs: TempDirs | undefined;
  const savedGitDir = process.env.GIT_DIR;
  beforeEach(() => {
    dirs = makeTempDirs();
    home = dirs.home;
    use(dirs, path.join(dirs.home, '.toolhost'));
  });
  afterEach(() => {
    if (savedGitDir === undefined) delete process.env.GIT_DIR;
    else process.env.GIT_DIR = savedGitDir;
    dirs?.cleanup();
  });
}

export function write(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: home },
  });
}

/** Every entry under a folder: type, mode and content digest (or link target), by path. */
export function fingerprint(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (current: string) => {
    for (const name of readdirSync(current)) {
      const full = path.join(current, name);
      const stat = lstatSync(full);
      const key = path.relative(dir, full);
      if (stat.isSymbolicLink()) {
        found.set(key, `link ${readlinkSync(full)}`);
      } else if (stat.isDirectory()) {
        found.set(key, `dir ${stat.mode}`);
        walk(full);
      } else {
        const digest = createHash('sha256').update(readFileSync(full)).digest('hex');
        found.set(key, `file ${stat.mode} ${stat.size} ${digest} ${stat.mtimeMs}`);
      }
    }
  };
  walk(dir);
  return found;
}

/** A git project: 2000 tracked files, 1500 in node_modules, build output, a nested repository. */
export function makeLargeProject(root: string): void {
  write(path.join(root, '.gitignore'), 'node_modules/\ndist/\n*.log\n');
  write(path.join(root, '.toolhostignore'), 'secrets/\n');
  for (let i = 0; i < 2000; i++) {
    write(path.join(root, 'src', `m${i % 20}`, `file${i}.ts`), `export const n${i} = ${i};\n`);
  }
  for (let i = 0; i < 1500; i++) {
    write(
      path.join(root, 'node_modules', `pkg${i % 100}`, `index${i}.js`),
      `module.exports = ${i};\n`,
    );
  }
  for (let i = 0; i < 200; i++) write(path.join(root, 'dist', `out${i}.js`), `// built ${i}\n`);
  write(path.join(root, 'secrets', 'key.txt'), 'hidden from toolhost\n');
  write(path.join(root, 'debug.log'), 'log\n');
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'initial');
  // A hook that would leave a canary if anything ran it.
  write(path.join(root, '.git', 'hooks', 'post-commit'), `#!/bin/sh\ntouch "${root}/HOOK-RAN"\n`);
  execFileSync('chmod', ['+x', path.join(root, '.git', 'hooks', 'post-commit')]);
  const nested = path.join(root, 'vendor', 'lib');
  write(path.join(nested, 'lib.c'), 'int lib(void) { return 1; }\n');
  git(nested, 'init', '-q');
  git(nested, 'add', '-A');
  git(nested, 'commit', '-qm', 'nested');
}
