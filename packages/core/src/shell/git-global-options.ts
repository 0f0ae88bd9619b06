/**
 * git's own options, the ones before the subcommand (`git -C dir -c k=v --no-pager push`):
 * read as git reads them, so rules are matched against the subcommand that runs (a
 * `Bash(git push:*)` deny holds for `git -C . push`), and the options that change
 * configuration, the repository or the programs git runs are known by name.
 */
import type { ShellWord } from './shell-words.js';

/** Options git takes without a value. */
const FLAGS = new Set([
  '-p',
  '--paginate',
  '-P',
  '--no-pager',
  '--no-replace-objects',
  '--no-lazy-fetch',
  '--no-optional-locks',
  '--no-advice',
  '--bare',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
]);

/** Options whose value is the next word or follows `=` (`-C` and `-c`: the next word only). */
const VALUED = new Set([
  '-C',
  '-c',
  '--config-env',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--super-prefix',
  '--attr-source',
  '--list-cmds',
]);
const ONLY_NEXT_WORD = new Set(['-C', '-c']);

/** Options that print something and end git before any subcommand runs. */
const ENDING = new Set([
  '-v',
  '--version',
  '-h',
  '--help',
  '--html-path',
  '--man-path',
  '--info-path',
]);

/**
 * Options that make git read other configuration, work on another repository or run other
 * programs: git then may run any program (an alias `!cmd`, a pager, an external diff, a
 * hook), so a line with one cannot be checked against rules for commands.
 */
export const GIT_CONFIG_CHANGING: Readonly<Record<string, string>> = {
  '-c': 'sets git configuration, which can name programs for git to run',
  '--config-env': 'sets git configuration, which can name programs for git to run',
  '--exec-path': 'makes git run its subcommands from another folder',
  '--git-dir': 'makes git use another repository, whose configuration can run programs',
  '--work-tree': 'makes git use another work tree',
  '--super-prefix': 'is an internal option of git',
  '--attr-source': 'makes git read attributes (diff and filter drivers) from a tree',
};

export interface GitGlobalOption {
  name: string;
  value?: ShellWord;
}

export interface GitGlobals {
  options: GitGlobalOption[];
  /** Index of the subcommand in the arguments (args.length when there is none). */
  subcommandAt: number;
  /** Why the options could not be read (an unknown option, a word known only at run time). */
  problem?: string;
  /** git prints something (its version, its help) and runs no subcommand. */
  ends?: boolean;
}

/** git's own options in `args` (the words after `git`). */
export function gitGlobals(args: readonly ShellWord[]): GitGlobals {
  const options: GitGlobalOption[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (!word.literal)
      return word.value.startsWith('-') || /^[$`*?[{]/.test(word.value)
        ? { options, subcommandAt: i, problem: `${word.value} is only known when git runs` }
        : { options, subcommandAt: i };
    const text = word.value;
    if (!text.startsWith('-')) return { options, subcommandAt: i };
    if (ENDING.has(text)) return { options, subcommandAt: args.length, ends: true };
    if (FLAGS.has(text)) {
      options.push({ name: text });
      continue;
    }
    const equals = text.indexOf('=');
    const name = equals === -1 ? text : text.slice(0, equals);
    if (name === '--exec-path') {
      // Without a value it prints the folder and ends.
      if (equals === -1) return { options, subcommandAt: args.length, ends: true };
      options.push({ name, value: { value: text.slice(equals + 1), literal: true } });
      continue;
    }
    if (!VALUED.has(name))
      return {
        options,
        subcommandAt: i,
        problem: `git's option ${text} is not one toolhost knows`,
      };
    if (equals !== -1 && !ONLY_NEXT_WORD.has(name)) {
      options.push({ name, value: { value: text.slice(equals + 1), literal: true } });
      continue;
    }
    if (equals !== -1)
      return {
        options,
        subcommandAt: i,
        problem: `git's option ${text} is not one toolhost knows`,
      };
    const value = args[i + 1];
    if (!value) return { options, subcommandAt: args.length, problem: `git ${name} needs a value` };
    options.push({ name, value });
    i++;
  }
  return { options, subcommandAt: args.length };
}

/**
 * The words rules compare for a git command: `git`, then the subcommand and what follows,
 * git's own options left out. Where those options cannot be read, a word known only at run
 * time stands in for them, so a deny or ask rule still matches (it cannot be ruled out)
 * and an allow rule does not.
 */
export function gitRuleView(args: readonly ShellWord[]): ShellWord[] | undefined {
  const globals = gitGlobals(args);
  if (globals.options.length === 0 && !globals.problem) return undefined;
  const rest = args.slice(globals.subcommandAt);
  return globals.problem ? [{ value: '<git option>', literal: false }, ...rest] : rest;
}
