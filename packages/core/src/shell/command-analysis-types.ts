/**
 * What command-analysis.ts finds in a shell line: each command it would run, and what of
 * the line cannot be checked. Its own module so that the helpers that fill it in
 * (command-invocation.ts, output-options.ts) need not import the analysis that calls them.
 */
import type { ShellWord } from './shell-words.js';

export interface ShellCommand {
  /** The program name (`rm`, never `/bin/rm`). */
  name: string;
  args: string[];
  /** For each argument: true when its value is known exactly before the line runs. */
  literal: boolean[];
  /** The source text of this command. */
  text: string;
  /** `NAME=value` set for this command (before it, or given to `env`/`sudo`). */
  assignments: string[];
  /** A runner (xargs, `find -exec … +`) adds arguments only known when it runs. */
  appendsArgs: boolean;
  /** The runner it was found behind (`xargs`, `find -exec`), for messages. */
  via?: string;
  /** A shell given its script with -c, which is parsed and judged command by command. */
  runsCheckedScript?: boolean;
  /** The program as written when it is a path (`./ls`, `/usr/bin/git`): not looked up on PATH. */
  program?: string;
}

export interface CommandAnalysis {
  commands: ShellCommand[];
  /** `$(...)`, backticks, `<(...)`, `>(...)`: shown to the person, never approved by a rule. */
  substitutions: string[];
  /** Files that output redirections write to. */
  writes: string[];
  /** The same files as words, for the Edit rules (write-targets.ts). */
  writeTargets: ShellWord[];
  /** Files that input redirections read. */
  reads: ShellWord[];
  /** Why part of the line cannot be checked (a program name built at run time...). */
  unclear: string[];
  /** Things that are no command but are not read-only either (setting variables, `[[ ]]`). */
  notReadOnly: string[];
}
