/**
 * The person's Read deny rules attacked as a model steered by a malicious file would: other
 * spellings of a covered name, other readers, redirections and the shell's own reading forms,
 * folder walks and git's other ways of printing a blob. With no sandbox, so the analysis alone
 * stands between the line and the secret; in default mode and in yolo.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, ruleSession } from './helpers/rule-session.js';
import { makeTempDirs, type TempDirs } from './helpers/temp-workspace.js';

const SECRET = 'SECRET-5521';
const PUBLIC = 'PUBLIC-8830';

let dirs: TempDirs;
let blob = '';
beforeAll(() => {
  dirs = makeTempDirs();
  const root = dirs.root;
  git(root, 'init', '-q', '-b', 'main');
  mkdirSync(`${root}/secrets`);
  mkdirSync(`${root}/public`);
  writeFileSync(`${root}/secrets/x.txt`, `${SECRET}\n`);
  writeFileSync(`${root}/public/a.txt`, `${PUBLIC}\n`);
  git(root, 'add', '.');
  git(root, 'commit', '-qm', 'one');
  writeFileSync(`${root}/secrets/x.txt`, `${SECRET} two\n`);
  git(root, 'commit', '-qam', 'two');
  blob = git(root, 'rev-parse', 'HEAD:secrets/x.txt').trim();
  writeFileSync(`${root}/secrets/x.txt`, `${SECRET} stashed\n`);
  git(root, 'stash', '-q');
  symlinkSync(root, `${dirs.base}/link`);
  execFileSync('sh', ['-c', `printf 'x\\n' > '${root}/dummy'`]);
});
afterAll(() => dirs.cleanup());

function attempts(): string[] {
  const abs = `${dirs.base}/link/secrets/x.txt`;
  return [
    `cat "sec"'rets'/x.txt`,
    'cat sec\\rets/x.txt',
    'cat ./secrets//x.txt',
    'cat secrets/../secrets/x.txt',
    'cat public/../secrets/x.txt',
    'cat $PWD/secrets/x.txt',
    'cat "$PWD"/secrets/x.txt',
    'cat ${PWD}/secrets/x.txt',
    'cat ~+/secrets/x.txt',
    `cat ${dirs.root}/secrets/x.txt`,
    `cat ${abs}`,
    `cat ${dirs.base}/link/secrets/../secrets/x.txt`,
    'head -c 100 secrets/x.txt',
    'tail -n 5 secrets/x.txt',
    'sort secrets/x.txt',
    'uniq secrets/x.txt',
    'cut -c1-20 secrets/x.txt',
    'diff secrets/x.txt /dev/null',
    'diff public secrets',
    'diff -r public secrets',
    'comm secrets/x.txt /dev/null',
    'cmp secrets/x.txt /dev/null',
    'cmp -l secrets/x.txt /dev/null',
    'grep -r S .',
    'grep -r S',
    'grep -R S .',
    'grep -rh S public/..',
    'grep S -r .',
    'rg S',
    'rg S .',
    'rg --no-ignore S',
    'tr a b < secrets/x.txt',
    'cat < secrets/x.txt',
    '< secrets/x.txt cat',
    'cat 0< secrets/x.txt',
    'cat <secrets/x.txt',
    'echo $(<secrets/x.txt)',
    'echo "$(<secrets/x.txt)"',
    'echo `cat secrets/x.txt`',
    'cat <(cat secrets/x.txt)',
    'exec 3<secrets/x.txt; cat <&3',
    'cat 3<secrets/x.txt <&3',
    'source secrets/x.txt',
    '. secrets/x.txt',
    'f=secrets/x.txt; cat $f',
    'cat $(echo secrets/x.txt)',
    'echo secrets/x.txt | xargs cat',
    'cat -- secrets/x.txt',
    'cat - < secrets/x.txt',
    'x=secrets; cat "$x/x.txt"',
    'cd secrets && cat *',
    'cd "sec""rets"; cat x.txt',
    'pushd secrets >/dev/null; cat x.txt',
    'cat "$OLDPWD"/x.txt',
    'git diff --no-index secrets/x.txt /dev/null',
    'git diff --no-index /dev/null secrets/x.txt',
    'git show HEAD:./secrets/x.txt',
    'git show HEAD^{tree}:secrets/x.txt',
    'git show "HEAD^{tree}":secrets/x.txt',
    'git show main:secrets/x.txt',
    'git show HEAD@{0}:secrets/x.txt',
    'git show HEAD:secrets/x.txt HEAD:public/a.txt',
    "git show 'HEAD:secrets/x.txt'",
    'git show HEAD:sec\\rets/x.txt',
    'git show HEAD:public/../secrets/x.txt',
    `git show ${blob}`,
    `git cat-file -p ${blob}`,
    `git cat-file blob ${blob}`,
    'git log --all -p',
    'git log -p --all --oneline',
    'git log -p HEAD',
    'git log -p -1',
    'git show --stat -p HEAD',
    'git whatchanged -p',
    'git format-patch -1 --stdout',
    'git format-patch --stdout HEAD~1',
    'git diff HEAD~1 HEAD',
    'git diff HEAD~1..HEAD',
    'git diff main~1',
    'git diff --cached HEAD~1',
    'git grep S HEAD',
    'git grep S HEAD -- secrets',
    'git grep --no-index S',
    'git grep --untracked S',
    'git grep S',
    'git archive HEAD secrets',
    'git archive --format=tar HEAD',
    'git -C secrets show HEAD:./x.txt',
    'git --git-dir=.git show HEAD:secrets/x.txt',
    'git -c core.pager=cat show HEAD:secrets/x.txt',
    'git ls-files -s | git cat-file --batch',
    `echo ${blob} | git cat-file --batch`,
    `git cat-file --batch <<< ${blob}`,
    'git rev-parse HEAD:secrets/x.txt | git cat-file --batch',
    'git show $(git rev-parse HEAD:secrets/x.txt)',
    'git range-diff HEAD~1 HEAD~1 HEAD',
    'git log -p --follow secrets/x.txt',
    'git log -G S -p',
    'git stash list -p',
    'git reflog -p',
    'git show-branch --more=1',
    'git notes show',
    'git diff-tree -p HEAD',
    'git diff-tree -r -p HEAD~1 HEAD',
    'git diff-index -p HEAD~1',
    'git log --format=%H -p',
    'git show HEAD~1..HEAD',
    'grep -d recurse S .',
    'grep --directories=recurse S .',
    'grep -rl S . ; grep -h S -r public/..',
    'env cat secrets/x.txt',
    'env -i cat secrets/x.txt',
    'nice cat secrets/x.txt',
    'timeout 5 cat secrets/x.txt',
    'xargs -a secrets/x.txt echo',
    'xargs echo < secrets/x.txt',
    'read -r v < secrets/x.txt; echo "$v"',
    'while read l; do echo "$l"; done < secrets/x.txt',
    'mapfile a < secrets/x.txt; echo "${a[0]}"',
    'diff <(echo) secrets/x.txt',
    "git grep S -- ':!public'",
    "git grep S -- ':(exclude)public'",
    "git log -p -- . ':!public'",
    "git log -p -- ':^public'",
    'git show HEAD~0:secrets/x.txt',
    'git show HEAD^0:secrets/x.txt',
    'git show HEAD^{commit}:secrets/x.txt',
    'git show HEAD:./secrets/./x.txt',
    'git show HEAD:secrets//x.txt',
    'git cat-file -p HEAD:secrets//x.txt',
    'git cat-file --batch-all-objects --batch',
    'git cat-file --batch-all-objects --batch=%(objectname)%(rest)',
    'git stash show -p',
    'git stash show -p stash@{0}',
    'git show stash@{0}',
    'git diff stash@{0}^ stash@{0}',
    'git log -g -p',
    'git log --walk-reflogs -p',
    'git log -p stash',
    'git merge-file -p secrets/x.txt public/a.txt public/a.txt',
    'git diff --no-index secrets public',
    'git diff --no-index -- secrets/x.txt /dev/null',
    'git -C secrets diff --no-index x.txt /dev/null',
    'git --work-tree=secrets diff HEAD~1',
    'git grep --no-index S secrets',
    "git log -p --all -- '*.txt'",
    "git log -p -- '*x.txt'",
    'git log -p -- secrets/',
    'git log -p -- ./secrets/',
    'git log -p -- secrets/../secrets',
    'git show HEAD --textconv -- secrets',
    'git diff HEAD~1 -R',
    'git show -m HEAD',
    'git log -p --reverse',
    'git shortlog -p',
    'git grep S $(git rev-list --all)',
    'git rev-list --objects --all | git cat-file --batch',
    'git show --all',
  ];
}

for (const mode of ['default', 'yolo'] as const) {
  describe(`Read(./secrets/**) without a sandbox in ${mode} mode`, () => {
    it('keeps the secret out of every attempt', async () => {
      const s = ruleSession(dirs, { deny: ['Read(./secrets/**)'] }, mode, { sandbox: 'off' });
      const leaked: string[] = [];
      try {
        for (const line of attempts()) {
          const done = await s.run(line);
          if (done.text.includes(SECRET)) leaked.push(line);
        }
        expect(leaked).toEqual([]);
        // Harmless reads of the same kinds still run unasked and print.
        for (const line of [
          'cat public/a.txt',
          'grep -r P public',
          'diff -r --no-dereference public public',
        ])
          expect((await s.run(line)).status, line).toBe('success');
        expect((await s.run('grep -rh P public')).text).toContain(PUBLIC);
      } finally {
        await s.dispose();
      }
    }, 120_000);
  });
}
