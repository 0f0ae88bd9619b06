/**
 * Commands that only read, and may run without asking in `default` mode when nothing in the
 * line writes. Each entry says which of its uses are read-only, with examples that must and
 * must not count as read-only (checked by read-only-commands.test.ts).
 */
import type { ShellCommand } from './command-analysis.js';

export interface ReadOnlyEntry {
  isReadOnly(args: string[]): boolean;
  examples: { readOnly: string[]; notReadOnly: string[] };
}

const always = () => true;
const withoutOptions = (forbidden: RegExp) => (args: string[]) =>
  !args.some((arg) => forbidden.test(arg));

const GIT_READ_SUBCOMMANDS = new Set([
  'status',
  'log',
  'diff',
  'show',
  'branch',
  'rev-parse',
  'ls-files',
  'blame',
  'remote',
  'tag',
  'describe',
  'shortlog',
]);
/** Options that make git run programs or write files. */
const GIT_UNSAFE =
  /^(-c|--config-env|--output|--ext-diff|--exec-path|--upload-pack|--receive-pack|-o)(=|$)/;

function gitIsReadOnly(args: string[]): boolean {
  let i = 0;
  // Global options before the subcommand: only the harmless ones.
  while (i < args.length && args[i]!.startsWith('-')) {
    const option = args[i]!;
    if (option === '-C') i += 2;
    else if (option === '--no-pager' || option === '-P' || option === '--no-optional-locks') i += 1;
    else return false;
  }
  const sub = args[i];
  if (!sub || !GIT_READ_SUBCOMMANDS.has(sub)) return false;
  const rest = args.slice(i + 1);
  if (rest.some((arg) => GIT_UNSAFE.test(arg))) return false;
  // Listing only: no creating, deleting, renaming or retargeting.
  if (sub === 'branch' || sub === 'tag') {
    return rest.every((arg) =>
      /^(-a|-r|-v|-vv|--all|--remotes|--list|-l|--merged|--no-merged|--contains|--sort=.*|--show-current|--format=.*)$/.test(
        arg,
      ),
    );
  }
  if (sub === 'remote')
    return rest.every(
      (arg) =>
        arg === '-v' ||
        arg === '--verbose' ||
        arg === 'show' ||
        arg === 'get-url' ||
        !arg.startsWith('-'),
    );
  return true;
}

export const READ_ONLY_COMMANDS: Record<string, ReadOnlyEntry> = {
  ls: {
    isReadOnly: always,
    examples: { readOnly: ['ls', 'ls -la src'], notReadOnly: ['ls > listing.txt'] },
  },
  cat: {
    isReadOnly: always,
    examples: { readOnly: ['cat README.md', 'cat a b | wc -l'], notReadOnly: ['cat a > b'] },
  },
  head: {
    isReadOnly: always,
    examples: { readOnly: ['head -n 20 file.ts'], notReadOnly: ['head x >> y'] },
  },
  tail: {
    isReadOnly: always,
    examples: { readOnly: ['tail -n 50 log.txt'], notReadOnly: ['tail x | tee y'] },
  },
  wc: {
    isReadOnly: always,
    examples: { readOnly: ['wc -l src/*.ts'], notReadOnly: ['wc -l x > count'] },
  },
  pwd: { isReadOnly: always, examples: { readOnly: ['pwd'], notReadOnly: ['pwd; rm -rf build'] } },
  echo: {
    isReadOnly: always,
    examples: {
      readOnly: ['echo hello', 'echo "$HOME"'],
      notReadOnly: ['echo hi > file', 'echo $(rm x)'],
    },
  },
  printf: {
    isReadOnly: always,
    examples: { readOnly: ["printf '%s\\n' a b"], notReadOnly: ['printf x > y'] },
  },
  grep: {
    isReadOnly: always,
    examples: {
      readOnly: ['grep -rn TODO src', 'grep -c x file'],
      notReadOnly: ['grep x file > out'],
    },
  },
  egrep: {
    isReadOnly: always,
    examples: { readOnly: ['egrep "a|b" f'], notReadOnly: ['egrep a f > g'] },
  },
  rg: {
    // --pre runs a program on every file.
    isReadOnly: withoutOptions(/^--pre(=|$)|^--pre-glob/),
    examples: {
      readOnly: ['rg -n "fn main" src', 'rg --files'],
      notReadOnly: ['rg --pre ./run.sh x', 'rg x > out'],
    },
  },
  find: {
    isReadOnly: withoutOptions(/^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/),
    examples: {
      readOnly: ['find . -name "*.ts"', 'find src -type f -newer x'],
      notReadOnly: ['find . -name x -delete', 'find . -exec rm {} ;', 'find . -fprint out'],
    },
  },
  git: {
    isReadOnly: gitIsReadOnly,
    examples: {
      readOnly: [
        'git status',
        'git log --oneline -5',
        'git diff HEAD~1',
        'git show HEAD',
        'git branch -a',
        'git -C sub status',
      ],
      notReadOnly: [
        'git commit -m x',
        'git push',
        'git -c core.pager=sh status',
        'git log --output=out.txt',
        'git diff --ext-diff',
        'git branch -D main',
        'git branch new-branch',
        'git checkout .',
      ],
    },
  },
  which: {
    isReadOnly: always,
    examples: { readOnly: ['which node'], notReadOnly: ['which node > x'] },
  },
  whoami: { isReadOnly: always, examples: { readOnly: ['whoami'], notReadOnly: ['whoami > me'] } },
  date: {
    isReadOnly: withoutOptions(/^(-s|--set)/),
    examples: { readOnly: ['date', 'date +%s'], notReadOnly: ['date -s "2020-01-01"'] },
  },
  uname: { isReadOnly: always, examples: { readOnly: ['uname -a'], notReadOnly: ['uname > x'] } },
  file: {
    isReadOnly: always,
    examples: { readOnly: ['file image.png'], notReadOnly: ['file x > y'] },
  },
  stat: {
    isReadOnly: always,
    examples: { readOnly: ['stat package.json'], notReadOnly: ['stat x > y'] },
  },
  du: {
    isReadOnly: always,
    examples: { readOnly: ['du -sh node_modules'], notReadOnly: ['du -sh . > size'] },
  },
  df: { isReadOnly: always, examples: { readOnly: ['df -h'], notReadOnly: ['df > x'] } },
  tree: {
    isReadOnly: withoutOptions(/^-o$/),
    examples: { readOnly: ['tree -L 2'], notReadOnly: ['tree -o out.txt'] },
  },
  basename: {
    isReadOnly: always,
    examples: { readOnly: ['basename /a/b.ts'], notReadOnly: ['basename a > b'] },
  },
  dirname: {
    isReadOnly: always,
    examples: { readOnly: ['dirname /a/b.ts'], notReadOnly: ['dirname a > b'] },
  },
  realpath: {
    isReadOnly: always,
    examples: { readOnly: ['realpath .'], notReadOnly: ['realpath . > x'] },
  },
  sort: {
    isReadOnly: withoutOptions(/^(-o|--output)/),
    examples: {
      readOnly: ['sort -u names.txt'],
      notReadOnly: ['sort -o out.txt in.txt', 'sort x > y'],
    },
  },
  uniq: {
    // A second file name is where uniq writes.
    isReadOnly: (args) => args.filter((arg) => !arg.startsWith('-')).length <= 1,
    examples: {
      readOnly: ['uniq -c sorted.txt', 'sort x | uniq'],
      notReadOnly: ['uniq in.txt out.txt'],
    },
  },
  cut: {
    isReadOnly: always,
    examples: { readOnly: ['cut -d: -f1 /etc/passwd'], notReadOnly: ['cut -f1 x > y'] },
  },
  tr: { isReadOnly: always, examples: { readOnly: ['tr a-z A-Z'], notReadOnly: ['tr a b > c'] } },
  diff: {
    isReadOnly: always,
    examples: { readOnly: ['diff -u a.txt b.txt'], notReadOnly: ['diff a b > patch'] },
  },
  true: { isReadOnly: always, examples: { readOnly: ['true'], notReadOnly: ['true; rm x'] } },
  false: { isReadOnly: always, examples: { readOnly: ['false'], notReadOnly: ['false || rm x'] } },
  test: {
    isReadOnly: always,
    examples: { readOnly: ['test -f package.json'], notReadOnly: ['test -f x && rm x'] },
  },
  '[': {
    isReadOnly: always,
    examples: { readOnly: ['[ -d src ]'], notReadOnly: ['[ -d src ] && rm -r src'] },
  },
  env: {
    // Only reached without a command to run (env as a wrapper is seen through).
    isReadOnly: always,
    examples: { readOnly: ['env', 'env | grep PATH'], notReadOnly: ['env rm x'] },
  },
  node: {
    isReadOnly: (args) => args.length === 1 && (args[0] === '--version' || args[0] === '-v'),
    examples: { readOnly: ['node --version'], notReadOnly: ['node script.js', 'node -e "1"'] },
  },
};

export function isReadOnlyCommand(command: ShellCommand): boolean {
  const entry = Object.hasOwn(READ_ONLY_COMMANDS, command.name)
    ? READ_ONLY_COMMANDS[command.name]
    : undefined;
  return entry?.isReadOnly(command.args) ?? false;
}
