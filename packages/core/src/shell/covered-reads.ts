/**
 * What a line's commands read that the person's Read deny rules cover: the files its
 * commands name (glob patterns expanded as bash would), its input redirections, and the
 * repository content git prints (git-content-paths.ts). A file named is refused in every
 * approval mode; what could be one (a pattern too large to expand, git printing content
 * without naming files) asks.
 */

import path from 'node:path';
import { commandWords } from './allowed-command-checks.js';
import type { CommandAnalysis, ShellCommand } from './command-analysis.js';
import { coveredWalks } from './covered-walks.js';
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
/** Builtins after which relative names mean files in another folder. */
const FOLDER_CHANGES = new Set(['cd', 'pushd', 'popd']);
/** Folders a line may have moved to that are followed at most. */
const MAX_FOLDERS = 16;

export function readsOfCovered(
  analysis: CommandAnalysis,
  context: ReadOnlyContext,
): { denied: string[]; could: string[] } {
  const readDenied = context.readDenied;
  const found = { denied: [] as string[], could: [] as string[] };
  if (!readDenied) return found;
  // Every folder the commands may run in: after `cd x` a later command's relative names
  // are taken from x, or from where the line started when the cd was in a subshell.
  let folders = [context.cwd];
  for (const command of analysis.commands) {
    for (const cwd of folders) {
      const collecting: ReadOnlyContext = { ...context, cwd, deniedReads: found.denied };
      if (command.name === 'git') {
        const content = gitContentProblem(commandWords(command), cwd, { readDenied });
        if (content) (content.denied ? found.denied : found.could).push(content.problem);
      }
      readOnlyProblem(command, collecting);
      coveredArguments(command, collecting, found.could);
      coveredWalks(command, collecting, found);
    }
    if (FOLDER_CHANGES.has(command.name)) {
      const moved = movedTo(command, folders, context);
      if (typeof moved === 'string') {
        found.could.push(moved);
        break;
      }
      folders = moved;
    }
  }
  for (const cwd of folders)
    for (const read of analysis.reads)
      pathProblem(read, { ...context, cwd, deniedReads: found.denied });
  return found;
}

/** The folders after `cd DIR` from any of `folders` (kept too), or why they are not known. */
export function movedTo(
  command: ShellCommand,
  folders: string[],
  context: ReadOnlyContext,
): string[] | string {
  const operands = command.args.filter((arg) => !/^-[LPe@]+$/.test(arg));
  const unknown = `${command.name} moves to a folder toolhost does not follow, so later names cannot be checked against the Read deny rules`;
  if (command.name === 'popd' || operands.length > 1) return unknown;
  const index = command.args.indexOf(operands[0] ?? '');
  const target = operands.length === 0 ? context.homeDir : operands[0]!;
  if (operands.length > 0 && (!command.literal[index] || target === '-')) return unknown;
  const next = new Set(folders);
  for (const folder of folders) next.add(path.resolve(folder, target));
  return next.size > MAX_FOLDERS ? unknown : [...next];
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
