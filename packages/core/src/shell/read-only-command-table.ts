/**
 * The read-only allow-list itself (what each listed command may be given; the type and
 * its meaning are in read-only-commands.ts). Every option here must only read: a missing
 * one asks the person, an extra one runs unasked. Options that follow symbolic links met
 * while walking a folder (grep -R, rg -L, ls/du -L, tree -l; diff -r unless given
 * --no-dereference) are left out: only the operands are checked against the workspace, and
 * such a link may lead out of it.
 */
import type { ReadOnlySpec } from './read-only-spec.js';

/**
 * A list of option names written as one string (`'--all --size'`). Dropping one name from
 * an allow-list only makes that option ask, so a list is mutated and tested as a whole.
 */
export function names(list: string): string[] {
  return list.trim().split(/\s+/);
}

function grep(): ReadOnlySpec {
  return {
    options: {
      short: 'EFGPiyvwxcLloqsbHhnTZzaIrU',
      shortValued: 'efmABCdD',
      numeric: true,
      long: names(`
        --extended-regexp --fixed-strings --basic-regexp --perl-regexp --ignore-case
        --no-ignore-case --invert-match --word-regexp --line-regexp --count --files-with-matches
        --files-without-match --only-matching --quiet --silent --no-messages --byte-offset
        --with-filename --no-filename --line-number --initial-tab --null --null-data --text
        --recursive --line-buffered
      `),
      longValued: names(`
        --regexp --file --max-count --after-context --before-context --context --include --exclude
        --exclude-dir --label --binary-files --devices --directories --exclude-from
      `),
      longOptional: names('--color --colour'),
    },
    operands: 'pattern-then-paths',
    pathOptions: ['-f', '--file', '--exclude-from'],
    patternOptions: ['-e', '-f', '--regexp', '--file'],
  };
}

const HEAD_TAIL_LONG = names('--quiet --silent --verbose --zero-terminated');

/**
 * Each entry is a getter that builds its spec when asked (cheap next to parsing a line), so
 * a change to one command's rules is tried against the tests of that command only: see
 * "Mutation testing" in the README.
 */
export const READ_ONLY_COMMANDS: Record<string, ReadOnlySpec> = {
  get ls(): ReadOnlySpec {
    return {
      options: {
        short: 'aAbBcCdfFgGhHiklmnNopqQrRsStuUvwxXZ1',
        shortValued: 'IwT',
        long: names(`
          --all --almost-all --human-readable --si --recursive --reverse --size --classify
          --directory --inode --numeric-uid-gid --group-directories-first --full-time
          --no-group --literal --author
        `),
        longValued: names(`
          --sort --time --time-style --format --indicator-style --hide --ignore --block-size --width
          --tabsize --quoting-style
        `),
        longOptional: names('--color --hyperlink'),
      },
      operands: 'paths',
    };
  },
  get cat(): ReadOnlySpec {
    return {
      options: {
        short: 'AbeEnstTuv',
        long: names(`
          --number --number-nonblank --show-all --show-ends --show-tabs --squeeze-blank
          --show-nonprinting
        `),
      },
      operands: 'paths',
    };
  },
  get head(): ReadOnlySpec {
    return {
      options: {
        short: 'qvz',
        shortValued: 'nc',
        numeric: true,
        long: HEAD_TAIL_LONG,
        longValued: names('--lines --bytes'),
      },
      operands: 'paths',
    };
  },
  get tail(): ReadOnlySpec {
    return {
      options: {
        short: 'qvzfFr',
        shortValued: 'ncs',
        numeric: true,
        long: [...HEAD_TAIL_LONG, '--retry'],
        longValued: names('--lines --bytes --sleep-interval --max-unchanged-stats --pid'),
        longOptional: ['--follow'],
      },
      operands: 'paths',
    };
  },
  get wc(): ReadOnlySpec {
    return {
      options: {
        short: 'clmwL',
        // Not --files0-from: the file names it reads from that file are not checked.
        long: names('--bytes --chars --lines --words --max-line-length'),
      },
      operands: 'paths',
    };
  },
  get pwd(): ReadOnlySpec {
    return { options: { short: 'LP' }, operands: 'none' };
  },
  get echo(): ReadOnlySpec {
    return { options: {}, operands: 'text', anyText: true };
  },
  get printf(): ReadOnlySpec {
    return { options: {}, operands: 'text', anyText: true };
  },
  get grep(): ReadOnlySpec {
    return grep();
  },
  get egrep(): ReadOnlySpec {
    return grep();
  },
  get fgrep(): ReadOnlySpec {
    return grep();
  },
  get rg(): ReadOnlySpec {
    return {
      options: {
        short: 'iSsFwxvclnNoqbHIuUaP0h.',
        shortValued: 'egtTmABCjMrEf',
        long: names(`
          --files --hidden --no-ignore --no-ignore-vcs --no-ignore-parent --no-ignore-dot
          --ignore-case --smart-case --case-sensitive --fixed-strings --word-regexp --line-regexp
          --invert-match --count --count-matches --files-with-matches --files-without-match
          --line-number --no-line-number --only-matching --quiet --column --no-heading --heading
          --with-filename --no-filename --json --vimgrep --multiline --multiline-dotall
          --pcre2 --stats --sort-files --trim --no-messages --null --text --binary --no-config
          --type-list --unrestricted --byte-offset --passthru --crlf --no-require-git
          --one-file-system --glob-case-insensitive --max-columns-preview --pretty
        `),
        longValued: names(`
          --glob --iglob --type --type-not --max-count --max-depth --maxdepth --max-filesize
          --after-context --before-context --context --threads --max-columns --replace --regexp
          --file --sort --sortr --encoding --colors --type-add --context-separator
          --field-match-separator --path-separator --ignore-file
        `),
        longOptional: ['--color'],
      },
      operands: 'pattern-then-paths',
      pathOptions: ['-f', '--file', '--ignore-file'],
      patternOptions: ['-e', '-f', '--regexp', '--file', '--files', '--type-list'],
    };
  },
  get which(): ReadOnlySpec {
    return { options: { short: 'as' }, operands: 'text' };
  },
  get type(): ReadOnlySpec {
    return { options: { short: 'afptP' }, operands: 'text' };
  },
  get whoami(): ReadOnlySpec {
    return { options: {}, operands: 'none' };
  },
  get id(): ReadOnlySpec {
    return { options: { short: 'gGnruz' }, operands: 'text' };
  },
  get uname(): ReadOnlySpec {
    return {
      options: {
        short: 'asnrvmpio',
        long: names('--all --kernel-name --kernel-release --machine --operating-system'),
      },
      operands: 'none',
    };
  },
  get printenv(): ReadOnlySpec {
    return { options: { short: '0', long: ['--null'] }, operands: 'text' };
  },
  get date(): ReadOnlySpec {
    return {
      // No -s/--set, and no operand but +FORMAT (a bare operand sets the clock).
      options: {
        short: 'uR',
        shortValued: 'dIr',
        long: names('--utc --universal --rfc-email --debug'),
        longValued: names('--date --reference --rfc-3339'),
        longOptional: ['--iso-8601'],
      },
      operands: 'text',
      operandPattern: /^\+/,
      pathOptions: ['-r', '--reference'],
    };
  },
  get file(): ReadOnlySpec {
    return {
      options: {
        short: 'bhiLkNrsz0E',
        long: names(`
          --brief --mime --mime-type --mime-encoding --dereference --no-dereference --keep-going
        `),
      },
      operands: 'paths',
    };
  },
  get stat(): ReadOnlySpec {
    return {
      options: {
        short: 'fLt',
        shortValued: 'c',
        long: names('--dereference --file-system --terse'),
        longValued: names('--format --printf'),
      },
      operands: 'paths',
    };
  },
  get du(): ReadOnlySpec {
    return {
      options: {
        short: 'abcDhHklmPsSx0',
        shortValued: 'dBt',
        long: names(`
          --all --apparent-size --bytes --total --human-readable --si --summarize --separate-dirs
          --one-file-system --count-links --null
        `),
        longValued: names('--max-depth --block-size --threshold --exclude --time-style'),
        longOptional: ['--time'],
      },
      operands: 'paths',
    };
  },
  get df(): ReadOnlySpec {
    return {
      options: {
        short: 'ahHiklPTx',
        shortValued: 'Bt',
        long: names('--all --human-readable --si --inodes --local --portability'),
        longValued: names('--block-size --type --exclude-type --output'),
      },
      operands: 'paths',
    };
  },
  get tree(): ReadOnlySpec {
    return {
      options: { short: 'adfiqNQpugshDFvtrcUACSnJx', shortValued: 'LPI' },
      operands: 'paths',
    };
  },
  get basename(): ReadOnlySpec {
    return {
      options: {
        short: 'az',
        shortValued: 's',
        long: names('--multiple --zero'),
        longValued: ['--suffix'],
      },
      operands: 'text',
    };
  },
  get dirname(): ReadOnlySpec {
    return { options: { short: 'z', long: ['--zero'] }, operands: 'text' };
  },
  get realpath(): ReadOnlySpec {
    return {
      options: {
        short: 'eLmPqsz',
        long: names(`
          --canonicalize-existing --canonicalize-missing --logical --physical --quiet --strip
          --no-symlinks --zero
        `),
        longValued: names('--relative-to --relative-base'),
      },
      operands: 'text',
    };
  },
  get readlink(): ReadOnlySpec {
    return { options: { short: 'efmnqsvz' }, operands: 'text' };
  },
  get sort(): ReadOnlySpec {
    return {
      // Not -o/--output (writes), -T (temporary files), --compress-program (runs a program).
      options: {
        short: 'bdfgiMhnRrVcCsumz',
        shortValued: 'kSt',
        long: names(`
          --ignore-leading-blanks --dictionary-order --ignore-case --general-numeric-sort
          --ignore-nonprinting --month-sort --human-numeric-sort --numeric-sort --random-sort
          --reverse --version-sort --stable --unique --zero-terminated --merge
        `),
        longValued: names('--key --field-separator --buffer-size --parallel --sort'),
        longOptional: ['--check'],
      },
      operands: 'paths',
    };
  },
  get uniq(): ReadOnlySpec {
    return {
      options: {
        short: 'cdDiuz',
        shortValued: 'fsw',
        long: names('--count --repeated --ignore-case --unique --zero-terminated'),
        longValued: names('--skip-fields --skip-chars --check-chars'),
        longOptional: names('--all-repeated --group'),
      },
      operands: 'paths',
      maxOperands: 1,
    };
  },
  get cut(): ReadOnlySpec {
    return {
      options: {
        short: 'nsz',
        shortValued: 'bcdf',
        long: names('--complement --only-delimited --zero-terminated'),
        longValued: names('--bytes --characters --delimiter --fields --output-delimiter'),
      },
      operands: 'paths',
    };
  },
  get tr(): ReadOnlySpec {
    return { options: { short: 'cCdst' }, operands: 'text' };
  },
  get diff(): ReadOnlySpec {
    return {
      options: {
        short: 'qsyitbwBEZauNpTlcr',
        shortValued: 'UCFDIxW',
        long: names(`
          --brief --report-identical-files --side-by-side --ignore-case --ignore-all-space
          --ignore-space-change --ignore-blank-lines --text --new-file --show-c-function
          --expand-tabs --strip-trailing-cr --minimal --normal --suppress-common-lines --left-column
          --no-dereference --recursive
        `),
        longValued: names('--label --exclude --ignore-matching-lines --width --tabsize'),
        longOptional: names('--unified --context --color'),
      },
      // Walking folders, it follows the links it meets out of the workspace unless told not to.
      onlyWith: { '-r': ['--no-dereference'], '--recursive': ['--no-dereference'] },
      operands: 'paths',
    };
  },
  get comm(): ReadOnlySpec {
    return { options: { short: '123iz' }, operands: 'paths' };
  },
  get cmp(): ReadOnlySpec {
    return { options: { short: 'blsz', shortValued: 'in' }, operands: 'paths', maxOperands: 2 };
  },
  get seq(): ReadOnlySpec {
    return { options: { shortValued: 'fs', short: 'w' }, operands: 'text' };
  },
  get sha256sum(): ReadOnlySpec {
    return {
      options: { short: 'bztz', long: ['--binary', '--text', '--tag', '--zero'] },
      operands: 'paths',
    };
  },
  get md5sum(): ReadOnlySpec {
    return {
      options: { short: 'btz', long: ['--binary', '--text', '--tag', '--zero'] },
      operands: 'paths',
    };
  },
  get true(): ReadOnlySpec {
    return { options: {}, operands: 'text', anyText: true };
  },
  get false(): ReadOnlySpec {
    return { options: {}, operands: 'text', anyText: true };
  },
  get test(): ReadOnlySpec {
    return { options: {}, operands: 'text', anyText: true };
  },
  get env(): ReadOnlySpec {
    return {
      // Only reached when env runs no command: it prints the (already filtered) environment.
      options: {
        short: 'i0',
        shortValued: 'u',
        long: names('--null --ignore-environment'),
        longValued: ['--unset'],
      },
      operands: 'text',
      operandPattern: /^\w+=/,
    };
  },
  get node(): ReadOnlySpec {
    return { options: { short: 'v', long: ['--version'] }, operands: 'none' };
  },
};
