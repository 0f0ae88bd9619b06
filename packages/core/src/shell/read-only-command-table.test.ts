/**
 * Every part of every entry of the read-only allow-list (read-only-command-table.ts),
 * proven by how the shell tool's permission check answers real command lines: for each
 * command, lines that use each kind of option it allows (short, short with a value, the
 * number form, long, long with a value, long with an optional value), its path options
 * inside and outside the workspace, its pattern options and its operands run unasked; an
 * option it does not list, and a file outside the workspace, ask. The rows are command
 * lines, not the table, so an emptied or missing entry fails its rows instead of stopping
 * this file from loading.
 */
import { symlinkSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeReadOnly } from '../../test/helpers/read-only-judge.js';
import { makeWorkspace, type TempWorkspace } from '../../test/helpers/temp-workspace.js';
import { READ_ONLY_COMMANDS } from './read-only-commands.js';

let ws: TempWorkspace;
beforeAll(() => {
  ws = makeWorkspace();
  ws.write('src/a.ts', 'a');
  ws.write('names.txt', 'b\na\n');
  // Links out of the workspace named like a date format and an assignment: date and env
  // take such words as text and never open them.
  symlinkSync('/etc/hostname', ws.p('+out'));
  symlinkSync('/etc/hostname', ws.p('A=out'));
});
afterAll(() => ws.cleanup());

interface Row {
  /** Lines that run without asking. */
  runs: string[];
  /** Lines that ask, each with a pattern for the reason given. */
  asks: [string, RegExp][];
}

const OUTSIDE = /outside the workspace/;
/** The reason an option that is not listed gives. */
const unlisted = (option: string) => new RegExp(`the option ${option} is not on toolhost's list`);

const grepRow = (grep: string): Row => ({
  runs: [
    `${grep} -rn TODO src`,
    `${grep} -m 5 -A1 x names.txt`,
    `${grep} -3 x names.txt`,
    `${grep} --ignore-case --count x names.txt`,
    `${grep} --max-count=2 --include "*.ts" x src`,
    `${grep} --color x names.txt`,
    `${grep} --colour=never x names.txt`,
    // The first operand is the pattern, never opened.
    `${grep} /etc/passwd names.txt`,
    `${grep} -f names.txt src`,
    `${grep} --file=names.txt src`,
    `${grep} --exclude-from names.txt x src`,
    `${grep} -e x -e /etc/passwd names.txt`,
  ],
  asks: [
    [`${grep} x /etc/passwd`, OUTSIDE],
    [`${grep} -f /etc/patterns names.txt`, OUTSIDE],
    [`${grep} --file=/etc/patterns names.txt`, OUTSIDE],
    [`${grep} --exclude-from=/etc/list x names.txt`, OUTSIDE],
    // With the pattern given by an option, every operand is a file.
    [`${grep} -e x /etc/passwd`, OUTSIDE],
    [`${grep} --regexp=x /etc/passwd`, OUTSIDE],
    [`${grep} -f names.txt /etc/passwd`, OUTSIDE],
    [`${grep} --file names.txt /etc/passwd`, OUTSIDE],
    [`${grep} -j x names.txt`, unlisted('-j')],
    [`${grep} --frobnicate x names.txt`, unlisted('--frobnicate')],
    // They follow links met while walking a folder, which may lead out of the workspace.
    [`${grep} -R x src`, unlisted('-R')],
    [`${grep} --dereference-recursive x src`, unlisted('--dereference-recursive')],
  ],
});

const checksumRow = (sum: string): Row => ({
  runs: [
    `${sum} -b names.txt`,
    `${sum} --binary names.txt`,
    `${sum} --text names.txt`,
    `${sum} --tag names.txt`,
    `${sum} --zero names.txt`,
  ],
  asks: [
    [`${sum} -c sums`, unlisted('-c')],
    [`${sum} --check sums`, unlisted('--check')],
    [`${sum} /etc/passwd`, OUTSIDE],
  ],
});

/** Takes any words as text, options included, and opens nothing. */
const anyTextRow = (line: string): Row => ({ runs: [line], asks: [[`${line} > out`, /writes/]] });

const ROWS: Record<string, Row> = {
  ls: {
    runs: [
      'ls -la src',
      'ls -I "*.o" -w 80 src',
      'ls --almost-all --recursive',
      'ls --sort size --width=100',
      'ls --color',
      'ls --hyperlink=auto src',
    ],
    asks: [
      ['ls -j', unlisted('-j')],
      ['ls --frobnicate', unlisted('--frobnicate')],
      ['ls -RL src', unlisted('-L')],
      ['ls --dereference -R src', unlisted('--dereference')],
      ['ls /etc', OUTSIDE],
    ],
  },
  cat: {
    runs: ['cat -n names.txt', 'cat --number --show-ends names.txt'],
    asks: [
      ['cat -z names.txt', unlisted('-z')],
      ['cat --frob names.txt', unlisted('--frob')],
      ['cat /etc/passwd', OUTSIDE],
    ],
  },
  head: {
    runs: [
      'head -q names.txt',
      'head -n 2 names.txt',
      'head -c5 names.txt',
      'head -20 names.txt',
      'head --quiet names.txt',
      'head --lines=2 names.txt',
    ],
    asks: [
      ['head -x names.txt', unlisted('-x')],
      ['head --frob names.txt', unlisted('--frob')],
      ['head /etc/passwd', OUTSIDE],
    ],
  },
  tail: {
    runs: [
      'tail -f names.txt',
      'tail -n 2 names.txt',
      'tail -20 names.txt',
      'tail --silent names.txt',
      'tail --retry names.txt',
      'tail --lines 2 names.txt',
      'tail --follow names.txt',
      'tail --follow=name names.txt',
    ],
    asks: [
      ['tail -x names.txt', unlisted('-x')],
      ['tail --frob names.txt', unlisted('--frob')],
      ['tail /etc/passwd', OUTSIDE],
    ],
  },
  wc: {
    runs: ['wc -l names.txt', 'wc --words names.txt'],
    asks: [
      // It would read file names from the list, which nothing checks.
      ['wc --files0-from=names.txt', unlisted('--files0-from')],
      ['wc -x names.txt', unlisted('-x')],
      ['wc /etc/passwd', OUTSIDE],
    ],
  },
  pwd: {
    runs: ['pwd -P'],
    asks: [
      ['pwd -x', unlisted('-x')],
      ['pwd src', /takes no arguments/],
    ],
  },
  echo: anyTextRow('echo -n --anything /etc/passwd'),
  printf: anyTextRow('printf "%s\\n" -n --anything /etc/passwd'),
  grep: grepRow('grep'),
  egrep: grepRow('egrep'),
  fgrep: grepRow('fgrep'),
  rg: {
    runs: [
      'rg -n "fn main" src',
      'rg -g "*.ts" x src',
      'rg --hidden x src',
      'rg --max-count=2 x src',
      'rg --color=never x src',
      'rg /etc/passwd names.txt',
      'rg -f names.txt src',
      'rg --file names.txt src',
      'rg --ignore-file=names.txt x src',
      'rg --files src',
      'rg --type-list',
    ],
    asks: [
      ['rg x /etc', OUTSIDE],
      ['rg -f /etc/patterns src', OUTSIDE],
      ['rg --file=/etc/patterns src', OUTSIDE],
      ['rg --ignore-file /etc/ignore x src', OUTSIDE],
      ['rg -e x /etc', OUTSIDE],
      ['rg --regexp x /etc', OUTSIDE],
      ['rg -f names.txt /etc', OUTSIDE],
      ['rg --file=names.txt /etc', OUTSIDE],
      ['rg --files /etc', OUTSIDE],
      ['rg --type-list /etc', OUTSIDE],
      ['rg -z x', unlisted('-z')],
      ['rg --pre=./run.sh x', unlisted('--pre')],
      ['rg -L x src', unlisted('-L')],
      ['rg --follow x src', unlisted('--follow')],
    ],
  },
  which: {
    runs: ['which -a node', 'which /etc/passwd'],
    asks: [['which -x node', unlisted('-x')]],
  },
  type: {
    runs: ['type -a ls', 'type /etc/passwd'],
    asks: [['type -x ls', unlisted('-x')]],
  },
  whoami: {
    runs: ['whoami'],
    asks: [
      ['whoami -x', unlisted('-x')],
      ['whoami root', /takes no arguments/],
    ],
  },
  id: {
    runs: ['id -u', 'id /etc/passwd'],
    asks: [['id -x', unlisted('-x')]],
  },
  uname: {
    runs: ['uname -a', 'uname --kernel-name'],
    asks: [
      ['uname -x', unlisted('-x')],
      ['uname src', /takes no arguments/],
    ],
  },
  printenv: {
    runs: ['printenv -0 PATH', 'printenv --null', 'printenv /etc/passwd'],
    asks: [['printenv -x', unlisted('-x')]],
  },
  date: {
    runs: [
      'date -u',
      'date -d yesterday',
      'date --utc',
      'date --date=now +%s',
      'date --iso-8601',
      'date --iso-8601=seconds',
      'date -r names.txt',
      'date --reference names.txt',
      'date +out',
    ],
    asks: [
      ['date -r /etc/passwd', OUTSIDE],
      ['date --reference=/etc/passwd', OUTSIDE],
      ['date -s 2020-01-01', unlisted('-s')],
      ['date --set=2020-01-01', unlisted('--set')],
      ['date a+b', /not read-only/],
    ],
  },
  file: {
    runs: ['file -b src/a.ts', 'file --mime-type src/a.ts'],
    asks: [
      ['file -C', unlisted('-C')],
      ['file /etc/passwd', OUTSIDE],
    ],
  },
  stat: {
    runs: [
      'stat -L names.txt',
      'stat -c %s names.txt',
      'stat --terse names.txt',
      'stat --format=%s names.txt',
    ],
    asks: [
      ['stat -x names.txt', unlisted('-x')],
      ['stat /etc/passwd', OUTSIDE],
    ],
  },
  du: {
    runs: [
      'du -sh src',
      'du -d 1 src',
      'du --summarize src',
      'du --max-depth=1 src',
      'du --time src',
    ],
    asks: [
      ['du -y src', unlisted('-y')],
      ['du -aL src', unlisted('-L')],
      ['du --dereference src', unlisted('--dereference')],
      ['du /etc', OUTSIDE],
    ],
  },
  df: {
    runs: ['df -h', 'df -B M src', 'df --human-readable', 'df --output=source src'],
    asks: [
      ['df -y', unlisted('-y')],
      ['df /etc', OUTSIDE],
    ],
  },
  tree: {
    runs: ['tree -a src', 'tree -L 2 src'],
    asks: [
      ['tree -o out.txt', unlisted('-o')],
      ['tree -l src', unlisted('-l')],
      ['tree /etc', OUTSIDE],
    ],
  },
  basename: {
    runs: [
      'basename -a x y',
      'basename -s .ts a.ts',
      'basename --multiple x y',
      'basename --suffix=.ts /a/b.ts',
    ],
    asks: [['basename -x a', unlisted('-x')]],
  },
  dirname: {
    runs: ['dirname -z /a/b.ts', 'dirname --zero /a/b.ts'],
    asks: [['dirname -x a', unlisted('-x')]],
  },
  realpath: {
    runs: [
      'realpath -e .',
      'realpath --canonicalize-missing /etc/x',
      'realpath --relative-to=src .',
    ],
    asks: [['realpath -x .', unlisted('-x')]],
  },
  readlink: {
    runs: ['readlink -f /etc/passwd'],
    asks: [['readlink -x a', unlisted('-x')]],
  },
  sort: {
    runs: [
      'sort -u names.txt',
      'sort -k 2 names.txt',
      'sort --reverse names.txt',
      'sort --key=2 names.txt',
      'sort --check names.txt',
      'sort --check=quiet names.txt',
    ],
    asks: [
      ['sort -o out names.txt', unlisted('-o')],
      ['sort --output=out names.txt', unlisted('--output')],
      ['sort /etc/passwd', OUTSIDE],
    ],
  },
  uniq: {
    runs: [
      'uniq -c names.txt',
      'uniq -f 1 names.txt',
      'uniq --count names.txt',
      'uniq --skip-fields=1 names.txt',
      'uniq --group names.txt',
      'uniq --all-repeated=separate names.txt',
    ],
    asks: [
      ['uniq -x names.txt', unlisted('-x')],
      ['uniq names.txt out.txt', /writes to the last one/],
      ['uniq /etc/passwd', OUTSIDE],
    ],
  },
  cut: {
    runs: [
      'cut -s -f1 names.txt',
      'cut -d: -f1 names.txt',
      'cut --complement -f1 names.txt',
      'cut --fields=1 names.txt',
    ],
    asks: [
      ['cut -x names.txt', unlisted('-x')],
      ['cut -f1 /etc/passwd', OUTSIDE],
    ],
  },
  tr: {
    runs: ['tr -d a', 'tr /etc/passwd x'],
    asks: [['tr -x a b', unlisted('-x')]],
  },
  diff: {
    runs: [
      'diff -q names.txt src/a.ts',
      'diff -U 3 names.txt src/a.ts',
      'diff --brief names.txt src/a.ts',
      'diff --label=x names.txt src/a.ts',
      'diff --unified names.txt src/a.ts',
      'diff --color=never names.txt src/a.ts',
      // Walking folders without following the links met there.
      'diff -r --no-dereference src src',
      'diff --no-dereference -qr src src',
      'diff --recursive --no-dereference src src',
    ],
    asks: [
      ['diff -o names.txt src/a.ts', unlisted('-o')],
      ['diff -r src src', /diff -r may follow links out of the workspace without --no-dereference/],
      ['diff -qr src src', /diff -r may follow/],
      ['diff --recursive src src', /diff --recursive may follow/],
      ['diff -r --no-dereference src /etc', OUTSIDE],
      ['diff names.txt /etc/passwd', OUTSIDE],
    ],
  },
  comm: {
    runs: ['comm -12 names.txt names.txt'],
    asks: [
      ['comm -x names.txt names.txt', unlisted('-x')],
      ['comm names.txt /etc/passwd', OUTSIDE],
    ],
  },
  cmp: {
    runs: ['cmp -s names.txt src/a.ts', 'cmp -n 10 names.txt src/a.ts'],
    asks: [
      ['cmp -x names.txt src/a.ts', unlisted('-x')],
      ['cmp names.txt src/a.ts out', /writes to the last one/],
      ['cmp names.txt /etc/passwd', OUTSIDE],
    ],
  },
  seq: {
    // Its operands are numbers, never opened, even when they look like paths.
    runs: ['seq -w 1 10', 'seq -s , 1 3', 'seq /5'],
    asks: [['seq -x 1', unlisted('-x')]],
  },
  sha256sum: checksumRow('sha256sum'),
  md5sum: checksumRow('md5sum'),
  true: anyTextRow('true --anything /etc/passwd'),
  false: anyTextRow('false --anything /etc/passwd'),
  test: anyTextRow('test -f /etc/passwd'),
  env: {
    runs: ['env', 'env -0', 'env -u HOME', 'env --null', 'env --unset=HOME FOO=1', 'env A=out'],
    asks: [
      ['env -v', unlisted('-v')],
      ['env rm x', /rm is not on the list/],
    ],
  },
  node: {
    runs: ['node -v', 'node --version'],
    asks: [
      ['node -e 1', /-e/],
      ['node script.js', /takes no arguments/],
    ],
  },
};

describe('each entry of the read-only allow-list, by behaviour', () => {
  for (const [name, row] of Object.entries(ROWS)) {
    describe(name, () => {
      for (const line of row.runs) {
        it(`runs ${JSON.stringify(line)}`, async () => {
          expect(await judgeReadOnly(ws, line)).toEqual({ kind: 'allow', reason: 'read_only' });
        });
      }
      for (const [line, reason] of row.asks) {
        it(`asks before ${JSON.stringify(line)}`, async () => {
          const decision = await judgeReadOnly(ws, line);
          expect(decision.kind).toBe('ask');
          expect(decision.kind === 'ask' && decision.reasons.join(' | ')).toMatch(reason);
        });
      }
    });
  }

  it('has a row for every command the table lists, and lists every command it has a row for', () => {
    expect(Object.keys(READ_ONLY_COMMANDS).sort()).toEqual(Object.keys(ROWS).sort());
  });
});
