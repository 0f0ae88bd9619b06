/**
 * Commands that read every file below a folder they are given (`grep -r`, `rg`, `diff` of
 * folders) read what a Read deny rule covers when such a file lies below it, though the
 * line names only the folder. This file owns which commands walk which folders and the
 * bounded search below them; covered-reads.ts calls it for every command of a line. A
 * command whose folders are not known, or a folder too large to search, is a `could` (it
 * asks); a covered file found below is a `denied` (refused in every mode).
 */
import { type Dirent, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { commandWords } from './allowed-command-checks.js';
import type { ShellCommand } from './command-analysis.js';
import { expandWord } from './glob-expansion.js';
import { type ParsedArgs, parseOptions } from './parse-options.js';
import { expandTilde, givenPath, type ReadOnlyContext } from './read-only-check.js';
import { READ_ONLY_COMMANDS } from './read-only-commands.js';
import type { ShellWord } from './shell-words.js';

/**
 * Most entries looked at below the folders of one command: each is matched against the
 * Read deny rules (its real path resolved), some microseconds each. Past it the command asks.
 */
export const MAX_WALKED = 20_000;

const GREPS = new Set(['grep', 'egrep', 'fgrep', 'rg']);
/** Options after which grep and rg take no pattern operand. */
const PATTERN_OPTIONS = ['-e', '-f', '--regexp', '--file'];

/** What reading every file below a command's folders would read that a rule covers. */
export function coveredWalks(
  command: ShellCommand,
  context: ReadOnlyContext,
  found: { denied: string[]; could: string[] },
): void {
  const readDenied = context.readDenied;
  if (!readDenied) return;
  const walked = walkedWords(command);
  if (!walked) return;
  const { name } = command;
  const words = walked.length > 0 || name === 'diff' ? walked : [{ value: '.', literal: true }];
  for (const word of words) {
    const folders = foldersOf(word, context);
    if (typeof folders === 'string') {
      found.could.push(`${name} reads every file below ${word.value}: ${folders}`);
      continue;
    }
    for (const folder of folders) {
      const below = coveredBelow(folder, readDenied);
      if (below === 'too-many')
        found.could.push(
          `${name} reads every file below ${word.value}, too many to check against the Read deny rules`,
        );
      else if (below)
        found.denied.push(
          `${name} reads every file below ${word.value}, and ${path.relative(context.cwd, below.file) || below.file} is covered by the deny rule ${below.rule}`,
        );
    }
  }
}

/**
 * The operands a command walks as folders (an empty list: the working folder), or null
 * when it walks none. Options are read with the command's read-only table; when they do
 * not parse (an option not on it), every operand is taken for a folder, as is the working
 * folder, so that yolo mode does not run what the table does not know.
 */
function walkedWords(command: ShellCommand): ShellWord[] | null {
  const { name } = command;
  if (!GREPS.has(name) && name !== 'diff') return null;
  const words = commandWords(command);
  const spec = READ_ONLY_COMMANDS[name];
  const parsed: ParsedArgs = spec ? parseOptions(words, spec.options) : { ok: false, problem: '' };
  if (!parsed.ok) {
    const operands = words.filter((w) => !(w.literal && w.value.startsWith('-')));
    return name === 'diff' ? operands : [...operands, { value: '.', literal: true }];
  }
  const operands = parsed.operands.map((i) => words[i]!);
  if (name === 'diff') return operands;
  const has = (...names: string[]) => parsed.options.some((o) => names.includes(o.name));
  const recursive =
    name === 'rg' ||
    has('-r', '-R', '--recursive', '--dereference-recursive') ||
    parsed.options.some(
      (o) =>
        (o.name === '-d' || o.name === '--directories') && o.value !== 'read' && o.value !== 'skip',
    );
  if (!recursive) return null;
  return has(...PATTERN_OPTIONS) ? operands : operands.slice(1);
}

/** The folders a word names (globs expanded as bash would), or why they are not known. */
function foldersOf(word: ShellWord, context: ReadOnlyContext): string[] | string {
  let absolutes: string[];
  if (!word.literal && !/[$`]/.test(word.value) && /[*?[{]/.test(word.value)) {
    const expanded = expandWord(word.value, context.cwd, (value) => expandTilde(value, context));
    if ('problem' in expanded) return expanded.problem;
    absolutes = expanded.words.map((w) => path.resolve(context.cwd, w));
  } else {
    const given = givenPath(word, context);
    if (typeof given !== 'string') return given.problem;
    absolutes = [given];
  }
  return absolutes.filter((absolute) => {
    try {
      return statSync(absolute).isDirectory();
    } catch {
      return false;
    }
  });
}

/**
 * The first file or folder below `folder` a rule covers, 'too-many' past MAX_WALKED
 * entries, or null. Links met below are not followed but judged by where they lead too
 * (readDenied resolves them), since `grep -R` and `rg -L` follow them.
 */
export function coveredBelow(
  folder: string,
  readDenied: (absolutePath: string) => string | undefined,
): { file: string; rule: string } | 'too-many' | null {
  const pending = [folder];
  let seen = 0;
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable: the command cannot read it either
    }
    for (const entry of entries) {
      if (++seen > MAX_WALKED) return 'too-many';
      const file = path.join(dir, entry.name);
      const rule = readDenied(file);
      if (rule) return { file, rule };
      if (entry.isDirectory()) pending.push(file);
    }
  }
  return null;
}
