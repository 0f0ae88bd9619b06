/**
 * GIT_READ_ONLY entry by entry, as command lines through the shell policy: for every
 * subcommand, each kind of option its entry lists (short, bundled, valued, long, long with
 * a value, the extra shapes) runs without asking, an option it does not list asks, and its
 * operands are taken or refused as the entry says. The cases are written here, not read
 * from the table, so the file loads whatever the table holds and an emptied list fails the
 * cases of that list. The repository config check is in git-read-only.test.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeReadOnly } from '../../test/helpers/read-only-judge.js';
import { makeWorkspace, type TempWorkspace } from '../../test/helpers/temp-workspace.js';
import { GIT_READ_ONLY } from './git-read-only.js';

let ws: TempWorkspace;
beforeAll(() => {
  ws = makeWorkspace();
  ws.write('a.txt', 'a\n');
  mkdirSync(ws.p('.git'));
  writeFileSync(ws.p('.git/config'), '[core]\n\tbare = false\n');
});
afterAll(() => ws.cleanup());

const judge = (command: string) => judgeReadOnly(ws, command);

const RUNS = null;
const UNLISTED = /not on toolhost's list of safe options/;

/** Per subcommand: [command line, RUNS | a pattern for the reason it asks]. */
const CASES: Record<string, [string, RegExp | null][]> = {
  status: [
    ['git status -sb', RUNS],
    ['git status -v -z', RUNS],
    ['git status --short --branch --show-stash', RUNS],
    ['git status --porcelain=v2 --untracked-files=no', RUNS],
    ['git status --ignored --column', RUNS],
    ['git status -u', RUNS],
    ['git status -uno', RUNS],
    ['git status -unormal', RUNS],
    ['git status -uall', RUNS],
    ['git status -uallx', /-u is not on/],
    ['git status -s-u', /- is not on/],
    ['git status --find-renames', UNLISTED],
    ['git status -M', UNLISTED],
  ],
  log: [
    ['git log -p --stat', RUNS],
    ['git log -pz', RUNS],
    ['git log --oneline --graph --no-decorate', RUNS],
    ['git log --format=%H --since=1.week --decorate', RUNS],
    ['git log -n 5', RUNS],
    ['git log -n5 -S needle -G regex', RUNS],
    ['git log -L 1,2:a.txt', RUNS],
    ['git log -5', RUNS],
    ['git log -M -C -B', RUNS],
    ['git log -M50% -C20 -B1', RUNS],
    ['git log -p-M', /- is not on/],
    ['git log -Mx', /-M is not on/],
    ['git log -O order.txt', /-O is not on/],
    ['git log --output=out.txt', UNLISTED],
    ['git log --ext-diff', UNLISTED],
    ['git log --textconv', UNLISTED],
    ['git log --show-signature', UNLISTED],
    ['git log -- a.txt', RUNS],
  ],
  show: [
    ['git show HEAD --stat', RUNS],
    ['git show -s --format=%s HEAD', RUNS],
    ['git show --ext-diff HEAD', UNLISTED],
  ],
  diff: [
    ['git diff --stat HEAD~1', RUNS],
    ['git diff -w --word-diff=color --cached', RUNS],
    ['git diff -M90% HEAD', RUNS],
    ['git diff --no-index a.txt /etc/passwd', UNLISTED],
    ['git diff --output=x', UNLISTED],
  ],
  shortlog: [
    ['git shortlog -sne', RUNS],
    ['git shortlog -n HEAD', RUNS],
    ['git shortlog -s -G regex --since=1.month', RUNS],
    ['git shortlog -p', RUNS],
    ['git shortlog --format=%s', RUNS],
    ['git shortlog -c', RUNS],
    ['git shortlog -x', UNLISTED],
  ],
  branch: [
    ['git branch -av', RUNS],
    ['git branch -r -l', RUNS],
    ['git branch --all --verbose --show-current', RUNS],
    ['git branch --sort=-committerdate --format="%(refname)" --merged', RUNS],
    ['git branch --list "feat*"', RUNS],
    ['git branch -l "feat*"', RUNS],
    ['git branch feature', /git branch with a name creates or changes it/],
    ['git branch -a feature', /creates or changes it/],
    ['git branch -D main', UNLISTED],
    ['git branch --delete main', UNLISTED],
    ['git branch --set-upstream-to=origin/main', UNLISTED],
  ],
  tag: [
    ['git tag', RUNS],
    ['git tag -l "v*"', RUNS],
    ['git tag --list "v*" --sort=version:refname', RUNS],
    ['git tag -n', RUNS],
    ['git tag -n5 -l', RUNS],
    ['git tag -n10', RUNS],
    ['git tag --contains=HEAD --points-at=HEAD', RUNS],
    ['git tag v1', /git tag with a name creates or changes it/],
    ['git tag -n5 v1', /creates or changes it/],
    ['git tag -n5x', /-n is not on/],
    ['git tag -a-n', /- is not on/],
    ['git tag -d v1', UNLISTED],
    ['git tag -s v1', UNLISTED],
  ],
  remote: [
    ['git remote', RUNS],
    ['git remote -v', RUNS],
    ['git remote --verbose', RUNS],
    ['git remote get-url origin', RUNS],
    ['git remote get-url --push origin', RUNS],
    ['git remote get-url --all origin', RUNS],
    ['git remote get-url', /git remote get-url is not read-only/],
    ['git remote get-url a b', /git remote get-url a b is not read-only/],
    ['git remote origin', /git remote origin is not read-only/],
    ['git remote rename a b', /git remote rename a b is not read-only/],
    ['git remote add x /y', /not read-only/],
    ['git remote show origin', /not read-only/],
    ['git remote -x', UNLISTED],
  ],
  'rev-parse': [
    ['git rev-parse --show-toplevel --git-dir', RUNS],
    ['git rev-parse -q --verify HEAD', RUNS],
    ['git rev-parse --abbrev-ref HEAD', RUNS],
    ['git rev-parse --short=8 HEAD', RUNS],
    ['git rev-parse --git-path hooks', UNLISTED],
    ['git rev-parse -x', UNLISTED],
  ],
  'ls-files': [
    ['git ls-files -mo', RUNS],
    ['git ls-files -z -s', RUNS],
    ['git ls-files -o -x "*.o"', RUNS],
    ['git ls-files --others --exclude-standard', RUNS],
    ['git ls-files --exclude="*.o" --format="%(path)"', RUNS],
    ['git ls-files --exclude-from=/etc/passwd', UNLISTED],
    ['git ls-files -X ignore.txt', UNLISTED],
  ],
  blame: [
    ['git blame -w -s a.txt', RUNS],
    ['git blame -L 1,5 a.txt', RUNS],
    ['git blame --porcelain --show-email a.txt', RUNS],
    ['git blame --date=short --ignore-rev HEAD a.txt', RUNS],
    ['git blame -M -C a.txt', RUNS],
    ['git blame -C20 -M5 a.txt', RUNS],
    ['git blame -w-M a.txt', /- is not on/],
    ['git blame -Mx a.txt', /-M is not on/],
    ['git blame -S revs.txt a.txt', /-S is not on/],
    ['git blame --contents /etc/passwd a.txt', UNLISTED],
    ['git blame --ignore-revs-file=revs.txt a.txt', UNLISTED],
  ],
  describe: [
    ['git describe --tags --always', RUNS],
    ['git describe --abbrev=12 --match "v*" --dirty', RUNS],
    ['git describe -a', UNLISTED],
    ['git describe --frobnicate', UNLISTED],
  ],
};

for (const [subcommand, cases] of Object.entries(CASES)) {
  describe(`git ${subcommand}`, () => {
    for (const [command, asks] of cases) {
      it(`${asks ? 'asks before' : 'runs'} ${command}`, async () => {
        const decision = await judge(command);
        if (asks === null) expect(decision).toEqual({ kind: 'allow', reason: 'read_only' });
        else {
          expect(decision.kind).toBe('ask');
          expect(decision.kind === 'ask' && decision.reasons.join(' | ')).toMatch(asks);
        }
      });
    }
  });
}

describe('the git table', () => {
  it('has cases each way for every subcommand it lists, and no others', () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(GIT_READ_ONLY).sort());
    for (const [subcommand, cases] of Object.entries(CASES)) {
      expect(
        cases.some(([, asks]) => asks === null),
        `${subcommand} runs`,
      ).toBe(true);
      expect(
        cases.some(([, asks]) => asks !== null),
        `${subcommand} asks`,
      ).toBe(true);
    }
  });
});
