/**
 * What an allow rule (or an "always" answer) does not cover: a rule names a command, and
 * `Bash(git status)` says nothing of a repository whose own config makes `git status` run
 * a program, nor of `git -C /elsewhere status`. A command allowed by a rule that meets
 * one of these asks, with the reason; the checks of what it reads (Read deny rules) and
 * writes (Edit rules) are made for every command in shell-permissions.ts.
 */
import path from 'node:path';
import { resolveLikeKernel } from '../workspace/workspace-context.js';
import type { ShellCommand } from './command-analysis.js';
import { gitGlobals } from './git-global-options.js';
import { GIT_READ_ONLY, gitConfigProblem } from './git-read-only.js';
import { givenPath, pathProblem, type ReadOnlyContext } from './read-only-check.js';
import type { ShellWord } from './shell-words.js';

/** Why `command`, allowed by a rule, must still ask, or null. */
export function allowedCommandProblem(
  command: ShellCommand,
  context: ReadOnlyContext,
): string | null {
  if (command.name !== 'git') return null;
  const words = commandWords(command);
  const globals = gitGlobals(words);
  let dir = context.cwd;
  for (const option of globals.options) {
    if (option.name !== '-C' || !option.value) continue;
    const where = { ...context, cwd: dir };
    const problem = pathProblem(option.value, where);
    if (problem) return `git -C: ${problem}`;
    const given = givenPath(option.value, where);
    if (typeof given !== 'string') return `git -C: ${given.problem}`;
    dir = resolveLikeKernel(given) ?? path.resolve(given);
  }
  const sub = words[globals.subcommandAt];
  // A subcommand expected only to read: the repository's config must not make it run a
  // program (core.fsmonitor for status, diff.external and textconv for diff and show).
  if (sub?.literal && Object.hasOwn(GIT_READ_ONLY, sub.value)) {
    const check =
      context.gitConfigProblem ?? ((folder) => gitConfigProblem(folder, context.canRead));
    const problem = check(dir);
    if (problem) return `git ${sub.value}: ${problem}`;
  }
  return null;
}

export function commandWords(command: ShellCommand): ShellWord[] {
  return command.args.map((value, i) => ({ value, literal: command.literal[i] ?? false }));
}
