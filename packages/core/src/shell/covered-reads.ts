/**
 * What a line's commands read that the person's Read deny rules cover: the files its
 * commands name (glob patterns expanded as bash would), its input redirections, and the
 * repository content git prints (git-content-paths.ts). A file named is refused in every
 * approval mode; what could be one (a pattern too large to expand, git printing content
 * without naming files) asks.
 */

import { commandWords } from './allowed-command-checks.js';
import type { CommandAnalysis, ShellCommand } from './command-analysis.js';
import { GIT_NAMES_ONLY, gitContentProblem } from './git-content-paths.js';
import { gitGlobals } from './git-global-options.js';
import { expandWord } from './glob-expansion.js';
import {
  expandTilde,
  pathProblem,
  type ReadOnlyContext,
  readOnlyProblem,
} from './read-only-check.js';
import { READ_ONLY_COMMANDS } from './read-only-commands.js';

/**
 * What the line's commands read that a Read deny rule covers (`denied`), or could (`could`:
 * a git form printing content without naming the files). Every command is looked at,
 * allowed or not: a rule allowing `cat` does not allow reading what Read denies.
 */
export function readsOfCovered(
  analysis: CommandAnalysis,
  context: ReadOnlyContext,
): { denied: string[]; could: string[] } {
  const readDenied = context.readDenied;
  const found = { denied: [] as string[], could: [] as string[] };
  if (!readDenied) return found;
  const collecting: ReadOnlyContext = { ...context, deniedReads: found.denied };
  for (const command of analysis.commands) {
    if (command.name === 'git') {
      const content = gitContentProblem(commandWords(command), context.cwd, { readDenied });
      if (content) (content.denied ? found.denied : found.could).push(content.problem);
    }
    readOnlyProblem(command, collecting);
    coveredArguments(command, collecting, found.could);
  }
  for (const read of analysis.reads) pathProblem(read, collecting);
  return found;
}

/**
 * Every argument of a command that names a file (or a pattern of files) is looked at, not
 * only those of commands known to read: `cp`, `base64` or a script runner given a file a
 * Read deny rule covers would read it as well. Commands that only print their arguments
 * (echo, printf) are left out.
 */
function coveredArguments(command: ShellCommand, context: ReadOnlyContext, could: string[]): void {
  const spec = Object.hasOwn(READ_ONLY_COMMANDS, command.name)
    ? READ_ONLY_COMMANDS[command.name]
    : undefined;
  if (spec?.anyText || spec?.operands === 'text' || spec?.operands === 'none') return;
  let from = 0;
  if (command.name === 'git') {
    // What git prints of the repository is judged by gitContentProblem.
    from = gitGlobals(commandWords(command)).subcommandAt;
    if (GIT_NAMES_ONLY.has(command.args[from] ?? '')) return;
  }
  // grep's pattern, unless an option gave it, names no file (`grep .env .gitignore`).
  let pattern = spec?.operands === 'pattern-then-paths';
  for (const [i, value] of command.args.entries()) {
    if (i < from) continue;
    const literal = command.literal[i] ?? false;
    if (pattern && literal && spec?.patternOptions?.some((o) => value.startsWith(o)))
      pattern = false;
    if (pattern && !(literal && value.startsWith('-'))) {
      pattern = false;
      continue;
    }
    if (literal && value.startsWith('-')) {
      const attached = /^--?[\w-]+=(.+)$/s.exec(value);
      if (attached) pathProblem({ value: attached[1]!, literal: true }, context);
      continue;
    }
    if (!literal && /[$`]/.test(value)) continue; // known only when it runs
    if (!literal && /[*?[{]/.test(value)) {
      const expanded = expandWord(value, context.cwd, (word) => expandTilde(word, context));
      if ('problem' in expanded) {
        could.push(`${expanded.problem}, so it may name a file a Read deny rule covers`);
        continue;
      }
    }
    pathProblem({ value, literal }, context);
  }
}
