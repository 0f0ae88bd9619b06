/**
 * Proves a command read-only against the allow-list (read-only-commands.ts, plus find and
 * git here): the command is listed, uses only its safe options, sets no variables, and
 * every file it reads lies inside the workspace roots and outside /proc, /sys and /dev
 * (except /dev/null). Each refusal is a sentence the person can read.
 */
import path from 'node:path';
import { resolveLikeKernel } from '../workspace/workspace-context.js';
import type { ShellCommand } from './command-analysis.js';
import { gitConfigProblem, gitProblem } from './git-read-only.js';
import { expandWord } from './glob-expansion.js';
import { hasOption, parseOptions } from './parse-options.js';
import { READ_ONLY_COMMANDS } from './read-only-commands.js';
import type { ShellWord } from './shell-words.js';

export interface ReadOnlyContext {
  /** The folder the line runs in (a real path). */
  cwd: string;
  /** True when an absolute path may be read (inside the workspace roots, links resolved). */
  canRead(absolutePath: string): boolean;
  homeDir: string;
  /** The Read deny rule (permissions/) that covers a file, so reading it is not read-only. */
  readDenied?(absolutePath: string): string | undefined;
  /** Collects what the check found a Read deny rule to cover (shell-permissions.ts refuses it). */
  deniedReads?: string[];
  /**
   * The Edit rule that decides writing a file (absolute path), if any speaks: output
   * redirections are judged by it (write-targets.ts).
   */
  writeRule?(absolutePath: string): { kind: 'allow' | 'ask' | 'deny'; rule: string } | undefined;
  /** Some Edit deny rule exists: a file written that is only known at run time is refused. */
  editDenyRules?: boolean;
  /** Some Edit ask rule exists: a file written that is only known at run time is asked about. */
  editAskRules?: string[];
  /** Why the repository's git config is unsafe for read-only git; defaults to reading it. */
  gitConfigProblem?(dir: string): string | null;
}

const SYSTEM_TREES = ['/proc', '/sys', '/dev'];

/** Why `command` is not proven read-only, or null when it is. */
export function readOnlyProblem(command: ShellCommand, context: ReadOnlyContext): string | null {
  const { name } = command;
  if (command.assignments.length > 0)
    return `it sets ${command.assignments.map((a) => a.split('=')[0]).join(', ')} for ${name}`;
  // `bash -c SCRIPT`: the script's own commands are judged one by one.
  if (command.runsCheckedScript) return null;
  if (command.appendsArgs)
    return `${command.via ?? 'a runner'} gives ${name} arguments only known when it runs`;
  const words: ShellWord[] = command.args.map((value, i) => ({
    value,
    literal: command.literal[i] ?? false,
  }));
  if (name === 'git') {
    return gitProblem(
      words,
      context.cwd,
      (word, cwd) => pathProblem(word, { ...context, cwd }),
      context.gitConfigProblem ?? ((dir) => gitConfigProblem(dir, context.canRead)),
      (word, cwd) => {
        const given = givenPath(word, { ...context, cwd });
        return typeof given === 'string' ? given : cwd;
      },
    );
  }
  if (name === 'find') return findProblem(words, context);
  if (!Object.hasOwn(READ_ONLY_COMMANDS, name))
    return `${name} is not on the list of read-only commands`;
  const spec = READ_ONLY_COMMANDS[name]!;
  if (spec.anyText) return textCommandProblem(name, words);

  const parsed = parseOptions(words, spec.options);
  if (!parsed.ok) return `${name}: ${parsed.problem}`;
  for (const option of parsed.options) {
    const needs = spec.onlyWith?.[option.name];
    if (needs && !hasOption(parsed, ...needs))
      return `${name} ${option.name} may follow links out of the workspace without ${needs.join(' or ')}`;
  }
  for (const option of parsed.options) {
    if (!spec.pathOptions?.includes(option.name)) continue;
    const problem = pathProblem(
      { value: option.value ?? '', literal: !!option.valueLiteral },
      context,
    );
    if (problem) return problem;
  }
  const operands = parsed.operands.map((index) => words[index]!);
  if (spec.operands === 'none' && operands.length > 0) return `${name} takes no arguments here`;
  if (spec.maxOperands !== undefined && operands.length > spec.maxOperands)
    return `${name} with ${operands.length} file names writes to the last one`;
  if (spec.operandPattern && operands.some((word) => !spec.operandPattern!.test(word.value)))
    return `${name} ${operands.map((w) => w.value).join(' ')} is not read-only`;
  if (spec.operands === 'text' || spec.operands === 'none') return null;
  const patternGiven = parsed.options.some((o) => spec.patternOptions?.includes(o.name));
  const files =
    spec.operands === 'pattern-then-paths' && !patternGiven ? operands.slice(1) : operands;
  for (const file of files) {
    const problem = pathProblem(file, context);
    if (problem) return problem;
  }
  return null;
}

function textCommandProblem(name: string, words: ShellWord[]): string | null {
  if (name === 'printf' && (words[0]?.value === '-v' || (words[0] && !words[0].literal)))
    return 'printf -v sets a variable';
  if ((name === 'test' || name === '[') && words.some((w) => w.value === '-v'))
    return `${name} -v evaluates a variable name`;
  return null;
}

/** Why reading `word` (a file argument) is not proven harmless, or null. */
export function pathProblem(word: ShellWord, context: ReadOnlyContext): string | null {
  if (word.value === '-' && word.literal) return null; // standard input
  if (!word.literal && !/[$`]/.test(word.value) && /[*?[{]/.test(word.value)) {
    // Judge every name bash would make of it, as it would make them now.
    const expanded = expandWord(word.value, context.cwd, (value) => expandTilde(value, context));
    if ('problem' in expanded) return expanded.problem;
    for (const value of expanded.words) {
      const absolute = path.isAbsolute(value) ? value : `${context.cwd}/${value}`;
      const problem = fileProblem(value, absolute, context);
      if (problem) return word.value === value ? problem : `${problem} (from ${word.value})`;
    }
    return null;
  }
  const given = givenPath(word, context);
  if (typeof given !== 'string') return given.problem;
  const value = word.literal ? word.value : (expandTilde(word.value, context) ?? word.value);
  return fileProblem(value, given, context);
}

/**
 * The absolute path a file argument names, `..` left in place: the kernel applies it after
 * following the links before it (`linkdir/../x` is the parent of where linkdir leads), so
 * collapsing it first (path.resolve) would judge another file. Or why it cannot be known.
 */
export function givenPath(word: ShellWord, context: ReadOnlyContext): string | { problem: string } {
  let value = word.value;
  if (!word.literal) {
    if (/[$`]/.test(value))
      return { problem: `the file ${value} is only known when the command runs` };
    const expanded = expandTilde(value, context);
    if (expanded === null)
      return { problem: `${value} starts with a ~ form whose folder toolhost does not know` };
    value = expanded;
    if (/[{}]/.test(value)) return { problem: `the file ${value} uses brace expansion` };
  }
  return path.isAbsolute(value) ? value : `${context.cwd}/${value}`;
}

/**
 * Bash's tilde prefixes: `~` (HOME) and `~+` (the working folder) are known; `~-` (the
 * previous folder), `~name` (another user's home) and `~N` (the folder stack) are not,
 * and give null. A word without a leading tilde is returned as it is.
 */
export function expandTilde(value: string, context: ReadOnlyContext): string | null {
  const prefix = /^~([^/]*)/.exec(value);
  if (!prefix) return value;
  const rest = value.slice(prefix[0].length);
  if (prefix[1] === '') return context.homeDir + rest;
  if (prefix[1] === '+') return context.cwd + rest;
  return null;
}

/** Where the kernel would open `absolute` (links followed, then `..`), for the /proc checks. */
function kernelPath(absolute: string): string {
  return resolveLikeKernel(absolute) ?? path.resolve(absolute);
}

export function fileProblem(
  shown: string,
  absolute: string,
  context: ReadOnlyContext,
): string | null {
  const real = kernelPath(absolute);
  if (real === '/dev/null') return null;
  for (const candidate of new Set([path.resolve(absolute), real])) {
    const tree = SYSTEM_TREES.find((t) => candidate === t || candidate.startsWith(`${t}/`));
    if (tree) return `${shown} is in ${tree}, outside the workspace`;
  }
  // The resolved path: a `canRead` that compares text would take `/ws/../x` for inside.
  if (!context.canRead(real)) return `${shown} is outside the workspace`;
  const rule = context.readDenied?.(path.resolve(absolute)) ?? context.readDenied?.(real);
  if (rule) {
    const problem = `${shown} is covered by the deny rule ${rule}`;
    context.deniedReads?.push(problem);
    return problem;
  }
  return null;
}

const FIND_TESTS_WITHOUT_VALUE = new Set(
  '-print -print0 -prune -quit -true -false -empty -readable -writable -executable -depth -xdev -mount -noleaf -daystart -nouser -nogroup -ignore_readdir_race -noignore_readdir_race -not -a -and -o -or ! ( ) , -ls -d'.split(
    ' ',
  ),
);
const FIND_TESTS_WITH_VALUE = new Set(
  '-name -iname -path -ipath -wholename -iwholename -regex -iregex -type -xtype -maxdepth -mindepth -size -mtime -mmin -atime -amin -ctime -cmin -used -perm -user -group -uid -gid -links -inum -lname -ilname -regextype -fstype -printf -context'.split(
    ' ',
  ),
);
const FIND_TESTS_WITH_PATH = /^-(newer|anewer|cnewer|samefile|newer[amcBt][amcBt])$/;
const FIND_ACTIONS: Record<string, string> = {
  '-exec': 'runs a command',
  '-execdir': 'runs a command',
  '-ok': 'runs a command',
  '-okdir': 'runs a command',
  '-delete': 'deletes files',
  '-fprint': 'writes a file',
  '-fprint0': 'writes a file',
  '-fprintf': 'writes a file',
  '-fls': 'writes a file',
};

function findProblem(words: ShellWord[], context: ReadOnlyContext): string | null {
  let i = 0;
  // Not -L (or -follow below): links met while walking may lead out of the workspace.
  while (i < words.length && /^-[HP]$/.test(words[i]!.value)) i++;
  for (; i < words.length; i++) {
    const word = words[i]!;
    if (word.literal && /^[-(!),]/.test(word.value)) break;
    const problem = pathProblem(word, context);
    if (problem) return problem;
  }
  for (; i < words.length; i++) {
    const word = words[i]!;
    if (!word.literal) return `find: ${word.value} is only known when the command runs`;
    const test = word.value;
    const action = FIND_ACTIONS[test];
    if (action) return `find ${test} ${action}`;
    if (FIND_TESTS_WITHOUT_VALUE.has(test)) continue;
    if (FIND_TESTS_WITH_VALUE.has(test)) {
      i++;
      continue;
    }
    if (FIND_TESTS_WITH_PATH.test(test)) {
      const file = words[++i];
      const problem = file ? pathProblem(file, context) : null;
      if (problem) return problem;
      continue;
    }
    return `find: ${test} is not known to be read-only`;
  }
  return null;
}
