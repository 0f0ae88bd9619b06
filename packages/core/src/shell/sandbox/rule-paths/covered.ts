/**
 * What the sandbox receives of the person's Read and Edit deny rules: the paths they cover
 * now, each to hide or to make read-only, and the rules some of whose paths could not all
 * be found. Finding them is permissions' business (permissions/covered-paths.ts walks the
 * disk for the session's rules); rule-mounts.ts lays them over a profile's mounts.
 */

/** What the sandbox does with a covered path: Read deny hides it, Edit deny freezes it. */
export type RuleEffect = 'hide' | 'read-only';

export interface CoveredPath {
  /** The real path, where the mount goes (a link to it leads into the mount). */
  path: string;
  /** The path the walk found it by (differs from `path` through a link). */
  foundAs: string;
  folder: boolean;
  effect: RuleEffect;
  rule: string;
  /** Its identity when found: a mount point bwrap had to make is told apart by it. */
  dev: number;
  ino: number;
}

export interface UnenforcedRule {
  rule: string;
  source: string;
  reason: string;
}

export interface CoveredPaths {
  paths: CoveredPath[];
  /** Rules some of whose paths may be missing from `paths`: commands ask while there are any. */
  unenforced: UnenforcedRule[];
}

export const NOTHING_COVERED: CoveredPaths = { paths: [], unenforced: [] };
