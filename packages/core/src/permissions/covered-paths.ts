/**
 * The paths the person's Read and Edit deny rules cover, found on disk at the start of each
 * command, so that the sandbox can hide them (Read) or make them read-only (Edit) for every
 * command, whatever it runs. This module owns which rules count, where each rule's paths
 * can lie (its root: the part of the rule without pattern characters), the bounded walk
 * that finds them, and the rules whose paths could not all be found. The sandbox receives
 * the result (shell/sandbox/rule-paths/covered.ts) and turns it into mounts (rule-mounts.ts);
 * it does not decide whether a command may run (tools/shell.ts asks when a rule is not
 * enforced).
 */
import { type Dirent, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/config.js';
import {
  type CoveredPath,
  type CoveredPaths,
  NOTHING_COVERED,
  type RuleEffect,
  type UnenforcedRule,
} from '../shell/sandbox/rule-paths/covered.js';
import { sessionRules } from './call-rules.js';
import { type PathBases, pathMatcher } from './path-patterns.js';
import type { RuleSet } from './permission-rules.js';
import { EDITING_TOOLS } from './tool-vocabulary.js';

/**
 * Most entries the search of one rule root looks at: each is matched against the rules of
 * that root (some microseconds each), and the search runs as each command is asked about
 * and again as it starts (about 150 ms at this bound on a warm disk).
 */
export const MAX_WALKED_ENTRIES = 20_000;
/** Most paths one rule may cover; each is a mount, and bwrap sets them up one by one. */
export const MAX_COVERED_PER_RULE = 1_000;

export interface PathRule {
  /** The rule as written, and where, for messages. */
  entry: string;
  source: string;
  effect: RuleEffect;
  /** The folder (or file) every path the rule covers lies in, as the rule writes it. */
  root: string;
  /** Whether the rule covers an absolute path (the path itself or a folder above it). */
  covers: (file: string) => boolean;
}

/** Characters that make a rule's path part a pattern (glob, brace, extglob, escape). */
const PATTERN = /[*?[\]{}()!+@\\]/;

/**
 * The folder a rule's paths lie in: the part of its specifier before the first segment with
 * a pattern character, from the base the specifier names (path-patterns.ts reads it the same
 * way). A bare name (`.env`, `*.pem`) matches at any depth, so its root is the project root.
 */
export function ruleRoot(specifier: string, bases: PathBases): string {
  const trimmed = specifier.replace(/\/+$/, '');
  let base = bases.projectRoot;
  let rest: string;
  if (trimmed.startsWith('//')) [base, rest] = ['/', trimmed.slice(2)];
  else if (trimmed === '~') [base, rest] = [bases.homeDir, ''];
  else if (trimmed.startsWith('~/')) [base, rest] = [bases.homeDir, trimmed.slice(2)];
  else {
    rest = trimmed.replace(/^\.?\//, '');
    const anyDepth =
      !specifier.startsWith('/') && !specifier.startsWith('./') && !rest.includes('/');
    if (anyDepth) return bases.projectRoot;
  }
  const literal: string[] = [];
  for (const segment of rest.split('/')) {
    if (PATTERN.test(segment)) break;
    literal.push(segment);
  }
  return path.resolve(base, ...literal);
}

/**
 * The deny rules with a path the sandbox enforces: those naming read_file (`Read(...)`,
 * `ReadFile(...)`) hide, those naming a tool that changes files (`Edit(...)`, `Write(...)`)
 * make read-only. A rule for one search tool only (`Grep(...)`) is that tool's business.
 */
export function pathRules(rules: RuleSet, bases: PathBases): PathRule[] {
  const found: PathRule[] = [];
  for (const rule of rules.deny) {
    if (rule.specifier === undefined || !rule.tools) continue;
    const effect: RuleEffect | undefined = rule.tools.includes('read_file')
      ? 'hide'
      : rule.tools.some((tool) => EDITING_TOOLS.includes(tool))
        ? 'read-only'
        : undefined;
    if (!effect) continue;
    found.push({
      entry: rule.entry,
      source: rule.source,
      effect,
      root: ruleRoot(rule.specifier, bases),
      covers: pathMatcher(rule.specifier, bases),
    });
  }
  return found;
}

/** The session's enforced path rules. */
export function sessionPathRules(config: Config): PathRule[] {
  return pathRules(sessionRules(config), {
    projectRoot: config.workspace.projectRoot,
    homeDir: config.homeDir,
  });
}

export interface WalkLimits {
  entries: number;
  perRule: number;
}

/**
 * Finds what `rules` cover now: each rule root is walked on its own, with its own bound
 * (folders behind links included, each real folder once), every entry tested against the
 * rules of that root as found and by its real path. A rule covers nothing outside its root
 * as written or as its links resolve, and the real path is where the mount goes, so the
 * walks together find all. A covered folder is covered whole (not walked further for Read,
 * walked on for Read rules inside an Edit-covered one). Folders the user cannot list are
 * not searched: a command run as that user cannot list them either.
 */
export function resolveCoveredPaths(
  rules: readonly PathRule[],
  limits: WalkLimits = { entries: MAX_WALKED_ENTRIES, perRule: MAX_COVERED_PER_RULE },
): CoveredPaths {
  if (rules.length === 0) return NOTHING_COVERED;
  const found = new Map<string, CoveredPath>();
  const perRule = new Map<string, number>();
  const unenforced = new Map<string, UnenforcedRule>();

  const record = (rule: PathRule, real: string, foundAs: string) => {
    const count = (perRule.get(rule.entry) ?? 0) + 1;
    perRule.set(rule.entry, count);
    if (count > limits.perRule) {
      unenforced.set(rule.entry, {
        rule: rule.entry,
        source: rule.source,
        reason: `it covers more than ${limits.perRule} paths; name a folder instead (a covered folder is hidden whole)`,
      });
      return;
    }
    const known = found.get(real);
    // Hidden wins over read-only for the same file reached two ways.
    if (known && (known.effect === 'hide' || rule.effect === 'read-only')) return;
    const stats = lstatSync(real, { throwIfNoEntry: false });
    if (!stats) return;
    found.set(real, {
      path: real,
      foundAs,
      folder: stats.isDirectory(),
      effect: rule.effect,
      rule: rule.entry,
      dev: stats.dev,
      ino: stats.ino,
    });
  };

  const walkRoot = (root: string, group: readonly PathRule[]): boolean => {
    const hides = group.some((rule) => rule.effect === 'hide');
    const visited = new Set<string>();
    let entries = 0;
    const start = realTarget(root);
    if (!start) return true; // nothing there to cover
    const stack: { logical: string; real: string; folder: boolean; frozen: boolean }[] = [
      { logical: root, real: start.real, folder: start.folder, frozen: false },
    ];
    while (stack.length > 0) {
      const { logical, real, folder, frozen } = stack.pop()!;
      if (++entries > limits.entries) return false;
      const forms = logical === real ? [real] : [logical, real];
      const matching = group.filter((rule) => forms.some(rule.covers));
      const hiding = matching.find((rule) => rule.effect === 'hide');
      if (hiding) {
        record(hiding, real, logical);
        continue;
      }
      const freezing = frozen ? undefined : matching[0];
      if (freezing) record(freezing, real, logical);
      const nowFrozen = frozen || freezing !== undefined;
      // Inside a read-only folder only Read rules can still add anything.
      if (!folder || (nowFrozen && !hides) || visited.has(real)) continue;
      visited.add(real);
      let names: Dirent[];
      try {
        names = readdirSync(real, { withFileTypes: true });
      } catch {
        continue; // gone, or not listable by this user
      }
      for (const entry of names) {
        const childLogical = path.join(logical, entry.name);
        const childReal = path.join(real, entry.name);
        if (entry.isSymbolicLink()) {
          const target = realTarget(childReal);
          if (target) stack.push({ logical: childLogical, ...target, frozen: nowFrozen });
          continue;
        }
        stack.push({
          logical: childLogical,
          real: childReal,
          folder: entry.isDirectory(),
          frozen: nowFrozen,
        });
      }
    }
    return true;
  };

  for (const root of new Set(rules.map((rule) => rule.root))) {
    const group = rules.filter((rule) => rule.root === root);
    if (walkRoot(root, group)) continue;
    for (const rule of group) {
      unenforced.set(rule.entry, {
        rule: rule.entry,
        source: rule.source,
        reason: `its paths could not all be found: more than ${limits.entries} entries under ${root}; name a folder or a file from the project root (e.g. ./secrets/**) instead of a name at any depth`,
      });
    }
  }
  // Paths found before a rule went over a bound stay: hiding some beats hiding none.
  return { paths: [...found.values()], unenforced: [...unenforced.values()] };
}

/** Where `file` really is and whether it is a folder; null when nothing is there. */
function realTarget(file: string): { real: string; folder: boolean } | null {
  try {
    const real = realpathSync.native(file);
    return { real, folder: statSync(real).isDirectory() };
  } catch {
    return null;
  }
}
