/**
 * Read-only git: the subcommands and options that only read, and the defences against a
 * repository whose own configuration runs programs (core.fsmonitor, a pager, an external
 * diff, textconv and filter drivers, hooks, gpg). A read-only git call runs without asking
 * only when the repository's config sets none of those, and runs with environment config
 * (`GIT_CONFIG_COUNT`…, which outranks repository files) that also switches off
 * fsmonitor, pagers, hooks and gpg. (An external diff or a textconv driver cannot be
 * switched off by config, only refused by the check.)
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { type OptionSpec, parseOptions } from './parse-options.js';
import type { ShellWord } from './shell-words.js';

function logOptions(): OptionSpec {
  const flags = [
    'oneline',
    'stat',
    'shortstat',
    'numstat',
    'name-only',
    'name-status',
    'graph',
    'no-decorate',
    'all',
    'abbrev-commit',
    'no-abbrev-commit',
    'full-history',
    'first-parent',
    'merges',
    'no-merges',
    'reverse',
    'relative-date',
    'patch',
    'no-patch',
    'raw',
    'patch-with-stat',
    'patch-with-raw',
    'summary',
    'cached',
    'staged',
    'no-color',
    'ignore-all-space',
    'ignore-space-change',
    'ignore-blank-lines',
    'ignore-space-at-eol',
    'minimal',
    'patience',
    'histogram',
    'follow',
    'check',
    'compact-summary',
    'full-index',
    'binary',
    'no-renames',
    'left-right',
    'cherry-pick',
    'cherry-mark',
    'topo-order',
    'date-order',
    'author-date-order',
    'source',
    'no-ext-diff',
    'no-textconv',
    'merge-base',
    'quiet',
    'exit-code',
    'boundary',
    'simplify-by-decoration',
    'ancestry-path',
    'walk-reflogs',
    'parents',
    'children',
    'no-walk',
    'mailmap',
    'use-mailmap',
    'no-mailmap',
    'text',
    'find-copies-harder',
    'irreversible-delete',
    'no-prefix',
    'numbered',
    'email',
    'committer',
    'show-pulls',
    'no-notes',
    'regexp-ignore-case',
    'extended-regexp',
    'fixed-strings',
    'perl-regexp',
    'all-match',
    'invert-grep',
    'not',
    'no-expand-tabs',
    'combined-all-paths',
    'dense',
    'sparse',
    'remerge-diff',
  ].map((flag) => `--${flag}`);
  const values = [
    'decorate',
    'branches',
    'tags',
    'remotes',
    'glob',
    'exclude',
    'abbrev',
    'date',
    'pretty',
    'format',
    'since',
    'until',
    'after',
    'before',
    'author',
    'committer',
    'grep',
    'max-count',
    'skip',
    'min-parents',
    'max-parents',
    'word-diff',
    'color',
    'unified',
    'diff-filter',
    'find-renames',
    'find-copies',
    'dirstat',
    'stat',
    'relative',
    'src-prefix',
    'dst-prefix',
    'line-prefix',
    'inter-hunk-context',
    'function-context',
    'diff-algorithm',
    'anchored',
    'color-moved',
    'color-words',
    'word-diff-regex',
    'diff-merges',
    'submodule',
    'ignore-submodules',
    'break-rewrites',
    'encoding',
    'group',
    'expand-tabs',
    'since-as-filter',
  ].map((flag) => `--${flag}`);
  return {
    short: 'puszRawbWqrmcgiEFPtN',
    shortValued: 'nULSG',
    numeric: true,
    long: flags,
    longOptional: values,
    extra: /^-[MCB]\d*%?$/,
  };
}

interface GitSubcommand {
  options: OptionSpec;
  /** Operands only when one of these options is given (`branch --list`); otherwise none. */
  operandsWith?: readonly string[];
  /** Exactly these operand shapes (`remote get-url NAME`). */
  operands?: (operands: string[]) => boolean;
}

const LISTING = (extra: string[]): GitSubcommand => ({
  options: {
    short: 'arvl',
    long: [
      '--all',
      '--remotes',
      '--list',
      '--show-current',
      '--verbose',
      '--no-color',
      '--no-column',
    ],
    longOptional: [
      '--color',
      '--column',
      '--sort',
      '--format',
      '--merged',
      '--no-merged',
      '--contains',
      '--no-contains',
      '--points-at',
      '--abbrev',
      ...extra,
    ],
    extra: /^-n\d*$/,
  },
  operandsWith: ['-l', '--list'],
});

/** Getters, for the reason given at READ_ONLY_COMMANDS. */
export const GIT_READ_ONLY: Record<string, GitSubcommand> = {
  get status(): GitSubcommand {
    return {
      options: {
        short: 'sbvz',
        long: [
          '--short',
          '--branch',
          '--long',
          '--verbose',
          '--show-stash',
          '--ahead-behind',
          '--no-ahead-behind',
          '--renames',
          '--no-renames',
          '--no-column',
          '--null',
        ],
        longOptional: [
          '--porcelain',
          '--untracked-files',
          '--ignored',
          '--ignore-submodules',
          '--column',
        ],
        extra: /^-u(no|normal|all)?$/,
      },
    };
  },
  get log(): GitSubcommand {
    return { options: logOptions() };
  },
  get show(): GitSubcommand {
    return { options: logOptions() };
  },
  get diff(): GitSubcommand {
    return { options: logOptions() };
  },
  get shortlog(): GitSubcommand {
    const log = logOptions();
    return { options: { ...log, short: `${log.short}sne`, shortValued: 'ULSG' } };
  },
  get branch(): GitSubcommand {
    return LISTING([]);
  },
  get tag(): GitSubcommand {
    return LISTING([]);
  },
  get remote(): GitSubcommand {
    return {
      options: { short: 'v', long: ['--verbose', '--push', '--all'] },
      operands: (operands) =>
        operands.length === 0 || (operands[0] === 'get-url' && operands.length === 2),
    };
  },
  get 'rev-parse'(): GitSubcommand {
    return {
      options: {
        short: 'q',
        long: [
          '--show-toplevel',
          '--git-dir',
          '--verify',
          '--symbolic-full-name',
          '--symbolic',
          '--is-inside-work-tree',
          '--is-inside-git-dir',
          '--show-prefix',
          '--show-cdup',
          '--git-common-dir',
          '--absolute-git-dir',
          '--is-bare-repository',
          '--quiet',
          '--show-superproject-working-tree',
          '--all',
          '--branches',
          '--tags',
        ],
        longOptional: ['--short', '--abbrev-ref'],
      },
    };
  },
  get 'ls-files'(): GitSubcommand {
    return {
      options: {
        short: 'cdmoiskutvfz',
        shortValued: 'x',
        long: [
          '--cached',
          '--deleted',
          '--modified',
          '--others',
          '--ignored',
          '--stage',
          '--unmerged',
          '--killed',
          '--directory',
          '--no-empty-directory',
          '--exclude-standard',
          '--full-name',
          '--error-unmatch',
        ],
        longOptional: ['--exclude', '--abbrev', '--format'],
      },
    };
  },
  get blame(): GitSubcommand {
    return {
      options: {
        short: 'bclnpstwef',
        shortValued: 'L',
        long: [
          '--porcelain',
          '--line-porcelain',
          '--incremental',
          '--show-name',
          '--show-number',
          '--show-email',
          '--root',
          '--show-stats',
          '--minimal',
          '--no-textconv',
        ],
        longOptional: ['--date', '--abbrev', '--ignore-rev', '--encoding'],
        extra: /^-[MC]\d*$/,
      },
    };
  },
  get describe(): GitSubcommand {
    return {
      options: {
        long: [
          '--tags',
          '--all',
          '--long',
          '--always',
          '--contains',
          '--exact-match',
          '--first-parent',
        ],
        longOptional: ['--abbrev', '--match', '--exclude', '--candidates', '--dirty', '--broken'],
      },
    };
  },
};

const GLOBAL_FLAGS = new Set([
  '--no-pager',
  '-P',
  '--no-optional-locks',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-replace-objects',
]);

/**
 * Why `git ARGS` is not proven read-only, or null. `checkDir` judges the folder given
 * with -C; `cwd` is where the command runs.
 */
export function gitProblem(
  args: readonly ShellWord[],
  cwd: string,
  checkPath: (word: ShellWord, cwd: string) => string | null,
  configProblem: (dir: string) => string | null,
): string | null {
  let dir = cwd;
  let i = 0;
  for (; i < args.length && args[i]!.value.startsWith('-'); i++) {
    const option = args[i]!;
    if (!option.literal) return `git: ${option.value} is only known when the command runs`;
    if (option.value === '-C') {
      const target = args[++i];
      if (!target) return 'git -C needs a folder';
      const problem = checkPath(target, dir);
      if (problem) return problem;
      dir = path.resolve(dir, target.value);
    } else if (!GLOBAL_FLAGS.has(option.value)) {
      return `git: the option ${option.value} is not known to be read-only`;
    }
  }
  const sub = args[i];
  if (!sub) return 'git without a subcommand';
  if (!sub.literal || !Object.hasOwn(GIT_READ_ONLY, sub.value))
    return `git ${sub.value} is not a read-only git command`;
  const spec = GIT_READ_ONLY[sub.value]!;
  const rest = args.slice(i + 1);
  const parsed = parseOptions(rest, spec.options);
  if (!parsed.ok) return `git ${sub.value}: ${parsed.problem}`;
  const operands = parsed.operands.map((index) => rest[index]!);
  if (operands.some((word) => !word.literal))
    return `git ${sub.value}: an argument is only known when the command runs`;
  if (spec.operandsWith && operands.length > 0) {
    const listing = parsed.options.some((o) => spec.operandsWith!.includes(o.name));
    if (!listing) return `git ${sub.value} with a name creates or changes it`;
  }
  if (spec.operands && !spec.operands(operands.map((word) => word.value)))
    return `git ${sub.value} ${operands.map((w) => w.value).join(' ')} is not read-only`;
  return configProblem(dir);
}

/** Repository config keys that make read-only git commands run a program. */
const PROGRAM_KEYS =
  /^\s*(fsmonitor|textconv|command|external|program|pager|hookspath|sshcommand|askpass|editor|clean|smudge|process|showsignature|cachetextconv)\s*=/im;
const PROGRAM_SECTIONS = /^\s*\[\s*(include|includeif|filter|pager|gpg)\b/im;

/**
 * Why git's own configuration in the repository around `dir` could make a read-only
 * command run a program, or null when it sets nothing of the kind.
 */
export function gitConfigProblem(dir: string): string | null {
  const gitDir = findGitDir(dir);
  if (gitDir === undefined) return null; // not a repository: git reads no repository config
  if (gitDir === null) return 'the repository layout could not be read';
  const files = [path.join(gitDir.common, 'config'), path.join(gitDir.own, 'config.worktree')];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const key = PROGRAM_KEYS.exec(text) ?? PROGRAM_SECTIONS.exec(text);
    if (key) {
      return `the repository's git config (${file}) sets "${key[0].trim()}", which can make git run a program`;
    }
  }
  return null;
}

/** The git folder of the repository containing `dir`: undefined outside one, null when unreadable. */
function findGitDir(dir: string): { own: string; common: string } | null | undefined {
  let current = path.resolve(dir);
  for (;;) {
    const dotGit = path.join(current, '.git');
    if (existsSync(dotGit)) {
      try {
        let own = dotGit;
        if (statSync(dotGit).isFile()) {
          const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
          if (!pointer) return null;
          own = path.resolve(current, pointer);
        }
        const commondir = path.join(own, 'commondir');
        const common = existsSync(commondir)
          ? path.resolve(own, readFileSync(commondir, 'utf8').trim())
          : own;
        return { own, common };
      } catch {
        return null;
      }
    }
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** Config given to read-only git through the environment, which outranks repository files. */
const SAFE_GIT_CONFIG: [string, string][] = [
  ['core.fsmonitor', 'false'],
  ['core.pager', 'cat'],
  ['core.hooksPath', '/dev/null'],
  ['log.showSignature', 'false'],
  ['gpg.program', 'false'],
  ['gpg.ssh.program', 'false'],
  ['gpg.x509.program', 'false'],
];

/** Environment additions for a line approved as read-only: git config that runs nothing. */
export function readOnlyGitEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const start = Number.parseInt(env.GIT_CONFIG_COUNT ?? '0', 10) || 0;
  const added: NodeJS.ProcessEnv = {
    GIT_CONFIG_COUNT: String(start + SAFE_GIT_CONFIG.length),
    GIT_PAGER: 'cat',
  };
  SAFE_GIT_CONFIG.forEach(([key, value], index) => {
    added[`GIT_CONFIG_KEY_${start + index}`] = key;
    added[`GIT_CONFIG_VALUE_${start + index}`] = value;
  });
  return added;
}
