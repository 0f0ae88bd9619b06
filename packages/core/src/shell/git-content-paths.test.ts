import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitContentProblem } from './git-content-paths.js';
import type { ShellWord } from './shell-words.js';

let root: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'git-content-')));
  mkdirSync(path.join(root, 'secrets'));
  mkdirSync(path.join(root, 'src'));
  writeFileSync(path.join(root, 'secrets/x.txt'), 'x');
  writeFileSync(path.join(root, 'src/a.ts'), 'a');
  const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  execFileSync('git', ['init', '-q'], { cwd: root, env });
  execFileSync('git', ['add', '.'], { cwd: root, env });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const rules = {
  readDenied: (file: string) => {
    const secret = path.join(root, 'secrets');
    return file === secret || file.startsWith(`${secret}/`) ? 'Read(./secrets/**)' : undefined;
  },
};

/** The words of a git command line (after `git`), each literal unless it holds a `$`. */
const words = (line: string): ShellWord[] =>
  line
    .split(' ')
    .filter((word) => word !== '')
    .map((value) => ({ value, literal: !value.includes('$') }));

const judge = (line: string, cwd = root) => gitContentProblem(words(line), cwd, rules);

describe('gitContentProblem', () => {
  const CASES: [line: string, verdict: 'denied' | 'asks' | 'runs', cwd?: string][] = [
    ['show HEAD:secrets/x.txt', 'denied'],
    ['show :secrets/x.txt', 'denied'],
    ['show :2:secrets/x.txt', 'denied'],
    ['show HEAD:./x.txt', 'denied', 'secrets'],
    ['show HEAD:x.txt', 'runs', 'secrets'], // from the top: ./x.txt there is not covered
    ['show HEAD:src/a.ts', 'runs'],
    ['show HEAD -- secrets', 'denied'],
    ['show HEAD -- src', 'runs'],
    ['show HEAD -- :(top)secrets', 'denied', 'src'],
    ['show HEAD -- :/secrets', 'denied', 'src'],
    ['show HEAD -- :(literal)secrets', 'denied'],
    ['show HEAD -- :(glob)secrets/*', 'asks'],
    ['show HEAD -- :(icase)SECRETS', 'asks'],
    ['show HEAD -- :(attr:x)src', 'asks'],
    ['show HEAD -- src :!secrets', 'runs'],
    ['show HEAD -- src :(exclude)secrets', 'runs'],
    ['show HEAD -- secr*', 'asks'],
    ['show HEAD', 'asks'],
    ['show', 'asks'],
    ['show $rev', 'asks'],
    ['log --oneline', 'runs'],
    ['log --oneline -- secrets', 'runs'],
    ['log -p', 'asks'],
    ['log -p -- src', 'runs'],
    ['log -p secrets', 'denied'], // an existing name before -- is a path
    ['log -L1,2:secrets/x.txt', 'denied'],
    ['blame secrets/x.txt', 'denied'],
    ['blame src/a.ts', 'runs'],
    ['grep secrets', 'asks'], // the pattern names no file; every file is searched
    ['grep x -- src', 'runs'],
    ['grep x src', 'runs'],
    ['grep x secrets', 'denied'],
    ['grep -e secrets src', 'runs'],
    ['grep -e x secrets', 'denied'],
    ['grep --no-index x -- src', 'asks'],
    ['cat-file -p HEAD:secrets/x.txt', 'denied'],
    ['cat-file --batch', 'asks'],
    ['archive HEAD src', 'runs'],
    ['archive HEAD', 'asks'],
    ['-C secrets log -p -- x.txt', 'denied'],
    ['--icase-pathspecs log -p -- SRC', 'asks'],
    ['status', 'runs'],
    ['push', 'runs'],
  ];
  for (const [line, verdict, cwd] of CASES)
    it(`git ${line}${cwd ? ` (in ${cwd})` : ''}: ${verdict}`, () => {
      const problem = judge(line, cwd ? path.join(root, cwd) : root);
      if (verdict === 'runs') expect(problem).toBeNull();
      else expect(problem).toMatchObject({ denied: verdict === 'denied' });
    });

  it('runs everything outside a repository', () => {
    expect(judge('show HEAD', os.tmpdir())).toBeNull();
  });
});
