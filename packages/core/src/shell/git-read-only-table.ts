/**
 * The git subcommands that only read, each with the options known to be safe for it (the
 * table read-only git is judged against; the judging is in git-read-only.ts). An option or
 * subcommand missing here asks the person; one listed here runs without asking, so every
 * entry must only read.
 */
import type { OptionSpec } from './parse-options.js';
import { names } from './read-only-command-table.js';

function logOptions(): OptionSpec {
  const flags = names(`
    oneline stat shortstat numstat name-only name-status graph no-decorate all abbrev-commit
    no-abbrev-commit full-history first-parent merges no-merges reverse relative-date patch no-patch
    raw patch-with-stat patch-with-raw summary cached staged no-color ignore-all-space
    ignore-space-change ignore-blank-lines ignore-space-at-eol minimal patience histogram follow
    check compact-summary full-index binary no-renames left-right cherry-pick cherry-mark topo-order
    date-order author-date-order source no-ext-diff no-textconv merge-base quiet exit-code boundary
    simplify-by-decoration ancestry-path walk-reflogs parents children no-walk mailmap use-mailmap
    no-mailmap text find-copies-harder irreversible-delete no-prefix numbered email committer
    show-pulls no-notes regexp-ignore-case extended-regexp fixed-strings perl-regexp all-match
    invert-grep not no-expand-tabs combined-all-paths dense sparse remerge-diff
  `).map((flag) => `--${flag}`);
  const values = names(`
    decorate branches tags remotes glob exclude abbrev date pretty format since until after before
    author committer grep max-count skip min-parents max-parents word-diff color unified diff-filter
    find-renames find-copies dirstat stat relative src-prefix dst-prefix line-prefix
    inter-hunk-context function-context diff-algorithm anchored color-moved color-words
    word-diff-regex diff-merges submodule ignore-submodules break-rewrites encoding group
    expand-tabs since-as-filter
  `).map((flag) => `--${flag}`);
  return {
    short: 'puszRawbWqrmcgiEFPtN',
    shortValued: 'nULSG',
    numeric: true,
    long: flags,
    longOptional: values,
    extra: /^-[MCB]\d*%?$/,
  };
}

export interface GitSubcommand {
  options: OptionSpec;
  /** Operands only when one of these options is given (`branch --list`); otherwise none. */
  operandsWith?: readonly string[];
  /** Exactly these operand shapes (`remote get-url NAME`). */
  operands?: (operands: string[]) => boolean;
}

const LISTING = (): GitSubcommand => ({
  options: {
    short: 'arvl',
    long: names('--all --remotes --list --show-current --verbose --no-color --no-column'),
    longOptional: names(`
      --color --column --sort --format --merged --no-merged
      --contains --no-contains --points-at --abbrev
    `),
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
        long: names(`
          --short --branch --long --verbose --show-stash --ahead-behind --no-ahead-behind --renames
          --no-renames --no-column --null
        `),
        longOptional: names('--porcelain --untracked-files --ignored --ignore-submodules --column'),
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
    return LISTING();
  },
  get tag(): GitSubcommand {
    return LISTING();
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
        long: names(`
          --show-toplevel --git-dir --verify --symbolic-full-name --symbolic --is-inside-work-tree
          --is-inside-git-dir --show-prefix --show-cdup --git-common-dir --absolute-git-dir
          --is-bare-repository --quiet --show-superproject-working-tree --all --branches --tags
        `),
        longOptional: names('--short --abbrev-ref'),
      },
    };
  },
  get 'ls-files'(): GitSubcommand {
    return {
      options: {
        short: 'cdmoiskutvfz',
        shortValued: 'x',
        long: names(`
          --cached --deleted --modified --others --ignored --stage --unmerged --killed --directory
          --no-empty-directory --exclude-standard --full-name --error-unmatch
        `),
        longOptional: names('--exclude --abbrev --format'),
      },
    };
  },
  get blame(): GitSubcommand {
    return {
      options: {
        short: 'bclnpstwef',
        shortValued: 'L',
        long: names(`
          --porcelain --line-porcelain --incremental --show-name --show-number --show-email --root
          --show-stats --minimal --no-textconv
        `),
        longOptional: names('--date --abbrev --ignore-rev --encoding'),
        extra: /^-[MC]\d*$/,
      },
    };
  },
  get describe(): GitSubcommand {
    return {
      options: {
        long: names('--tags --all --long --always --contains --exact-match --first-parent'),
        longOptional: names('--abbrev --match --exclude --candidates --dirty --broken'),
      },
    };
  },
};
