/**
 * grep_search's fallback chain as it happens on a machine without ripgrep: the command runs
 * with `@vscode/ripgrep` absent (a preload makes its files missing to the command, as on a
 * platform whose binary package is missing), and `git` on PATH is a wrapper that records
 * how it was called before running the real one. In a repository the search goes to
 * `git grep` (with -P when git has PCRE, without it otherwise), or to JavaScript when git
 * refuses the repository; elsewhere to JavaScript. With ripgrep present, ripgrep searches a
 * repository too and git is not asked anything.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { grepHits, TODO_HITS, writeSearchFixture } from '../../core/test/helpers/search-fixture.js';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { runCli } from './run-cli.js';

let dirs: TempDirs;
let gitLog: string;
let env: NodeJS.ProcessEnv;
let refusedLog: string;
/**
 * NODE_OPTIONS that make `@vscode/ripgrep` and its binary's platform package
 * (`@vscode/ripgrep-<platform>-<arch>`, missing on a platform it has no build for) absent
 * to the command: a preload makes every file check under those folders (and requiring
 * them) answer "no such file". Each refusal is logged, so a test can show that the command
 * did look for ripgrep and was refused (a preload that no longer takes effect would
 * otherwise leave ripgrep quietly in place).
 */
const hideRipgrep = (d: TempDirs) => {
  const preload = path.join(d.base, 'no-ripgrep.cjs');
  writeFileSync(
    preload,
    `const Module = require('node:module');
     const fs = require('node:fs');
     const { appendFileSync } = fs;
     const hidden = (name) => /[\\/]@vscode[\\/]ripgrep/.test(String(name));
     const refuse = (name) => {
       appendFileSync(${JSON.stringify(refusedLog)}, String(name) + '\\n');
       return Object.assign(new Error("ENOENT: no such file or directory '" + name + "'"), { code: 'ENOENT' });
     };
     const existsSync = fs.existsSync;
     fs.existsSync = (name) => (hidden(name) ? (refuse(name), false) : existsSync(name));
     for (const call of ['statSync', 'accessSync', 'realpathSync']) {
       const original = fs[call];
       fs[call] = function (name, ...rest) {
         if (hidden(name)) throw refuse(name);
         return original.call(this, name, ...rest);
       };
       Object.assign(fs[call], original);
     }
     Module.syncBuiltinESMExports();
     const resolve = Module._resolveFilename;
     Module._resolveFilename = function (request, ...rest) {
       if (request.startsWith('@vscode/ripgrep')) throw Object.assign(refuse(request), { code: 'MODULE_NOT_FOUND' });
       return resolve.call(this, request, ...rest);
     };`,
  );
  return `--require ${preload}`;
};
const ripgrepRefused = () =>
  readFileSync(refusedLog, 'utf8')
    .split('\n')
    .some((request) => /@vscode[\\/]ripgrep/.test(request));

beforeEach(() => {
  dirs = makeTempDirs();
  const bin = path.join(dirs.base, 'bin');
  mkdirSync(bin);
  gitLog = path.join(dirs.base, 'git-calls.log');
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeFileSync(
    path.join(bin, 'git'),
    // With TOOLHOST_TEST_GIT_NO_PCRE set it plays a git built without PCRE.
    `#!/bin/sh\necho "$*" >> '${gitLog}'\ncase " $* " in *" grep "*"-P "*) if [ -n "$TOOLHOST_TEST_GIT_NO_PCRE" ]; then echo "fatal: cannot use Perl-compatible regexes when not compiled with USE_LIBPCRE" >&2; exit 128; fi;; esac\nexec '${realGit}' "$@"\n`,
  );
  chmodSync(path.join(bin, 'git'), 0o755);
  writeFileSync(gitLog, '');
  refusedLog = path.join(dirs.base, 'ripgrep-refused.log');
  writeFileSync(refusedLog, '');
  env = { PATH: `${bin}:${process.env.PATH}` };
});
afterEach(() => dirs.cleanup());

const gitGrepCalls = () =>
  readFileSync(gitLog, 'utf8')
    .split('\n')
    .filter((line) => /(^|\s)grep\s/.test(line) && !line.endsWith('no-such-file'));

function search(root: string, extraEnv: NodeJS.ProcessEnv = {}) {
  const { code, stdout, stderr } = runCli(
    ['call', 'grep_search', JSON.stringify({ pattern: 'TODO' }), '--json', '--root', root],
    { cwd: root, home: dirs.home, env: { ...env, ...extraEnv } },
  );
  expect(stderr).toBe('');
  expect(code, stdout).toBe(0);
  return String(JSON.parse(stdout).llmContent);
}

describe('grep_search: which engine searches', () => {
  it('uses git grep in a repository without ripgrep', () => {
    writeSearchFixture(dirs.root);
    writeFileSync(gitLog, '');
    const output = search(dirs.root, { NODE_OPTIONS: hideRipgrep(dirs) });
    expect(grepHits(output)).toEqual(TODO_HITS);
    expect(gitGrepCalls().length).toBeGreaterThan(0);
    expect(ripgrepRefused()).toBe(true);
  });

  it('uses JavaScript outside a repository without ripgrep', () => {
    const plain = path.join(dirs.base, 'plain');
    mkdirSync(path.join(plain, 'src'), { recursive: true });
    writeFileSync(path.join(plain, 'src', 'a.ts'), '// TODO: one\nconst x = 1;\n');
    writeFileSync(path.join(plain, 'notes.md'), 'no match\nTODO two\n');
    const output = search(plain, { NODE_OPTIONS: hideRipgrep(dirs) });
    expect(grepHits(output)).toEqual(['notes.md:2', 'src/a.ts:1']);
    expect(gitGrepCalls()).toEqual([]);
    expect(ripgrepRefused()).toBe(true);
  });

  it('uses git grep without PCRE in a repository when neither ripgrep nor PCRE is there', () => {
    writeSearchFixture(dirs.root);
    writeFileSync(gitLog, '');
    const output = search(dirs.root, {
      NODE_OPTIONS: hideRipgrep(dirs),
      TOOLHOST_TEST_GIT_NO_PCRE: '1',
    });
    expect(grepHits(output)).toEqual(TODO_HITS);
    const calls = gitGrepCalls();
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(call).not.toMatch(/(^|\s)-P(\s|$)/);
    expect(ripgrepRefused()).toBe(true);
  });

  it('falls back to JavaScript when git refuses the repository, without ripgrep', () => {
    writeSearchFixture(dirs.root);
    // A .git file naming a missing repository: git stops with "not a git repository".
    rmSync(path.join(dirs.root, '.git'), { recursive: true });
    writeFileSync(path.join(dirs.root, '.git'), `gitdir: ${path.join(dirs.base, 'moved')}\n`);
    writeFileSync(gitLog, '');
    const output = search(dirs.root, { NODE_OPTIONS: hideRipgrep(dirs) });
    expect(gitGrepCalls().length).toBeGreaterThan(0);
    expect(grepHits(output)).toEqual(TODO_HITS);
    expect(ripgrepRefused()).toBe(true);
  });

  it('uses the bundled ripgrep in a repository, asking git nothing', () => {
    writeSearchFixture(dirs.root);
    writeFileSync(gitLog, '');
    expect(grepHits(search(dirs.root))).toEqual(TODO_HITS);
    expect(readFileSync(gitLog, 'utf8')).not.toMatch(/(^|\s)grep\s/);
  });
});
