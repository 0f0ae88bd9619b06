/**
 * Which files the tools leave out: `.gitignore` rules (in git repositories: every
 * `.gitignore` from the repository root down, plus `.git/info/exclude`) and the
 * workspace's own `.toolhostignore` / `.qwenignore`. One instance caches parsed files, so
 * reuse it for one walk.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { isWithin } from '../workspace/workspace-context.js';

export const TOOLHOST_IGNORE_FILES = ['.toolhostignore', '.qwenignore'] as const;

export interface IgnoreOptions {
  respectGitIgnore?: boolean;
  respectToolhostIgnore?: boolean;
}

/** Why a path is left out, or null when it is not. */
export type IgnoreReason = 'git' | 'toolhost' | null;

export class IgnoreRules {
  private readonly gitIgnoreFiles = new Map<string, Ignore | null>();
  private readonly repoRoots = new Map<string, string | null>();
  private readonly toolhostRules = new Map<string, Ignore | null>();
  private readonly respectGit: boolean;
  private readonly respectToolhost: boolean;

  /** @param roots the workspace roots, whose `.toolhostignore` files apply below them. */
  constructor(
    private readonly roots: readonly string[],
    options: IgnoreOptions = {},
  ) {
    this.respectGit = options.respectGitIgnore ?? true;
    this.respectToolhost = options.respectToolhostIgnore ?? true;
  }

  /** Why `absolutePath` is ignored; `isDirectory` matters for rules ending in `/`. */
  reason(absolutePath: string, isDirectory: boolean): IgnoreReason {
    if (this.respectGit && this.isGitIgnored(absolutePath, isDirectory)) return 'git';
    if (this.respectToolhost && this.isToolhostIgnored(absolutePath, isDirectory))
      return 'toolhost';
    return null;
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
      statSync(path.join(dir, '.git'));
      found = dir;
    } catch {
      const parent = path.dirname(dir);
      found = parent === dir ? null : this.repositoryRoot(parent);
    }
    this.repoRoots.set(dir, found);
    return found;
  }

  private isGitIgnored(absolutePath: string, isDirectory: boolean): boolean {
    const repo = this.repositoryRoot(isDirectory ? absolutePath : path.dirname(absolutePath));
    if (!repo || absolutePath === repo) return false;
    const relative = path.relative(repo, absolutePath);
    const segments = relative.split(path.sep);
    if (segments[0] === '.git') return true;
    // Git never looks inside an ignored folder, so check each ancestor folder first.
    for (let depth = 1; depth < segments.length; depth++) {
      if (this.gitDecision(repo, segments.slice(0, depth), true)) return true;
    }
    return this.gitDecision(repo, segments, isDirectory);
  }

  /** Applies the rule files from the repository root down to the path's folder; the last match wins. */
  private gitDecision(repo: string, segments: string[], isDirectory: boolean): boolean {
    let ignored = false;
    const exclude = this.loadRules(this.gitIgnoreFiles, path.join(repo, '.git', 'info', 'exclude'));
    if (exclude) ignored = applyRules(exclude, segments.join('/'), isDirectory, ignored);
    for (let depth = 0; depth < segments.length; depth++) {
      const dir = path.join(repo, ...segments.slice(0, depth));
      const rules = this.loadRules(this.gitIgnoreFiles, path.join(dir, '.gitignore'));
      if (!rules) continue;
      ignored = applyRules(rules, segments.slice(depth).join('/'), isDirectory, ignored);
    }
    return ignored;
  }

  private isToolhostIgnored(absolutePath: string, isDirectory: boolean): boolean {
    for (const root of this.roots) {
      if (!isWithin(root, absolutePath) || root === absolutePath) continue;
      const rules = this.toolhostRulesFor(root);
      if (!rules) continue;
      const segments = path.relative(root, absolutePath).split(path.sep);
      for (let depth = 1; depth <= segments.length; depth++) {
        const last = depth === segments.length;
        if (
          applyRules(rules, segments.slice(0, depth).join('/'), last ? isDirectory : true, false)
        ) {
          return true;
        }
      }
    }
    return false;
  }

  private toolhostRulesFor(root: string): Ignore | null {
    if (!this.toolhostRules.has(root)) {
      const combined = ignore();
      let any = false;
      for (const name of TOOLHOST_IGNORE_FILES) {
        const text = readOptional(path.join(root, name));
        if (text !== null) {
          combined.add(text);
          any = true;
        }
      }
      this.toolhostRules.set(root, any ? combined : null);
    }
    return this.toolhostRules.get(root) ?? null;
  }

  private loadRules(cache: Map<string, Ignore | null>, file: string): Ignore | null {
    if (!cache.has(file)) {
      const text = readOptional(file);
      cache.set(file, text === null ? null : ignore().add(text));
    }
    return cache.get(file) ?? null;
  }
}

function applyRules(
  rules: Ignore,
  relative: string,
  isDirectory: boolean,
  current: boolean,
): boolean {
  const result = rules.test(isDirectory ? `${relative}/` : relative);
  if (result.ignored) return true;
  if (result.unignored) return false;
  return current;
}

function readOptional(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
