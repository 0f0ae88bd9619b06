/**
 * The read-only allow-list, judged by cases written here (not stored beside the rules, so
 * a rule and its cases cannot drift together). Every listed command needs a case each
 * way; the file loads whatever the table holds, so a broken table fails tests.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeReadOnly } from '../../test/helpers/read-only-judge.js';
import { makeWorkspace, type TempWorkspace } from '../../test/helpers/temp-workspace.js';
import { GIT_READ_ONLY } from './git-read-only.js';
import { READ_ONLY_COMMANDS } from './read-only-commands.js';

let ws: TempWorkspace;
beforeAll(() => {
  ws = makeWorkspace();
  ws.write('src/a.ts', 'a');
  ws.write('names.txt', 'b\na\n');
  ws.write('links/plain.txt', 'x');
  mkdirSync(ws.p('.git'));
  writeFileSync(ws.p('.git/config'), '[core]\n\tbare = false\n');
  ws.write('evil/.git/config', '[core]\n\tfsmonitor = ./run.sh\n');
  ws.write('evil-included/.git/config', '[include]\n\tpath = ../other\n');
  symlinkSync('/etc/hostname', ws.p('links/out'));
  // A folder outside, and a link to a folder in it: `..` after the link leads beside it.
  mkdirSync(ws.p('../elsewhere/sub'), { recursive: true });
  symlinkSync(ws.p('../elsewhere/sub'), ws.p('linkdir'));
  mkdirSync(ws.p('home'));
});
afterAll(() => ws.cleanup());

function judge(command: string, cwd = ws.root) {
  return judgeReadOnly(ws, command, cwd);
}

/** [command, null when it runs without asking | a pattern for the reason it asks]. */
const CASES: [string, RegExp | null][] = [
  ['ls', null],
  ['ls -la src', null],
  ['ls --color=auto -1 --sort=size', null],
  ['ls > listing.txt', /writes to listing.txt/],
  ['ls ~', /outside the workspace/],
  ['ls /', /outside the workspace/],
  ['ls --frobnicate', /--frobnicate is not on toolhost's list/],
  ['cat names.txt', null],
  ['cat -n src/a.ts names.txt | wc -l', null],
  ['cat a > b', /writes to b/],
  ['cat /proc/self/environ', /in \/proc/],
  ['cat /proc/$PPID/environ', /only known when the command runs/],
  ['cat /sys/kernel/notes', /in \/sys/],
  ['cat /dev/sda', /in \/dev/],
  ['cat /dev/null', null],
  ['cat ../outside', /outside the workspace/],
  ['cat links/out', /outside the workspace/],
  ['cat links/*', /links\/out is outside the workspace \(from links\/\*\)/],
  ['cat linkdir/../secret.txt', /outside the workspace/],
  // Beside where linkdir leads, then back into the workspace: the kernel's way, inside.
  ['cat ./linkdir/../../ws/names.txt', null],
  ['cat src/../names.txt', null],
  ['grep -r x linkdir/..', /outside the workspace/],
  ['rg x linkdir/..', /outside the workspace/],
  ['sort linkdir/../x', /outside the workspace/],
  ['diff names.txt linkdir/../x', /outside the workspace/],
  ['cat ~-/names.txt', /~ form/],
  ['cat ~root/names.txt', /~ form/],
  ['cat ~+/names.txt', null],
  ['cat ~+/../names.txt', /outside the workspace/],
  ['cat src/*', null],
  ['cat */a.ts', /only known when the command runs|spans folders/],
  // Every name the pattern gives is judged, whatever folder it is in.
  ['cat src/*/a.ts', null],
  ['cat $HOME/.bashrc', /only known/],
  ['cat < names.txt', null],
  ['cat < /etc/passwd', /outside the workspace/],
  ['head -n 20 names.txt', null],
  ['head -5 names.txt', null],
  ['head -c 10 /etc/shadow', /outside/],
  ['tail -n 50 names.txt', null],
  ['tail -f --pid=1 names.txt', null],
  ['tail x | tee y', /tee is not on the list/],
  ['wc -l src/*.ts', null],
  ['wc --files0-from=/etc/list', /--files0-from/],
  ['pwd', null],
  ['pwd extra', /takes no arguments/],
  ['echo hello', null],
  ['echo "$HOME" -e -n', null],
  ['echo hi > file', /writes to file/],
  ['printf "%s\\n" a b', null],
  ['printf -v x y', /printf -v sets a variable/],
  ['grep -rn TODO src', null],
  ['grep -e x -e y names.txt', null],
  ['grep x /etc/passwd', /outside/],
  ['grep -f /etc/patterns names.txt', /outside/],
  ['grep --frob x', /--frob/],
  ['egrep "a|b" names.txt', null],
  ['egrep a /etc/x', /outside/],
  ['fgrep -c a names.txt', null],
  ['fgrep a ~/x', /outside/],
  ['rg -n "fn main" src', null],
  ['rg --files', null],
  ['rg --pre ./run.sh x', /--pre/],
  ['rg --pre=./run.sh x', /--pre/],
  ['rg -z x', /-z/],
  ['rg x /etc', /outside/],
  ['find . -name "*.ts"', null],
  ['find src -type f -newer names.txt -print0', null],
  ['find . -name x -delete', /deletes files/],
  ['find . -exec cat {} \\;', /find -exec runs a command/],
  ['find . -fprint out', /writes a file/],
  ['find / -name x', /outside/],
  ['find . -newer /etc/passwd', /outside/],
  ['find . -frobnicate', /-frobnicate is not known/],
  ['find -L . -name x', /-L is not known/],
  ['find . -follow', /-follow is not known/],
  ['find -H . -name x', null],
  ['git status', null],
  ['git status --porcelain=v1 -uno', null],
  ['git log --oneline -5', null],
  ['git log --format=%H --since=1.week', null],
  ['git diff HEAD~1 --stat', null],
  ['git show HEAD', null],
  ['git branch -a', null],
  ['git branch --list "feat*"', null],
  ['git tag -l "v*"', null],
  ['git remote -v', null],
  ['git remote get-url origin', null],
  ['git rev-parse --show-toplevel', null],
  ['git ls-files -m', null],
  ['git blame -L 1,5 names.txt', null],
  ['git describe --tags --always', null],
  ['git shortlog -sn', null],
  ['git -C src status', null],
  ['git --no-pager log', null],
  ['git commit -m x', /git commit is not a read-only git command/],
  ['git push', /not a read-only git command/],
  ['git -c core.pager=sh status', /the option -c/],
  ['git --git-dir=/x status', /--git-dir/],
  ['git -C /etc status', /outside/],
  ['git log --output=out.txt', /--output/],
  ['git diff --ext-diff', /--ext-diff/],
  ['git log --show-signature', /--show-signature/],
  ['git diff --no-index /etc/passwd x', /--no-index/],
  ['git branch -D main', /-D/],
  ['git branch new-branch', /creates or changes it/],
  ['git tag v1', /creates or changes it/],
  ['git remote add x /y', /not read-only/],
  ['git remote show origin', /not read-only/],
  ['git checkout .', /not a read-only git command/],
  ['GIT_TRACE=out git status', /GIT_TRACE/],
  ['git log $opts', /only known/],
  ['which node', null],
  ['which node > x', /writes/],
  ['type ls', null],
  ['type ls > x', /writes/],
  ['whoami', null],
  ['whoami root', /takes no arguments/],
  ['id -u', null],
  ['id --frob', /--frob/],
  ['uname -a', null],
  ['uname > x', /writes/],
  ['printenv PATH', null],
  ['printenv > x', /writes/],
  ['date', null],
  ['date +%s', null],
  ['date -s "2020-01-01"', /-s/],
  ['date 0101', /not read-only/],
  ['file src/a.ts', null],
  ['file -C -m x', /-C/],
  ['stat names.txt', null],
  ['stat /etc/passwd', /outside/],
  ['du -sh src', null],
  ['du -sh /', /outside/],
  ['df -h', null],
  ['df --frob', /--frob/],
  ['tree -L 2', null],
  ['tree -o out.txt', /-o/],
  ['basename /a/b.ts', null],
  ['basename a > b', /writes/],
  ['dirname /a/b.ts', null],
  ['dirname a > b', /writes/],
  ['realpath .', null],
  ['realpath . > x', /writes/],
  ['readlink -f links/out', null],
  ['readlink x > y', /writes/],
  ['sort -u names.txt', null],
  ['sort -k 2 -t , -n names.txt', null],
  ['sort -uo out names.txt', /-o/],
  ['sort --o=out names.txt', /--o/],
  ['sort --output=out names.txt', /--output/],
  ['sort -T /tmp names.txt', /-T/],
  ['sort --compress-program=sh names.txt', /--compress-program/],
  ['uniq -c names.txt', null],
  ['sort names.txt | uniq', null],
  ['uniq names.txt out.txt', /writes to the last one/],
  ['cat names.txt | uniq - out', /writes to the last one/],
  ['cut -d: -f1 names.txt', null],
  ['cut -f1 /etc/passwd', /outside/],
  ['tr a-z A-Z', null],
  ['tr a b > c', /writes/],
  ['diff -u names.txt src/a.ts', null],
  ['diff names.txt /etc/passwd', /outside/],
  ['comm -12 names.txt names.txt', null],
  ['comm names.txt /etc/x', /outside/],
  ['cmp names.txt src/a.ts', null],
  ['cmp a b c', /writes to the last one|3 file names/],
  ['seq 1 10', null],
  ['seq 1 10 > x', /writes/],
  ['sha256sum names.txt', null],
  ['sha256sum -c sums', /-c/],
  ['md5sum names.txt', null],
  ['md5sum /etc/passwd', /outside/],
  ['true', null],
  ['true > x', /writes/],
  ['false', null],
  ['false > x', /writes/],
  ['test -f names.txt', null],
  ['test -v x', /-v/],
  ['[ -d src ]', null],
  ['[ -d src ] > x', /writes/],
  ['env', null],
  ['env | grep PATH', null],
  ['env rm x', /rm is not on the list/],
  ['env FOO=1', null],
  ['env -S "ls"', /env -S/],
  ['node --version', null],
  ['node script.js', /takes no arguments/],
  ['node -e "1"', /-e/],
  ['ls; rm -rf build', /rm is not on the list/],
  ['echo $(rm x)', /substitutions/],
  ['FOO=1 ls', /it sets FOO for ls/],
  ['x=1; ls', /sets the variable x/],
  ['[[ -f names.txt ]]', /bash test/],
  ['ls | xargs cat', /xargs gives cat arguments only known when it runs/],
  ['bash -c "ls src"', null],
  ['bash -c "ls /etc"', /outside/],
  ['ls 2>/dev/null', null],
  ['ls 2>&1 | head', null],
  ['echo x > 7', /writes to 7/],
  ['echo x &>> -', /writes to -/],
  ['echo x > /dev/stdout', /writes to \/dev\/stdout/],
];

describe('the read-only allow-list', () => {
  for (const [command, asks] of CASES) {
    it(`${asks ? 'asks before' : 'runs'} ${JSON.stringify(command)}`, async () => {
      const decision = await judge(command);
      if (asks === null) expect(decision).toEqual({ kind: 'allow', reason: 'read_only' });
      else {
        expect(decision.kind).toBe('ask');
        expect(decision.kind === 'ask' && decision.reasons.join(' | ')).toMatch(asks);
      }
    });
  }

  it('has a case each way for every command it lists', () => {
    const covered = (name: string, asks: boolean) =>
      CASES.some(
        ([command, reason]) =>
          (reason !== null) === asks && (command === name || command.startsWith(`${name} `)),
      );
    const missing = [...Object.keys(READ_ONLY_COMMANDS), 'find', 'git'].filter(
      (name) => !covered(name, true) || !covered(name, false),
    );
    expect(missing).toEqual([]);
    for (const sub of Object.keys(GIT_READ_ONLY)) {
      expect(
        CASES.some(([command, reason]) => reason === null && command.includes(`git ${sub}`)),
        sub,
      ).toBe(true);
    }
  });

  it('lists the commands people rely on', () => {
    for (const name of ['ls', 'cat', 'head', 'tail', 'wc', 'grep', 'rg', 'echo', 'pwd', 'sort'])
      expect(Object.hasOwn(READ_ONLY_COMMANDS, name), name).toBe(true);
  });
});

describe('read-only git in a repository whose config runs programs', () => {
  it('asks, naming the setting', async () => {
    const decision = await judge('git status', ws.p('evil'));
    expect(decision.kind).toBe('ask');
    expect(decision.kind === 'ask' && decision.reasons.join()).toMatch(
      /git config \(.*evil\/\.git\/config\) sets "fsmonitor =/,
    );
  });

  it('asks when the config includes other files', async () => {
    const decision = await judge('git log', ws.p('evil-included'));
    expect(decision.kind === 'ask' && decision.reasons.join()).toMatch(/sets "\[include/);
  });

  it('follows -C to the repository it names', async () => {
    expect((await judge('git -C evil status')).kind).toBe('ask');
    expect((await judge('git -C src status')).kind).toBe('allow');
  });
});
