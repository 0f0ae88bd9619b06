/**
 * The allow-list of commands that only read, with the options known to be safe for each:
 * a command runs without asking in `default` mode only when it is listed here and uses
 * nothing but these options. Anything else (an unknown option, a leading assignment, a
 * file outside the workspace) asks; the checks live in read-only-check.ts and the cases
 * that prove this table in read-only-commands.test.ts.
 */
import type { OptionSpec } from './parse-options.js';

export interface ReadOnlySpec {
  options: OptionSpec;
  /**
   * What the operands are: `paths` (files read, each checked against the workspace),
   * `text` (never opened: echo, basename), or `pattern-then-paths` (grep: the first operand
   * is a pattern unless -e/-f gave one).
   */
  operands: 'paths' | 'text' | 'pattern-then-paths' | 'none';
  /** Options whose value is a file the command reads (checked like path operands). */
  pathOptions?: readonly string[];
  /** Options that give the pattern, so every operand is a path. */
  patternOptions?: readonly string[];
  /** At most this many operands (uniq writes to its second). */
  maxOperands?: number;
  /** Takes anything as text, with no options to check (echo). */
  anyText?: boolean;
  /** Every operand must look like this (`date +FORMAT`; a bare operand sets the clock). */
  operandPattern?: RegExp;
}

function grep(): ReadOnlySpec {
  return {
    options: {
      short: 'EFGPiyvwxcLloqsbHhnTZzaIrRU',
      shortValued: 'efmABCdD',
      numeric: true,
      long: [
        '--extended-regexp',
        '--fixed-strings',
        '--basic-regexp',
        '--perl-regexp',
        '--ignore-case',
        '--no-ignore-case',
        '--invert-match',
        '--word-regexp',
        '--line-regexp',
        '--count',
        '--files-with-matches',
        '--files-without-match',
        '--only-matching',
        '--quiet',
        '--silent',
        '--no-messages',
        '--byte-offset',
        '--with-filename',
        '--no-filename',
        '--line-number',
        '--initial-tab',
        '--null',
        '--null-data',
        '--text',
        '--recursive',
        '--dereference-recursive',
        '--line-buffered',
      ],
      longValued: [
        '--regexp',
        '--file',
        '--max-count',
        '--after-context',
        '--before-context',
        '--context',
        '--include',
        '--exclude',
        '--exclude-dir',
        '--label',
        '--binary-files',
        '--devices',
        '--directories',
        '--exclude-from',
      ],
      longOptional: ['--color', '--colour'],
    },
    operands: 'pattern-then-paths',
    pathOptions: ['-f', '--file', '--exclude-from'],
    patternOptions: ['-e', '-f', '--regexp', '--file'],
  };
}

const HEAD_TAIL_LONG = ['--quiet', '--silent', '--verbose', '--zero-terminated'];

/**
 * Each entry is a getter that builds its spec when asked (cheap next to parsing a line), so
 * a change to one command's rules is tried against the tests of that command only: see
 * "Mutation testing" in the README.
 */
export const READ_ONLY_COMMANDS: Record<string, ReadOnlySpec> = {
  get ls(): ReadOnlySpec {
    return {
      options: {
        short: 'aAbBcCdfFgGhHiklLmnNopqQrRsStuUvwxXZ1',
        shortValued: 'IwT',
        long: [
          '--all',
          '--almost-all',
          '--human-readable',
          '--si',
          '--recursive',
          '--reverse',
          '--size',
          '--classify',
          '--directory',
          '--inode',
          '--numeric-uid-gid',
          '--dereference',
          '--group-directories-first',
          '--full-time',
          '--no-group',
          '--literal',
          '--author',
        ],
        longValued: [
          '--sort',
          '--time',
          '--time-style',
          '--format',
          '--indicator-style',
          '--hide',
          '--ignore',
          '--block-size',
          '--width',
          '--tabsize',
          '--quoting-style',
        ],
        longOptional: ['--color', '--hyperlink'],
      },
      operands: 'paths',
    };
  },
  get cat(): ReadOnlySpec {
    return {
      options: {
        short: 'AbeEnstTuv',
        long: [
          '--number',
          '--number-nonblank',
          '--show-all',
          '--show-ends',
          '--show-tabs',
          '--squeeze-blank',
          '--show-nonprinting',
        ],
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
        longValued: ['--lines', '--bytes'],
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
        longValued: ['--lines', '--bytes', '--sleep-interval', '--max-unchanged-stats', '--pid'],
        longOptional: ['--follow'],
      },
      operands: 'paths',
    };
  },
  get wc(): ReadOnlySpec {
    return {
      options: {
        short: 'clmwL',
        long: ['--bytes', '--chars', '--lines', '--words', '--max-line-length'],
        longValued: ['--files0-from'],
      },
      operands: 'paths',
      pathOptions: ['--files0-from'],
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
        short: 'iSsFwxvclLnNoqbHIuUaP0h.',
        shortValued: 'egtTmABCjMrEf',
        long: [
          '--files',
          '--hidden',
          '--no-ignore',
          '--no-ignore-vcs',
          '--no-ignore-parent',
          '--no-ignore-dot',
          '--ignore-case',
          '--smart-case',
          '--case-sensitive',
          '--fixed-strings',
          '--word-regexp',
          '--line-regexp',
          '--invert-match',
          '--count',
          '--count-matches',
          '--files-with-matches',
          '--files-without-match',
          '--line-number',
          '--no-line-number',
          '--only-matching',
          '--quiet',
          '--column',
          '--no-heading',
          '--heading',
          '--with-filename',
          '--no-filename',
          '--json',
          '--vimgrep',
          '--follow',
          '--multiline',
          '--multiline-dotall',
          '--pcre2',
          '--stats',
          '--sort-files',
          '--trim',
          '--no-messages',
          '--null',
          '--text',
          '--binary',
          '--no-config',
          '--type-list',
          '--unrestricted',
          '--byte-offset',
          '--passthru',
          '--crlf',
          '--no-require-git',
          '--one-file-system',
          '--glob-case-insensitive',
          '--max-columns-preview',
          '--pretty',
        ],
        longValued: [
          '--glob',
          '--iglob',
          '--type',
          '--type-not',
          '--max-count',
          '--max-depth',
          '--maxdepth',
          '--max-filesize',
          '--after-context',
          '--before-context',
          '--context',
          '--threads',
          '--max-columns',
          '--replace',
          '--regexp',
          '--file',
          '--sort',
          '--sortr',
          '--encoding',
          '--colors',
          '--type-add',
          '--context-separator',
          '--field-match-separator',
          '--path-separator',
          '--ignore-file',
        ],
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
        long: ['--all', '--kernel-name', '--kernel-release', '--machine', '--operating-system'],
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
        long: ['--utc', '--universal', '--rfc-email', '--debug'],
        longValued: ['--date', '--reference', '--rfc-3339'],
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
        long: [
          '--brief',
          '--mime',
          '--mime-type',
          '--mime-encoding',
          '--dereference',
          '--no-dereference',
          '--keep-going',
        ],
      },
      operands: 'paths',
    };
  },
  get stat(): ReadOnlySpec {
    return {
      options: {
        short: 'fLt',
        shortValued: 'c',
        long: ['--dereference', '--file-system', '--terse'],
        longValued: ['--format', '--printf'],
      },
      operands: 'paths',
    };
  },
  get du(): ReadOnlySpec {
    return {
      options: {
        short: 'abcDhHkLlmPsSx0',
        shortValued: 'dBt',
        long: [
          '--all',
          '--apparent-size',
          '--bytes',
          '--total',
          '--human-readable',
          '--si',
          '--summarize',
          '--separate-dirs',
          '--one-file-system',
          '--count-links',
          '--dereference',
          '--null',
        ],
        longValued: ['--max-depth', '--block-size', '--threshold', '--exclude', '--time-style'],
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
        long: ['--all', '--human-readable', '--si', '--inodes', '--local', '--portability'],
        longValued: ['--block-size', '--type', '--exclude-type', '--output'],
      },
      operands: 'paths',
    };
  },
  get tree(): ReadOnlySpec {
    return {
      options: { short: 'adlfiqNQpugshDFvtrcUACSnJx', shortValued: 'LPI' },
      operands: 'paths',
    };
  },
  get basename(): ReadOnlySpec {
    return {
      options: {
        short: 'az',
        shortValued: 's',
        long: ['--multiple', '--zero'],
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
        long: [
          '--canonicalize-existing',
          '--canonicalize-missing',
          '--logical',
          '--physical',
          '--quiet',
          '--strip',
          '--no-symlinks',
          '--zero',
        ],
        longValued: ['--relative-to', '--relative-base'],
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
        long: [
          '--ignore-leading-blanks',
          '--dictionary-order',
          '--ignore-case',
          '--general-numeric-sort',
          '--ignore-nonprinting',
          '--month-sort',
          '--human-numeric-sort',
          '--numeric-sort',
          '--random-sort',
          '--reverse',
          '--version-sort',
          '--stable',
          '--unique',
          '--zero-terminated',
          '--merge',
        ],
        longValued: ['--key', '--field-separator', '--buffer-size', '--parallel', '--sort'],
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
        long: ['--count', '--repeated', '--ignore-case', '--unique', '--zero-terminated'],
        longValued: ['--skip-fields', '--skip-chars', '--check-chars'],
        longOptional: ['--all-repeated', '--group'],
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
        long: ['--complement', '--only-delimited', '--zero-terminated'],
        longValued: ['--bytes', '--characters', '--delimiter', '--fields', '--output-delimiter'],
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
        short: 'qsyitbwBEZaurNpTlc',
        shortValued: 'UCFDIxW',
        long: [
          '--brief',
          '--report-identical-files',
          '--side-by-side',
          '--ignore-case',
          '--ignore-all-space',
          '--ignore-space-change',
          '--ignore-blank-lines',
          '--text',
          '--recursive',
          '--new-file',
          '--show-c-function',
          '--expand-tabs',
          '--strip-trailing-cr',
          '--minimal',
          '--normal',
          '--suppress-common-lines',
          '--left-column',
          '--no-dereference',
        ],
        longValued: ['--label', '--exclude', '--ignore-matching-lines', '--width', '--tabsize'],
        longOptional: ['--unified', '--context', '--color'],
      },
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
  get '['(): ReadOnlySpec {
    return { options: {}, operands: 'text', anyText: true };
  },
  get env(): ReadOnlySpec {
    return {
      // Only reached when env runs no command: it prints the (already filtered) environment.
      options: {
        short: 'i0',
        shortValued: 'u',
        long: ['--null', '--ignore-environment'],
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
