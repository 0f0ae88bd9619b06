/**
 * The defences of read-only git against a repository whose own configuration runs programs
 * (core.fsmonitor, a pager, an external diff, textconv and filter drivers, hooks, gpg): a
 * read-only git call runs without asking only when the repository's config sets none of
 * those, and runs with environment config (`GIT_CONFIG_COUNT`…, which outranks repository
 * files) that also switches off fsmonitor, pagers, hooks and gpg. (An external diff or a
 * textconv driver cannot be switched off by config, only refused by the check.)
 */
import { type Dirent, existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { isWithin } from '../workspace/workspace-context.js';
import { findGitDir, type GitDirLayout, isFile, pointedGitDir, readText } from './git-discovery.js';
import { indexGitlinks } from './git-index-gitlinks.js';
import { MAX_SUBMODULE_FOLDERS, submoduleFolders } from './git-submodule-folders.js';

/**
 * Repository config keys that make read-only git commands run a program, and sections that
 * include files or define programs. Git reads a key or another section header on the same
 * line as a header (`[diff "x"] textconv = ./run.sh`, `[core] [include] path = x`), so a
 * line may start with headers; `.*` backtracks to any `]`, even one inside a quoted name.
 */
const PROGRAM_KEYS =
  /^\s*(?:\[.*\][ \t]*)?(fsmonitor|textconv|command|external|program|pager|hookspath|sshcommand|askpass|editor|clean|smudge|process|showsignature|cachetextconv|uploadpack|receivepack|gitproxy|promisor|partialclone|partialclonefilter|helper|driver|cmd|packobjectshook|alternaterefscommand)\s*=/im;

/**
 * Transports that run a command (`ext::sh -c …`), anywhere in a config: a remote's URL or an
 * `insteadOf` rewrite. Git fetches on its own for a missing object of a partial clone.
 */
const COMMAND_TRANSPORT = /\bext::/i;
const PROGRAM_SECTIONS = /^\s*(?:\[.*\][ \t]*)?\[\s*(include|includeif|filter|pager|gpg)\b/im;

/**
 * A `worktree = <path>` line (core.worktree, in any section: reading more only asks more).
 * Git takes the work tree from it, so `git diff` would read files there.
 */
const WORKTREE_KEY = /^\s*(?:\[.*\][ \t]*)?worktree\s*=(.*)$/gim;

/**
 * Keys naming a file that read-only commands read, in any section: mailmap.file (`git
 * log` maps names through it), blame.ignoreRevsFile (`git blame` quotes a line it cannot
 * read as a commit, so any file's first line would be shown), core.excludesFile,
 * core.attributesFile and diff.orderFile.
 */
const FILE_KEYS =
  /^\s*(?:\[.*\][ \t]*)?(file|ignorerevsfile|excludesfile|attributesfile|orderfile)\s*=(.*)$/gim;

/**
 * Why git's own configuration in the repository around `dir` could make a read-only
 * command run a program or read files outside the workspace, or null when it does
 * neither. `canRead` says whether a path lies in the workspace; without it only the
 * repository's own folder counts.
 */
export function gitConfigProblem(
  dir: string,
  canRead?: (absolutePath: string) => boolean,
): string | null {
  const gitDir = findGitDir(dir);
  if (gitDir === undefined) return null; // not a repository: git reads no repository config
  if (gitDir === null) return 'the repository layout could not be read';
  // Read-only git runs with safe.bareRepository=explicit, so git would refuse it anyway.
  if (gitDir.bare)
    return `git would use ${gitDir.root} as a bare repository, which read-only git does not use`;
  const inside = canRead ?? ((target: string) => isWithin(gitDir.root, target));
  const elsewhere = gitFolderElsewhere(gitDir, inside);
  if (elsewhere) return elsewhere;
  // git status and diff look into submodules with their own config (the environment's safe
  // config is not passed down to them), so those configs must run nothing either.
  const submodules = submoduleGitDirs(gitDir);
  if (typeof submodules === 'string') return submodules;
  const files = [
    path.join(gitDir.common, 'config'),
    path.join(gitDir.own, 'config.worktree'),
    ...submodules.flatMap((folder) => [
      path.join(folder, 'config'),
      path.join(folder, 'config.worktree'),
    ]),
  ];
  for (const [index, file] of files.entries()) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const key = PROGRAM_KEYS.exec(text) ?? PROGRAM_SECTIONS.exec(text);
    if (key) {
      return `the repository's git config (${file}) sets "${key[0].trim()}", which can make git run a program`;
    }
    if (COMMAND_TRANSPORT.test(text))
      return `the repository's git config (${file}) names an ext:: transport, which runs a program`;
    // Git takes a relative path from the git folder in use: a submodule's own, or for the
    // repository's files the worktree's, whose shared config lies in another folder.
    const bases = new Set([path.dirname(file), ...(index < 2 ? [gitDir.own] : [])]);
    const worktree = worktreeElsewhere(text, [...bases], inside);
    if (worktree) return `the repository's git config (${file}) ${worktree}`;
    // Git takes these from the folder it runs in: the work tree's top, or where it was started.
    const named = namedFileElsewhere(text, [gitDir.root, path.resolve(dir)], inside);
    if (named) return `the repository's git config (${file}) ${named}`;
  }
  const gitFolders = [...new Set([gitDir.own, gitDir.common, ...submodules])];
  return linkedGitFileProblem(gitFolders, inside) ?? objectStoreProblem(gitFolders, inside);
}

/**
 * Why a link among a git folder's own files leads outside the workspace, or null. Git
 * quotes a line it cannot parse from several of them (`packed-refs`, `shallow`), so a
 * `.git/packed-refs` linked to any file would show its lines. Checked: every entry of the
 * git folder and of its `info/` and `logs/` folders. A git folder outside the workspace
 * (a workspace inside a larger repository) may link within itself.
 */
function linkedGitFileProblem(
  gitFolders: readonly string[],
  inside: (absolutePath: string) => boolean,
): string | null {
  for (const folder of gitFolders) {
    const home = realPath(folder);
    const parts = ['', 'info', 'logs'].map((part) => path.join(folder, part));
    const linked = linkTargets(parts).find((target) => !isWithin(home, target) && !inside(target));
    if (linked) return `the git folder ${folder} links to ${linked}, outside the workspace`;
  }
  return null;
}

/**
 * Why the git folder git would use lies outside the workspace, or null. A `.git` file in
 * the workspace may name any folder (a missing `.git` can be made by a sandboxed command,
 * and so can a `commondir` in a `.git` folder made that way); one outside is
 * trusted only when it names this `.git` back in its `gitdir` file, as git writes it for
 * a linked worktree (a folder outside the workspace cannot be written from the sandbox).
 * A git folder inside must keep its common folder inside as well.
 */
function gitFolderElsewhere(
  gitDir: GitDirLayout,
  inside: (absolutePath: string) => boolean,
): string | null {
  const dotGit = path.join(gitDir.root, '.git');
  // A .git outside the workspace (the workspace is a folder of a larger repository) is the
  // person's own layout: no command run here could have written it.
  if (!inside(realPath(dotGit))) return null;
  const own = realPath(gitDir.own);
  if (inside(own)) {
    // Its `commondir` may have been written from inside, so it must lead inside too.
    const common = realPath(gitDir.common);
    if (inside(common)) return null;
    return `the repository's git folder (${own}) names a common folder outside the workspace (${common})`;
  } else {
    // Only a folder outside, which no command here could write, is trusted to name this
    // `.git` back; an empty or missing `gitdir` resolves to that folder, not this `.git`.
    const back = readText(path.join(own, 'gitdir')).trim();
    if (realPath(path.resolve(own, back)) === realPath(dotGit)) return null;
  }
  return `the repository's git folder (${own}) lies outside the workspace and does not name ${dotGit} back`;
}

/**
 * Why a `worktree = <path>` line in a config's text leads outside the workspace, or null.
 * A relative path is taken from each of `bases` (git takes it from the git folder); a
 * value with quotes, escapes, comments or nothing at all is not understood and asks.
 */
function worktreeElsewhere(
  text: string,
  bases: readonly string[],
  inside: (absolutePath: string) => boolean,
): string | null {
  for (const [, raw] of text.matchAll(WORKTREE_KEY)) {
    const value = raw!.trim();
    if (!value || /["\\#;]/.test(value)) return `sets core.worktree in a form not understood`;
    if (bases.some((base) => !inside(realPath(path.resolve(base, value)))))
      return `sets core.worktree to ${value}, outside the workspace`;
  }
  return null;
}

/**
 * Why a key of FILE_KEYS in a config's text names a file outside the workspace, or null.
 * A relative path is taken from each of `bases`; `~`, quotes, escapes or comments are not
 * understood and ask, and so does a key without a value.
 */
function namedFileElsewhere(
  text: string,
  bases: readonly string[],
  inside: (absolutePath: string) => boolean,
): string | null {
  for (const [, key, raw] of text.matchAll(FILE_KEYS)) {
    const value = raw!.trim();
    if (!value || /^~|["\\#;]/.test(value)) return `sets ${key} in a form not understood`;
    if (bases.some((base) => !inside(realPath(path.resolve(base, value)))))
      return `sets ${key} to ${value}, a file outside the workspace that git would read`;
  }
  return null;
}

/**
 * Why git would read objects from outside the workspace for a repository whose git folders
 * (its own and its submodules') are `gitFolders`, or null: an `objects` folder that is a
 * link leading out of its git folder and the workspace, or an `objects/info/alternates`
 * line naming an object folder outside the workspace (followed from folder to folder, as
 * git follows them). `git show` would print any of those objects. A quoted line is not
 * understood and asks, as does a chain longer than git's own limit.
 */
function objectStoreProblem(
  gitFolders: readonly string[],
  inside: (absolutePath: string) => boolean,
): string | null {
  const pending: { objects: string; home: string | undefined; depth: number }[] = gitFolders.map(
    (folder) => ({
      objects: path.join(folder, 'objects'),
      // A git folder's own objects may lie outside (a workspace inside a larger repository).
      home: realPath(folder),
      depth: 0,
    }),
  );
  const seen = new Set<string>();
  for (let next = pending.pop(); next; next = pending.pop()) {
    const objects = realPath(next.objects);
    if (seen.has(objects)) continue;
    seen.add(objects);
    if (next.depth > MAX_ALTERNATE_DEPTH)
      return `the repository chains more than ${MAX_ALTERNATE_DEPTH} object folders`;
    const allowed = (target: string) =>
      (next.home !== undefined && isWithin(next.home, target)) || inside(target);
    if (!allowed(objects)) return `git would read objects from ${objects}, outside the workspace`;
    const linked = linkTargets([objects, path.join(objects, 'pack')]).find(
      (target) => !allowed(target),
    );
    if (linked) return `git would read objects from ${linked}, outside the workspace`;
    const alternates = readText(path.join(objects, 'info', 'alternates'));
    for (const line of alternates.split('\n').map((entry) => entry.trim())) {
      if (!line || line.startsWith('#')) continue;
      if (line.startsWith('"'))
        return 'the repository names other object folders in a form not understood';
      pending.push({
        objects: path.resolve(objects, line),
        home: undefined,
        depth: next.depth + 1,
      });
    }
  }
  return null;
}

/**
 * Where the links among the entries of `folders` lead (a linked `objects/ab` or pack file
 * serves another repository's objects; a linked `packed-refs`, another file's lines). Only
 * the folders' own entries: the loose objects inside each `objects/ab` can be many
 * thousands.
 */
function linkTargets(folders: readonly string[]): string[] {
  const targets: string[] = [];
  for (const folder of folders) {
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries)
      if (entry.isSymbolicLink()) targets.push(realPath(path.join(folder, entry.name)));
  }
  return targets;
}

/** Git follows alternates this deep and no further. */
const MAX_ALTERNATE_DEPTH = 5;

/** The real path of `target`, or `target` itself when it does not exist. */
function realPath(target: string): string {
  try {
    return realpathSync.native(target);
  } catch {
    return target;
  }
}

/**
 * The git folders of a repository's submodules, nested ones included: every folder under
 * `modules/` of the git folder (submodule-folders.ts), and those the work tree's
 * `.gitmodules` paths and its index's gitlinks lead to (an older layout, or a gitlink added
 * without `.gitmodules`, keeps a `.git` in the submodule itself; git looks into it all the
 * same). Every folder's config is read, a git folder's or not (reading more only asks
 * more). A string says why the search gave up (too many folders, an index not understood).
 */
function submoduleGitDirs(gitDir: GitDirLayout): string[] | string {
  const found: string[] = [];
  const budget = { left: MAX_SUBMODULE_FOLDERS };
  const modules = [path.join(gitDir.common, 'modules')];
  const workTrees: { root: string; gitFolder: string | null }[] = [];
  const sha256 = /^\s*objectformat\s*=\s*sha256\s*$/im.test(
    readText(path.join(gitDir.common, 'config')),
  );
  const addWorkTree = (root: string, gitFolder: string | null): string | null => {
    const gitlinks = gitFolder ? indexGitlinks(path.join(gitFolder, 'index'), sha256) : [];
    if (gitlinks === null) return `the git index in ${gitFolder} could not be read`;
    const named = [...readText(path.join(root, '.gitmodules')).matchAll(SUBMODULE_PATH)].map(
      (match) => match[1]!,
    );
    for (const folder of new Set([...named, ...gitlinks])) {
      const dotGit = path.join(root, folder, '.git');
      const own = isFile(dotGit) ? pointedGitDir(dotGit) : dotGit;
      const exists = own !== null && existsSync(own);
      if (exists) {
        found.push(own);
        modules.push(path.join(own, 'modules'));
      }
      workTrees.push({ root: path.join(root, folder), gitFolder: exists ? own : null });
    }
    return null;
  };
  const first = addWorkTree(gitDir.root, gitDir.bare ? null : gitDir.own);
  if (first) return first;
  for (;;) {
    const tree = workTrees.pop();
    if (tree !== undefined) {
      if (--budget.left < 0) return tooMany;
      const problem = addWorkTree(tree.root, tree.gitFolder);
      if (problem) return problem;
      continue;
    }
    const next = modules.pop();
    if (next === undefined) return found;
    const folders = submoduleFolders(next, budget);
    if (!folders) return tooMany;
    found.push(...folders);
  }
}

const tooMany = `the repository has more than ${MAX_SUBMODULE_FOLDERS} submodule folders to check`;

/** A `path = <folder>` line of `.gitmodules`. */
const SUBMODULE_PATH = /^\s*path\s*=\s*(.+?)\s*$/gm;

/** Config given to read-only git through the environment, which outranks repository files. */
const SAFE_GIT_CONFIG: [string, string][] = [
  ['core.fsmonitor', 'false'],
  ['core.pager', 'cat'],
  ['core.hooksPath', '/dev/null'],
  ['log.showSignature', 'false'],
  ['gpg.program', 'false'],
  ['gpg.ssh.program', 'false'],
  ['gpg.x509.program', 'false'],
  // A bare repository found by discovery (one planted in the workspace) is not used.
  ['safe.bareRepository', 'explicit'],
  ['submodule.recurse', 'false'],
];

/** Environment additions for a line approved as read-only: git config that runs nothing. */
export function readOnlyGitEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const start = Number.parseInt(env.GIT_CONFIG_COUNT ?? '0', 10) || 0;
  const added: NodeJS.ProcessEnv = {
    GIT_CONFIG_COUNT: String(start + SAFE_GIT_CONFIG.length),
    GIT_PAGER: 'cat',
    // No transport at all (an empty list; repository config cannot widen it, as it can
    // protocol.allow): a partial clone's lazy fetch of a missing object fails instead of
    // running the remote's upload-pack, proxy or ssh command. Git 2.44+ also skips it.
    GIT_ALLOW_PROTOCOL: '',
    GIT_NO_LAZY_FETCH: '1',
  };
  SAFE_GIT_CONFIG.forEach(([key, value], index) => {
    added[`GIT_CONFIG_KEY_${start + index}`] = key;
    added[`GIT_CONFIG_VALUE_${start + index}`] = value;
  });
  return added;
}
