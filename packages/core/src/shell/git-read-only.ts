/**
 * Read-only git: judges a git command line word by word against the subcommand table
 * (git-read-only-table.ts), and leaves the repository's own configuration, which can make
 * even a read-only command run a program, to git-read-only-config.ts.
 */
import path from 'node:path';
import { isWithin, resolveLikeKernel } from '../workspace/workspace-context.js';
import { findGitDir } from './git-discovery.js';
import { GIT_READ_ONLY } from './git-read-only-table.js';
import { parseOptions } from './parse-options.js';
import type { ShellWord } from './shell-words.js';

export { gitConfigProblem, readOnlyGitEnvironment } from './git-read-only-config.js';
export { GIT_READ_ONLY } from './git-read-only-table.js';

const GLOBAL_FLAGS = new Set([
  '--no-pager',
  '-P',
  '--no-optional-locks',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-replace-objects',
]);

/**
 * Why `git ARGS` is not proven read-only, or null. `checkDir` judges the folder given
 * with -C; `cwd` is where the command runs.
 */
export function gitProblem(
  args: readonly ShellWord[],
  cwd: string,
  checkPath: (word: ShellWord, cwd: string) => string | null,
  configProblem: (dir: string) => string | null,
  folderOf: (word: ShellWord, cwd: string) => string = (word, cwd) =>
    path.isAbsolute(word.value) ? word.value : `${cwd}/${word.value}`,
): string | null {
  let dir = cwd;
  let i = 0;
  for (; i < args.length && args[i]!.value.startsWith('-'); i++) {
    const option = args[i]!;
    if (!option.literal) return `git: ${option.value} is only known when the command runs`;
    if (option.value === '-C') {
      const target = args[++i];
      if (!target) return 'git -C needs a folder';
      const problem = checkPath(target, dir);
      if (problem) return problem;
      // Links first, then `..`, as the kernel does (`-C linkdir/..` is beside where it leads).
      const given = folderOf(target, dir);
      dir = resolveLikeKernel(given) ?? path.resolve(given);
    } else if (!GLOBAL_FLAGS.has(option.value)) {
      return `git: the option ${option.value} is not known to be read-only`;
    }
  }
  const sub = args[i];
  if (!sub) return 'git without a subcommand';
  if (!sub.literal || !Object.hasOwn(GIT_READ_ONLY, sub.value))
    return `git ${sub.value} is not a read-only git command`;
  const spec = GIT_READ_ONLY[sub.value]!;
  const rest = args.slice(i + 1);
  const parsed = parseOptions(rest, spec.options);
  if (!parsed.ok) return `git ${sub.value}: ${parsed.problem}`;
  const operands = parsed.operands.map((index) => rest[index]!);
  if (operands.some((word) => !word.literal))
    return `git ${sub.value}: an argument is only known when the command runs`;
  if (spec.operandsWith && operands.length > 0) {
    const listing = parsed.options.some((o) => spec.operandsWith!.includes(o.name));
    if (!listing) return `git ${sub.value} with a name creates or changes it`;
  }
  if (spec.operands && !spec.operands(operands.map((word) => word.value)))
    return `git ${sub.value} ${operands.map((w) => w.value).join(' ')} is not read-only`;
  if (sub.value === 'diff') {
    const problem = noIndexProblem(
      operands.map((word) => word.value),
      dir,
    );
    if (problem) return problem;
    // Two paths git takes as pathspecs may still name files outside the workspace (in a
    // repository around it); a revision (`HEAD`, `a..b`) reads as a name inside.
    if (operands.length >= 2)
      for (const operand of operands) {
        const outside = checkPath(operand, dir);
        if (outside) return outside;
      }
  }
  return configProblem(dir);
}

/**
 * Why `git diff` would compare files as `--no-index` does (any two files, wherever they
 * are), or null: git does so outside a repository, and when given two paths of which one
 * lies outside the work tree (by its own lexical test; a bare repository has none).
 */
function noIndexProblem(operands: readonly string[], dir: string): string | null {
  // With fewer than two paths there is nothing to compare (outside a repository git only
  // prints its usage).
  if (operands.length < 2) return null;
  const repository = findGitDir(dir);
  if (repository === undefined)
    return 'git diff outside a repository compares any files, as --no-index does';
  const outside = operands.find(
    (operand) =>
      !repository || repository.bare || !isWithin(repository.root, path.resolve(dir, operand)),
  );
  return outside === undefined
    ? null
    : `git diff given ${outside}, outside the work tree, compares files as --no-index does`;
}
