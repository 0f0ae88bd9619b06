/**
 * The rest of the writers' table (operand-writers.ts): editors in place (`sed -i`,
 * `perl -i`), programs whose output names follow from their input (gzip, gunzip, split,
 * csplit), archives (tar, unzip), patch and git's commands that change named files in the work tree.
 * Where the files are only known when the program runs (an archive's or a patch's
 * contents, split's numbered pieces, `git checkout BRANCH`), the write is a string saying
 * so: a file only known when it runs.
 */

import { gitGlobals } from './git-global-options.js';
import {
  type GetoptSpec,
  getopt,
  has,
  optionValue,
  type Writer,
  type WriteTarget,
} from './operand-getopt.js';
import type { ShellWord } from './shell-words.js';

const SED: GetoptSpec = {
  short: 'bnErsuz',
  valued: 'efl',
  long: [
    '--help',
    '--version',
    '--binary',
    '--quiet',
    '--silent',
    '--regexp-extended',
    '--separate',
    '--unbuffered',
    '--null-data',
    '--posix',
    '--debug',
    '--sandbox',
    '--follow-symlinks',
  ],
  longValued: ['--expression', '--file', '--line-length'],
  longOptional: ['--in-place'],
};

/** `sed -i` (`-i.bak`, `-ni`, `--in-place=.bak`) rewrites its files; plain sed writes none. */
const sed: Writer = (words) => {
  // -i takes an optional attached suffix, which getopt's tables cannot say: taken out first.
  let inPlace = false;
  const rest: ShellWord[] = [];
  for (const [i, word] of words.entries()) {
    const bundle = word.literal ? /^-([bnErsuz]*)i/.exec(word.value) : null;
    const previous = words[i - 1];
    const isValue = previous?.literal && /^-[bnErsuz]*[efl]$/.test(previous.value);
    if (bundle && !isValue && !words.slice(0, i).some((w) => w.literal && w.value === '--')) {
      inPlace = true;
      if (bundle[1]) rest.push({ value: `-${bundle[1]}`, literal: true });
    } else rest.push(word);
  }
  const parsed = getopt(rest, SED);
  // GNU sed takes abbreviations (`--in-pl`): an option not known may be --in-place.
  if (typeof parsed === 'string') return parsed;
  if (!inPlace && !has(parsed, '--in-place')) return [];
  const scriptGiven = has(parsed, '-e', '-f', '--expression', '--file');
  return (scriptGiven ? parsed.operands : parsed.operands.slice(1)).map((word) => ({ word }));
};

/** `perl -i` (`-pi`, `-i.bak`, `-pie`) rewrites the files after its script. */
const perl: Writer = (words) => {
  let inPlace = false;
  let scriptGiven = false;
  let i = 0;
  for (; i < words.length; i++) {
    const word = words[i]!;
    if (!word.literal) return `the argument ${word.value} is only known when it runs`;
    if (word.value === '--') {
      i++;
      break;
    }
    if (!word.value.startsWith('-') || word.value === '-') break;
    for (let k = 1; k < word.value.length; k++) {
      const letter = word.value[k]!;
      if (letter === 'i') {
        inPlace = true;
        break; // the rest is the backup suffix
      }
      if (letter === 'e' || letter === 'E') {
        scriptGiven = true;
        if (k === word.value.length - 1) i++; // the script is the next word
        break;
      }
      // -0 and -l take digits, -C digits or letters, and further switches may follow.
      if (letter === '0' || letter === 'l')
        k += /^(x[0-9a-fA-F]*|[0-7]*)/.exec(word.value.slice(k + 1))![0].length;
      else if (letter === 'C') k += /^[0-9IOEioeSAL]*/.exec(word.value.slice(k + 1))![0].length;
      else if ('IMmxdD'.includes(letter)) break; // takes the rest of the word
    }
  }
  if (!inPlace) return [];
  const files = words.slice(scriptGiven ? i : i + 1);
  return files.map((word) => ({ word }));
};

/** Output files named after the input (`f` → `f.gz`), or the input's name without it. */
function compressor(suffix: string, decompress: boolean, strips: string[]): Writer {
  return (words) => {
    const parsed = getopt(words, {
      short: 'cdfhklLnNqrtvV123456789',
      valued: 'S',
      long: [
        '--stdout',
        '--to-stdout',
        '--decompress',
        '--uncompress',
        '--force',
        '--keep',
        '--list',
        '--no-name',
        '--name',
        '--quiet',
        '--recursive',
        '--test',
        '--verbose',
        '--fast',
        '--best',
        '--rsyncable',
        '--synchronous',
      ],
      longValued: ['--suffix'],
    });
    if (typeof parsed === 'string') return parsed;
    if (has(parsed, '-c', '--stdout', '--to-stdout', '-t', '--test', '-l', '--list')) return [];
    const unpacking = decompress || has(parsed, '-d', '--decompress', '--uncompress');
    if (unpacking && has(parsed, '-N', '--name'))
      return 'it takes the output names from inside the files';
    const own = optionValue(parsed, '-S', '--suffix')?.value;
    const below = has(parsed, '-r', '--recursive');
    const targets: WriteTarget[] = [];
    for (const word of parsed.operands) {
      targets.push({ word, below }); // removed unless -k
      if (!word.literal) continue; // a pattern: its outputs lie beside it, judged below
      const strip = [own ?? suffix, ...strips].find((s) => word.value.endsWith(s));
      const output = unpacking
        ? strip && `${word.value.slice(0, -strip.length)}${strip === '.tgz' ? '.tar' : ''}`
        : `${word.value}${own ?? suffix}`;
      if (output) targets.push({ word: { value: output, literal: true }, below });
    }
    return targets;
  };
}

/** tar: the archive with -c/-r/-u/--delete; extraction writes files only known when it runs. */
const tar: Writer = (words) => {
  let mode = '';
  let archive: ShellWord | undefined;
  let toStdout = false;
  const valued = 'fCbTXKNLgHVIF';
  const take = (i: number) => words[i];
  let next = 1;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (!word.literal) continue;
    const text = word.value;
    if (text === '--') break;
    if (text.startsWith('--')) {
      const [name, inline] = text.split(/=(.*)/s);
      // tar takes abbreviations (`--extr`): a prefix of a mode is read as that mode.
      const is = (...full: string[]) => full.some((f) => name!.length >= 4 && f.startsWith(name!));
      if (is('--extract', '--get')) mode = 'x';
      else if (is('--create', '--append', '--update', '--delete', '--concatenate', '--catenate'))
        mode = 'c';
      else if (name!.length >= 6 && (is('--to-stdout') || is('--to-command'))) toStdout = true;
      else if (name!.length >= 5 && is('--file'))
        archive = inline !== undefined ? { value: inline, literal: true } : take(++i);
      continue;
    }
    // The first word may be a bundle without its dash (`tar xzf a.tar`).
    const bundle = text.startsWith('-') ? text.slice(1) : i === 0 ? text : '';
    next = Math.max(next, i + 1);
    for (let k = 0; k < bundle.length; k++) {
      const letter = bundle[k]!;
      if (letter === 'x') mode = 'x';
      else if ('cruA'.includes(letter)) mode = 'c';
      else if (letter === 'O') toStdout = true;
      if (!valued.includes(letter)) continue;
      // Old style takes each value from the next words in turn; new style takes the rest.
      const value =
        text.startsWith('-') && k < bundle.length - 1
          ? { value: bundle.slice(k + 1), literal: true }
          : take(text.startsWith('-') ? ++i : next++);
      if (letter === 'f') archive = value;
      if (text.startsWith('-')) break;
    }
    if (!text.startsWith('-')) i = Math.max(i, next - 1);
  }
  if (mode === 'c')
    return archive && !(archive.literal && archive.value === '-') ? [{ word: archive }] : [];
  if (mode === 'x' && !toStdout) return 'it extracts files named inside the archive';
  return [];
};

/** git commands that change named files in the work tree (others: the sandbox's part). */
const GIT_WRITERS = new Set(['rm', 'mv', 'checkout', 'restore', 'apply', 'stash', 'clean']);

const git: Writer = (words) => {
  const globals = gitGlobals(words);
  if (globals.problem) return globals.problem;
  const sub = words[globals.subcommandAt];
  if (!sub?.literal || !GIT_WRITERS.has(sub.value)) return [];
  // Paths are then taken from the folder -C or --work-tree names: not followed here.
  const before = words.slice(0, globals.subcommandAt);
  if (before.some((w) => /^(-C|--work-tree|--git-dir)/.test(w.value)))
    return `git ${sub.value} runs in another folder`;
  const args = words.slice(globals.subcommandAt + 1);
  const literal = (...names: string[]) => args.some((w) => w.literal && names.includes(w.value));
  const afterDashes = () => {
    const at = args.findIndex((w) => w.literal && w.value === '--');
    return at === -1 ? undefined : args.slice(at + 1);
  };
  const paths = (list: ShellWord[]) => list.map((word) => ({ word, below: true }));
  switch (sub.value) {
    case 'rm':
    case 'mv':
      return paths(args.filter((w) => !(w.literal && w.value.startsWith('-'))));
    case 'checkout':
    case 'restore':
      // Every word may be a path (`git checkout .env` restores it); a branch name judged as a
      // file is harmless. Switching branches without naming files is left to the sandbox.
      return paths(afterDashes() ?? args.filter((w) => !(w.literal && w.value.startsWith('-'))));
    case 'apply':
      if (literal('--check', '--stat', '--numstat', '--summary') && !literal('--apply')) return [];
      return 'git apply changes the files the patch names';
    case 'stash': {
      const named = afterDashes();
      return named ? paths(named) : [];
    }
    case 'clean':
      if (literal('-n', '--dry-run')) return [];
      return 'git clean removes files only known when it runs';
    default:
      return [];
  }
};

export const MORE_WRITERS: Record<string, Writer> = {
  sed,
  perl,
  gzip: compressor('.gz', false, ['.gz', '.z', '-gz', '.tgz']),
  gunzip: compressor('.gz', true, ['.gz', '.z', '-gz', '.tgz']),
  bzip2: compressor('.bz2', false, ['.bz2', '.tbz2']),
  bunzip2: compressor('.bz2', true, ['.bz2']),
  xz: compressor('.xz', false, ['.xz']),
  unxz: compressor('.xz', true, ['.xz']),
  split: () => 'split writes numbered pieces named after its prefix',
  csplit: () => 'csplit writes numbered pieces named after its prefix',
  tar,
  unzip: (words) =>
    words.some((w) => w.literal && /^-[a-zA-Z]*[lptvZ]/.test(w.value))
      ? []
      : 'it extracts files named inside the archive',
  patch: (words) =>
    words.some((w) => w.literal && w.value === '--dry-run')
      ? []
      : 'patch changes the files the patch names',
  git,
};
