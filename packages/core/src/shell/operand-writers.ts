/**
 * Which operands well-known programs write, create, remove, move or change (the table
 * operand-writes.ts judges by the Edit rules): file utilities here, editors in place,
 * archivers, patch and git in operand-writers-more.ts. Options are read as getopt reads
 * them (bundled short options, `--`, values attached or in the next word, options after
 * operands); an option not listed makes the whole command's writes unknown (a string),
 * never harmless.
 */
import {
  type GetoptSpec,
  getopt,
  has,
  optionValue,
  type Writer,
  type WriteTarget,
} from './operand-getopt.js';
import { MORE_WRITERS } from './operand-writers-more.js';

/** Every operand is written (`touch`, `rm`, `tee`...). */
function allOperands(spec: GetoptSpec, recursive: string[] = []): Writer {
  return (words) => {
    const parsed = getopt(words, spec);
    if (typeof parsed === 'string') return parsed;
    const below = recursive.length > 0 && has(parsed, ...recursive);
    return parsed.operands.map((word) => ({ word, below }));
  };
}

/**
 * `cp`, `mv`, `ln`, `install`: the destination is `-t DIR` (each source's name inside it),
 * or the last operand, which may be a file or a folder: both it and each source's name
 * inside it are judged (operand-writes.ts expands the sources first).
 */
function copier(
  spec: GetoptSpec,
  options: { sourcesWritten?: boolean; recursive?: string[]; single?: 'here' },
): Writer {
  return (words) => {
    const parsed = getopt(words, spec);
    if (typeof parsed === 'string') return parsed;
    const below =
      (!!options.recursive && has(parsed, ...options.recursive)) || !!options.sourcesWritten;
    const targets: WriteTarget[] = [];
    const folder = optionValue(parsed, '-t', '--target-directory');
    let sources = parsed.operands;
    if (folder) {
      for (const source of sources) targets.push({ word: source, into: folder, below });
    } else if (sources.length === 1 && options.single === 'here') {
      // `ln -s ../x` makes ./x.
      targets.push({ word: sources[0]!, into: { value: '.', literal: true } });
    } else {
      const destination = sources.at(-1);
      if (!destination) return targets;
      sources = sources.slice(0, -1);
      // With -T a folder is copied or moved as the destination itself.
      const itself = has(parsed, '-T', '--no-target-directory');
      targets.push({ word: destination, below: itself && below });
      if (!itself)
        for (const source of sources) targets.push({ word: source, into: destination, below });
    }
    if (options.sourcesWritten) for (const word of sources) targets.push({ word, below: true });
    return targets;
  };
}

/** `chmod`, `chown`, `chgrp`: the first operand is the mode or owner unless --reference. */
function changer(spec: GetoptSpec, modes: boolean): Writer {
  return (words) => {
    // chmod's `-w`, `-x` are modes, not options: they are taken out before getopt.
    const mode = modes ? words.findIndex((w) => w.literal && /^-[rwxXst]+$/.test(w.value)) : -1;
    const rest = mode === -1 ? words : words.filter((_, i) => i !== mode);
    const parsed = getopt(rest, spec);
    if (typeof parsed === 'string') return parsed;
    const named = mode !== -1 || has(parsed, '--reference');
    const files = named ? parsed.operands : parsed.operands.slice(1);
    const below = has(parsed, '-R', '--recursive');
    return files.map((word) => ({ word, below }));
  };
}

const CHANGER = {
  short: 'cfvhRHLP',
  long: [
    '--changes',
    '--silent',
    '--quiet',
    '--verbose',
    '--recursive',
    '--dereference',
    '--no-dereference',
    '--preserve-root',
    '--no-preserve-root',
  ],
  longValued: ['--reference', '--from'],
};

const COPY_LONG = ['--force', '--interactive', '--verbose', '--no-target-directory', '--debug'];

export const WRITERS: Record<string, Writer> = {
  touch: allOperands({
    short: 'acfhm',
    valued: 'dtr',
    long: ['--no-create', '--no-dereference'],
    longValued: ['--date', '--reference', '--time'],
  }),
  mkdir: allOperands({
    short: 'pv',
    valued: 'mZ',
    long: ['--parents', '--verbose'],
    longValued: ['--mode'],
    longOptional: ['--context'],
  }),
  rmdir: allOperands({
    short: 'pv',
    long: ['--parents', '--verbose', '--ignore-fail-on-non-empty'],
  }),
  rm: allOperands(
    {
      short: 'fiIrRdv',
      long: [
        '--force',
        '--recursive',
        '--dir',
        '--verbose',
        '--one-file-system',
        '--preserve-root',
        '--no-preserve-root',
      ],
      longOptional: ['--interactive'],
    },
    ['-r', '-R', '--recursive'],
  ),
  unlink: allOperands({}),
  shred: allOperands({
    short: 'fuvxz',
    valued: 'ns',
    long: ['--force', '--verbose', '--exact', '--zero', '--remove'],
    longValued: ['--iterations', '--size', '--random-source'],
    longOptional: ['--remove'],
  }),
  tee: allOperands({
    short: 'aip',
    long: ['--append', '--ignore-interrupts'],
    longOptional: ['--output-error'],
  }),
  truncate: allOperands({
    short: 'co',
    valued: 'rs',
    long: ['--no-create', '--io-blocks'],
    longValued: ['--reference', '--size'],
  }),
  cp: copier(
    {
      short: 'abdfHilLnPprRsTuvxl',
      valued: 'St',
      long: [
        ...COPY_LONG,
        '--archive',
        '--link',
        '--dereference',
        '--no-dereference',
        '--no-clobber',
        '--parents',
        '--recursive',
        '--symbolic-link',
        '--one-file-system',
        '--remove-destination',
        '--strip-trailing-slashes',
        '--attributes-only',
        '--copy-contents',
      ],
      longValued: ['--suffix', '--target-directory', '--no-preserve'],
      longOptional: ['--backup', '--preserve', '--reflink', '--sparse', '--update'],
    },
    { recursive: ['-r', '-R', '-a', '--recursive', '--archive'] },
  ),
  mv: copier(
    {
      short: 'bfinTuvZ',
      valued: 'St',
      long: [
        ...COPY_LONG,
        '--no-clobber',
        '--strip-trailing-slashes',
        '--exchange',
        '--no-copy',
        '--context',
      ],
      longValued: ['--suffix', '--target-directory'],
      longOptional: ['--backup', '--update'],
    },
    { sourcesWritten: true },
  ),
  ln: copier(
    {
      short: 'bdFfinLPrsTv',
      valued: 'St',
      long: [
        ...COPY_LONG,
        '--directory',
        '--logical',
        '--no-dereference',
        '--physical',
        '--relative',
        '--symbolic',
      ],
      longValued: ['--suffix', '--target-directory'],
      longOptional: ['--backup'],
    },
    { single: 'here' },
  ),
  install: (words) => {
    const spec: GetoptSpec = {
      short: 'bcCdDpsTvZ',
      valued: 'gmoSt',
      long: [
        ...COPY_LONG,
        '--compare',
        '--directory',
        '--preserve-timestamps',
        '--strip',
        '--preserve-context',
      ],
      longValued: [
        '--group',
        '--mode',
        '--owner',
        '--suffix',
        '--target-directory',
        '--strip-program',
      ],
      longOptional: ['--backup', '--context'],
    };
    const parsed = getopt(words, spec);
    if (typeof parsed === 'string') return parsed;
    if (has(parsed, '-d', '--directory')) return parsed.operands.map((word) => ({ word }));
    return copier(spec, {})(words);
  },
  chmod: changer(CHANGER, true),
  chown: changer(CHANGER, false),
  chgrp: changer(CHANGER, false),
  dd: (words) => {
    const targets: WriteTarget[] = [];
    for (const word of words) {
      if (!word.literal) return `the argument ${word.value} is only known when it runs`;
      if (word.value.startsWith('of='))
        targets.push({ word: { value: word.value.slice(3), literal: true } });
    }
    return targets;
  },
  ...MORE_WRITERS,
};
