/**
 * Which files the tools leave out: `.gitignore` rules (in git repositories: every
 * `.gitignore` from the repository root down, plus `.git/info/exclude`) and the
 * workspace's own `.toolhostignore` / `.qwenignore`. One instance caches what it learns
 * per folder (the rule files that apply there, whether the folder itself is ignored), so
 * reuse it for one walk: each entry then costs one test per rule file. Compiled rule files
 * are shared by every instance while their stat stays the same.
 */
import { readFileSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';
import type { Ignore, TestResult } from 'ignore';
import { isWithin } from '../workspace/workspace-context.js';
import { ignoreLibrary } from './lazy-libraries.js';

export const TOOLHOST_IGNORE_FILES = ['.toolhostignore', '.qwenignore'] as const;

export interface IgnoreOptions {
  respectGitIgnore?: boolean;
  respectToolhostIgnore?: boolean;
  /** The roots' own ignore files (default .toolhostignore and .qwenignore). */
  ignoreFiles?: readonly string[];
}

/**
 * Why a path is left out, or null when it is not: `git` a .gitignore rule (or the
 * repository's exclude file), `repository` git's own `.git` folder, `toolhost` a
 * .toolhostignore/.qwenignore rule.
 */
export type IgnoreReason = 'git' | 'repository' | 'toolhost' | null;

/** A rule file that applies in a folder, with the folder's path relative to the file's own. */
interface Layer {
  rules: RuleFile;
  /** Relative path (with a trailing slash, or empty) from the rule file's folder to the folder. */
  prefix: string;
  kind: 'git' | 'toolhost';
}

interface FolderFacts {
  layers: Layer[];
  /** Why the folder itself is ignored (everything inside it is too), or null. */
  ignored: IgnoreReason;
}

export class IgnoreRules {
  private readonly ruleFiles = new Map<string, RuleFile | null>();
  private readonly repoRoots = new Map<string, string | null>();
  private readonly folders = new Map<string, FolderFacts>();
  private readonly respectGit: boolean;
  private readonly respectToolhost: boolean;
  private readonly ignoreFiles: readonly string[];

  /** @param roots the workspace roots, whose `.toolhostignore` files apply below them. */
  constructor(
    private readonly roots: readonly string[],
    options: IgnoreOptions = {},
  ) {
    this.respectGit = options.respectGitIgnore ?? true;
    this.respectToolhost = options.respectToolhostIgnore ?? true;
    this.ignoreFiles = options.ignoreFiles ?? TOOLHOST_IGNORE_FILES;
  }

  /** Why `absolutePath` is ignored; `isDirectory` matters for rules ending in `/`. */
  reason(absolutePath: string, isDirectory: boolean): IgnoreReason {
    const parent = path.dirname(absolutePath);
    if (parent === absolutePath) return null;
    const facts = this.folder(parent);
    if (facts.ignored) return facts.ignored;
    const name = path.basename(absolutePath);
    if (name === '.git' && this.respectGit && this.repositoryRoot(parent)) return 'repository';
    return decide(facts.layers, name, isDirectory);
  }

  isIgnored(absolutePath: string, isDirectory: boolean): boolean {
    return this.reason(absolutePath, isDirectory) !== null;
  }

  /** The git repository containing `dir`, or null. */
  repositoryRoot(dir: string): string | null {
    const cached = this.repoRoots.get(dir);
    if (cached !== undefined) return cached;
    let found: string | null = null;
    try {
      // Without an exception for the usual answer (no .git here): they cost more than the stat.
      if (statSync(path.join(dir, '.git'), { throwIfNoEntry: false })) found = dir;
    } catch {
      // Not a folder, or not readable: no repository starts here.
    }
    if (found === null) {
      const parent = path.dirname(dir);
      found = parent === dir ? null : this.repositoryRoot(parent);
    }
    this.repoRoots.set(dir, found);
    return found;
  }

  private folder(dir: string): FolderFacts {
    const cached = this.folders.get(dir);
    if (cached) return cached;
    const parent = path.dirname(dir);
    const name = path.basename(dir);
    const repo = this.respectGit ? this.repositoryRoot(dir) : null;
    const toolhostRoot = this.respectToolhost
      ? this.roots.find((root) => isWithin(root, dir))
      : undefined;

    let facts: FolderFacts;
    if (parent === dir) {
      facts = { layers: [], ignored: null };
    } else {
      // What applies here is what applied in the parent, seen one level deeper, plus the
      // folder's own .gitignore.
      const above = this.folder(parent);
      const inherited = above.layers
        .filter((layer) =>
          layer.kind === 'git'
            ? repo !== null && dir !== repo
            : toolhostRoot !== undefined && dir !== toolhostRoot,
        )
        .map((layer) => ({ ...layer, prefix: `${layer.prefix}${name}/` }));
      // A repository's rules start at its own root, as git's do: an outer repository that
      // ignores the folder holding it does not hide the inner repository's files.
      let ignored: IgnoreReason = above.ignored === 'git' && dir === repo ? null : above.ignored;
      if (!ignored && repo && dir !== repo && name === '.git') ignored = 'repository';
      if (!ignored) ignored = decide(inherited, name, true);
      facts = { layers: [...inherited, ...this.ownLayers(dir, repo, toolhostRoot)], ignored };
    }
    this.folders.set(dir, facts);
    return facts;
  }

  /** Rule files that start at `dir`: a repository's exclude file and a .gitignore; a root's .toolhostignore. */
  private ownLayers(dir: string, repo: string | null, toolhostRoot: string | undefined): Layer[] {
    const layers: Layer[] = [];
    if (repo) {
      if (dir === repo) {
        const exclude = this.load(path.join(dir, '.git', 'info', 'exclude'));
        if (exclude) layers.push({ rules: exclude, prefix: '', kind: 'git' });
      }
      const gitignore = this.load(path.join(dir, '.gitignore'));
      if (gitignore) layers.push({ rules: gitignore, prefix: '', kind: 'git' });
    }
    if (toolhostRoot === dir) {
      for (const name of this.ignoreFiles) {
        const rules = this.load(path.join(dir, name));
        if (rules) layers.push({ rules, prefix: '', kind: 'toolhost' });
      }
    }
    return layers;
  }

  private load(file: string): RuleFile | null {
    if (!this.ruleFiles.has(file)) this.ruleFiles.set(file, loadRuleFile(file));
    return this.ruleFiles.get(file) ?? null;
  }
}

/** Rule files kept compiled between instances (one per call of a tool), at most. */
const RULE_FILES_KEPT = 1024;

/** How old a rule file's last change must be for its compiled copy to be kept. */
const RACY_MS = 2000;

/** Compiled rule files by path, with what their stat said when they were read. */
const compiled = new Map<string, { version: string; rules: RuleFile | null }>();

/**
 * A rule file, compiled, or null when it is missing or decides nothing. A service lists
 * and searches the same folders call after call: a file whose stat has not changed since
 * it was read (modification and change times, size, inode) is not read and compiled
 * again, so each call pays one stat per rule file.
 */
function loadRuleFile(file: string): RuleFile | null {
  let stats: Stats | undefined;
  try {
    stats = statSync(file, { throwIfNoEntry: false });
  } catch {
    stats = undefined;
  }
  if (!stats?.isFile()) {
    compiled.delete(file);
    return null;
  }
  const version = `${stats.mtimeMs}:${stats.ctimeMs}:${stats.size}:${stats.ino}`;
  const known = compiled.get(file);
  if (known?.version === version) return known.rules;
  let rules: RuleFile | null = null;
  try {
    const text = readFileSync(file, 'utf8');
    // A file of comments only (git's default info/exclude) decides nothing; as a layer
    // it would still be asked about, and remember, every path of a walk.
    rules = hasPatterns(text) ? new RuleFile(text) : null;
  } catch {
    rules = null;
  }
  compiled.delete(file);
  // As git does with its index: a file changed this recently may change again within the
  // same timestamp (coarse on some file systems) at the same size; it is read again.
  if (Date.now() - stats.mtimeMs < RACY_MS) return rules;
  if (compiled.size >= RULE_FILES_KEPT) compiled.delete(compiled.keys().next().value as string);
  compiled.set(file, { version, rules });
  return rules;
}

/** Files asked about before the copy of a rule file that answers for files is replaced. */
const FILE_ANSWERS_KEPT = 4096;
/** The same for folders: a compiled file serves call after call of a long-lived service. */
const FOLDER_ANSWERS_KEPT = 65_536;

/**
 * One rule file, compiled twice. The `ignore` package remembers every answer for as long
 * as its rules live: right for folders, which are asked about again and again, but a walk
 * asks about each file once, and over a large repository the remembered answers for files
 * came to tens of MB. The copy that answers for files is therefore replaced now and then.
 */
class RuleFile {
  private folders: Ignore;
  private files: Ignore;
  private fileAnswers = 0;
  private folderAnswers = 0;

  constructor(private readonly text: string) {
    this.folders = ignoreLibrary()().add(text);
    this.files = ignoreLibrary()().add(text);
  }

  test(relative: string, isDirectory: boolean): TestResult {
    if (isDirectory) {
      if (++this.folderAnswers > FOLDER_ANSWERS_KEPT) {
        this.folders = ignoreLibrary()().add(this.text);
        this.folderAnswers = 1;
      }
      return this.folders.test(relative);
    }
    if (++this.fileAnswers > FILE_ANSWERS_KEPT) {
      this.files = ignoreLibrary()().add(this.text);
      this.fileAnswers = 1;
    }
    return this.files.test(relative);
  }
}

function hasPatterns(text: string): boolean {
  return text.split('\n').some((line) => line.trim() !== '' && !line.startsWith('#'));
}

/**
 * Applies the layers in order (outer rule files first): within git's layers the last match
 * wins, so a deeper `!keep.log` re-includes; a match in a toolhost layer excludes.
 */
function decide(layers: Layer[], name: string, isDirectory: boolean): IgnoreReason {
  let git = false;
  for (const layer of layers) {
    const relative = `${layer.prefix}${name}${isDirectory ? '/' : ''}`;
    const result = layer.rules.test(relative, isDirectory);
    if (layer.kind === 'toolhost') {
      if (result.ignored) return 'toolhost';
      continue;
    }
    if (result.ignored) git = true;
    else if (result.unignored) git = false;
  }
  return git ? 'git' : null;
}
