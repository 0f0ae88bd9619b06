/**
 * Commands handed a program as text in another language (`python3 -c`, `perl -e`, `node -e`,
 * an awk program calling `system`, sed's `e` command, tar's checkpoint actions, vim's `-c`):
 * that program may run any command, and the shell rules cannot read it. Like a shell script
 * toolhost does not parse, such a line cannot be checked against the person's Bash deny and
 * ask rules, so shell-permissions.ts refuses it (deny) or asks (ask) while such rules exist;
 * without them these commands ask or run as before. Programs read from files the project
 * holds (`python3 x.py`, `make`, `npm test`, git hooks) are not judged here: running the
 * project's own code is the person's call (docs/rules-trust-hooks.md, "What still gets
 * through").
 */
import type { ShellCommand } from './command-analysis.js';

/** Interpreters and the options after which the next word (or the rest) is program text. */
const CODE_OPTIONS: Record<string, RegExp> = {
  python: /^-[a-zA-Z]*c/,
  perl: /^-[a-zA-Z]*[eE]/,
  ruby: /^-[a-zA-Z]*e/,
  node: /^(-[a-zA-Z]*[ep]|--eval|--print)(=|$)/,
  nodejs: /^(-[a-zA-Z]*[ep]|--eval|--print)(=|$)/,
  bun: /^(-e|--eval|-p|--print)(=|$)/,
  deno: /^(eval|-e|--eval)$/,
  php: /^-[a-zA-Z]*[rRBE]/,
  lua: /^-[a-zA-Z]*e/,
  tclsh: /^-/,
  osascript: /^-e$/,
  vim: /^(-c|--cmd|\+.*|-S)$/,
  vi: /^(-c|--cmd|\+.*|-S)$/,
  nvim: /^(-c|--cmd|\+.*|-S|-l)$/,
  ex: /^(-c|--cmd|\+.*|-S)$/,
  emacs: /^(--eval|-l|--load|--batch|-batch)(=|$)/,
};
/** make's rules given on the line or standard input rather than the project's Makefile. */
const MAKE_TEXT =
  /^(--eval|-E)(=|$)|^(-f|--file=|--makefile=)(-|\/dev\/stdin|\/dev\/fd\/|\/proc\/)/;
const AWKS = new Set(['awk', 'gawk', 'mawk', 'nawk', 'busybox-awk']);
const TAR_RUNS =
  /^--(checkpoint-action|to-command|use-compress-program|info-script|new-volume-script|rsh-command)(=|$)|^-[a-zA-Z]*[IF]/;

/** The interpreter family of a program name (`python3.12` is python). */
function family(name: string): string {
  return /^python[0-9.]*$/.test(name) ? 'python' : /^perl[0-9.]*$/.test(name) ? 'perl' : name;
}

/** Why a command runs program text the rules cannot read, or null. */
export function inlineProgramProblem(command: ShellCommand): string | null {
  const { name, args } = command;
  const code = CODE_OPTIONS[family(name)];
  if (code && args.some((arg) => code.test(arg)))
    return `${name} is given a program as text, which may run any command`;
  if (AWKS.has(name)) {
    // The program is the first word that is no option, or the file of -f.
    if (args.some((arg, i) => /^-[a-zA-Z]*f/.test(arg) && command.literal[i]))
      return `${name} -f runs a program from a file`;
    if (args.some((arg, i) => !command.literal[i] || /system|\||getline/.test(arg)))
      return `${name}'s program may run commands (system, |, getline)`;
  }
  if (name === 'sed' && args.some((arg, i) => !command.literal[i] || sedRuns(arg)))
    return 'sed may run a command (its e command or flag)';
  if (
    /^g?make$/.test(name) &&
    args.some(
      (arg, i) =>
        MAKE_TEXT.test(arg) ||
        (/^(-f|--file|--makefile)$/.test(arg) &&
          /^(-|\/dev\/stdin|\/dev\/fd\/\d+|\/proc\/)/.test(args[i + 1] ?? '')),
    )
  )
    return `${name} is given its rules as text`;
  if (name === 'tar' && args.some((arg) => TAR_RUNS.test(arg)))
    return 'tar is told to run a program';
  return null;
}

/**
 * A sed script (or option) that could run a command: the `e` command, the `e` flag of `s`,
 * or a script file. Loose on purpose: any `e` standing where a command or an `s` flag can
 * stand counts, so a few harmless scripts are refused under deny rules too.
 */
function sedRuns(arg: string): boolean {
  if (/^(-[a-zA-Z]*f|--file)/.test(arg)) return true;
  if (
    /(^|[;{}\n])\s*(\d+|\$|\/(?:[^/\\]|\\.)*\/)?(\s*,\s*(\d+|\$|\/(?:[^/\\]|\\.)*\/))?\s*!?\s*e(\s|;|$)/.test(
      arg,
    )
  )
    return true;
  return /s(.)(?:(?!\1)[^\\]|\\.)*\1(?:(?!\1)[^\\]|\\.)*\1[gpIiMmw0-9]*e/.test(arg);
}
