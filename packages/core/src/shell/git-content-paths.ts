/**
 * What repository content a git command prints, against the Read deny rules: git prints a
 * file's content without opening it in the work tree (`git show HEAD:secrets/x`, `git log
 * -p -- secrets`, `git blame`, `git grep`, `git archive`, `git cat-file -p`), so the rules
 * for files are applied to the paths it names, whatever form (`rev:path`, `:path`,
 * pathspecs after `--`, pathspec magic). A form that prints content without naming paths
 * (`git show HEAD`, `git log -p`) is judged against every path the index tracks; one that
 * could match anything (a glob pathspec, magic not understood, a word known only at run
 * time) asks as soon as a tracked path is covered. Files only in older commits are not
 * seen (the index lists today's).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { findGitDir } from './git-discovery.js';
import { gitGlobals } from './git-global-options.js';
import { indexPaths } from './git-index-gitlinks.js';
import type { ShellWord } from './shell-words.js';

/** Subcommands that print the content of tracked files. */
const CONTENT = new Set([
  'show',
  'diff',
  'diff-index',
  'diff-files',
  'difftool',
  'format-patch',
  'range-diff',
  'blame',
  'annotate',
  'grep',
  'archive',
  'cat-file',
  'stash',
  'fast-export',
  'bundle',
  'unpack-file',
  'merge-file',
]);
/** Subcommands that print content only with a patch option (`git log -p`). */
const CONTENT_WITH_PATCH = new Set(['log', 'whatchanged', 'reflog', 'diff-tree', 'shortlog']);
const PATCH_OPTION =
  /^(-[a-zA-Z]*[pu][a-zA-Z]*|-L.*|--patch.*|-c|--cc|--word-diff.*|--color-words.*|--remerge-diff|--ext-diff|--textconv)$/;
/**
 * Subcommands whose path arguments only select what names or history they print: their
 * paths are no reads of content (the patch forms of log are judged above).
 */
export const GIT_NAMES_ONLY = new Set([
  'log',
  'shortlog',
  'whatchanged',
  'reflog',
  'diff-tree',
  'status',
  'ls-files',
  'ls-tree',
  'rev-list',
  'rev-parse',
  'check-ignore',
  'check-attr',
  'describe',
  'branch',
  'tag',
  // A message (`-m secrets`) is no file; committing a file prints nothing of it.
  'commit',
]);
/** Options after which git reads paths or object names from standard input or a file. */
const UNSEEN_INPUT = /^--(batch.*|stdin.*|no-index|untracked|pathspec-from-file.*)$/;

export interface ContentRules {
  /** The Read deny rule that covers a file (absolute path), if any. */
  readDenied(absolutePath: string): string | undefined;
}

/**
 * Why `git ARGS`, run in `cwd`, may print content a Read deny rule covers, or null.
 * `denied` when it names a covered file; otherwise it only could.
 */
export function gitContentProblem(
  args: readonly ShellWord[],
  cwd: string,
  rules: ContentRules,
): ContentProblem | null {
  const problem = contentProblem(args, cwd, rules);
  if (problem === null) return null;
  return typeof problem === 'string' ? { problem, denied: false } : problem;
}

export interface ContentProblem {
  problem: string;
  /** It names a file a Read deny rule covers (rather than one it could print). */
  denied: boolean;
}

function contentProblem(
  args: readonly ShellWord[],
  cwd: string,
  rules: ContentRules,
): string | ContentProblem | null {
  const globals = gitGlobals(args);
  const sub = args[globals.subcommandAt];
  if (globals.ends || !sub) return null;
  let dir = cwd;
  for (const option of globals.options) {
    if (option.name !== '-C' || !option.value) continue;
    if (!option.value.literal) return `git -C ${option.value.value} is only known when it runs`;
    dir = path.resolve(dir, option.value.value);
  }
  if (!sub.literal) return `the git subcommand ${sub.value} is only known when it runs`;
  const rest = args.slice(globals.subcommandAt + 1);
  const name = sub.value;
  if (!CONTENT.has(name)) {
    if (!CONTENT_WITH_PATCH.has(name)) return null;
    if (!rest.some((word) => !word.literal || PATCH_OPTION.test(word.value))) return null;
  }
  const repository = findGitDir(dir);
  if (!repository) return null; // outside a repository nothing tracked is printed
  const root = repository.root;
  const tracked = () => {
    const listed = indexPaths(path.join(repository.own, 'index'));
    return listed === null ? null : listed.map((entry) => path.join(root, entry));
  };
  const anyCovered = (why: string): string | null => {
    const files = tracked();
    if (files === null) return `git ${name} ${why}, and the repository's index could not be read`;
    for (const file of files) {
      const rule = rules.readDenied(file);
      if (rule)
        return `git ${name} ${why}, and the rule ${rule} covers ${path.relative(root, file)}`;
    }
    return null;
  };
  const covered = (absolute: string, shown: string): ContentProblem | null => {
    const rule = rules.readDenied(absolute);
    if (rule)
      return { problem: `git ${name} prints ${shown}, covered by the rule ${rule}`, denied: true };
    const files = tracked() ?? [];
    const inside = files.find((file) => file.startsWith(`${absolute}/`) && rules.readDenied(file));
    if (!inside) return null;
    const holds = `${path.relative(root, inside)}, covered by the rule ${rules.readDenied(inside)}`;
    return { problem: `git ${name} prints ${shown}, which holds ${holds}`, denied: true };
  };

  const icase = globals.options.some((option) => option.name === '--icase-pathspecs');
  // git grep's first operand is its pattern, unless -e or -f gave it.
  const grep = name === 'grep';
  let named = false;
  let afterDashes = false;
  let grepPattern = grep;
  let skip = false;
  for (const word of rest) {
    if (skip) {
      skip = false;
      continue;
    }
    if (!word.literal) return anyCovered(`is given ${word.value}, only known when it runs`);
    const text = word.value;
    if (!afterDashes && text === '--') {
      afterDashes = true;
      continue;
    }
    if (grep && !afterDashes && /^(-[ef]|--regexp|--file)$/.test(text)) {
      grepPattern = false;
      skip = true;
      continue;
    }
    if (grepPattern && !afterDashes && !text.startsWith('-')) {
      grepPattern = false; // the pattern, not a file
      continue;
    }
    if (!afterDashes && text.startsWith('-')) {
      if (UNSEEN_INPUT.test(text)) return anyCovered(`${text} reads names toolhost does not see`);
      const lineRange = /^-L.*:([^:]+)$/.exec(text);
      if (lineRange) {
        named = true;
        const problem = covered(path.resolve(dir, lineRange[1]!), lineRange[1]!);
        if (problem) return problem;
      }
      continue;
    }
    const target = pathOf(text, dir, root, !afterDashes);
    if (target === 'any' || (icase && target !== null && target.kind !== 'blob'))
      return anyCovered(`is given ${text}, which could name any file`);
    if (target === null) continue; // an exclusion: prints less
    // Before `--` git takes a name for a path only when it exists in the work tree.
    if (afterDashes || target.kind === 'blob' || existsSync(target.absolute)) named = true;
    const problem = covered(target.absolute, text);
    if (problem) return problem;
  }
  // A revision alone (`git show HEAD`, `git log -p`, `git cat-file -p <id>`) prints every
  // file it changed or the object it names.
  if (!named) return anyCovered('prints files without naming them');
  return null;
}

/**
 * The file an operand names: `rev:path` and `:path` (from the top of the work tree, or
 * from `dir` for `./`), a pathspec with magic (`:/x`, `:(top)x`, `:!x`), or a plain name
 * (from `dir`). `any` when it could match any file; null for an exclusion.
 */
function pathOf(
  text: string,
  dir: string,
  root: string,
  beforeDashes: boolean,
): { absolute: string; kind: 'blob' | 'pathspec' } | 'any' | null {
  const magic = /^:(\(([^)]*)\)|[/!^]+)(.*)$/s.exec(text);
  if (magic) {
    const words = magic[2] !== undefined ? magic[2].split(',') : [...magic[1]!].map(shortMagic);
    const rest = magic[3]!;
    if (words.some((word) => word === 'exclude')) return null;
    if (words.some((word) => word !== 'top' && word !== 'literal' && word !== '')) return 'any';
    if (!words.includes('literal') && /[*?[]/.test(rest)) return 'any';
    return { absolute: path.resolve(root, rest), kind: 'pathspec' };
  }
  const colon = beforeDashes ? /^([^:]*):(?:[0-3]:)?(.*)$/s.exec(text) : null;
  if (colon) {
    const file = colon[2]!;
    // `HEAD:` is the whole tree: it lists names only.
    const base = /^\.\.?(\/|$)/.test(file) ? dir : root;
    return { absolute: path.resolve(base, file), kind: 'blob' };
  }
  if (/[*?[]/.test(text)) return 'any';
  return { absolute: path.resolve(dir, text), kind: 'pathspec' };
}

function shortMagic(char: string): string {
  if (char === '/') return 'top';
  return 'exclude';
}
