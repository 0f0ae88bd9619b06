/**
 * Keeps ~/.toolhost/history from growing without end: a project's checkpoints past the
 * retention (older than maxAgeDays, or beyond the newest maxCount) are dropped after a new
 * one is taken, their refs deleted and, at most once a day, the shadow repository's
 * unreachable objects collected. History folders of projects whose folder no longer exists
 * go once their newest checkpoint is past the age limit.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { writeOwnFile } from '../../utils/own-files.js';
import type { Checkpoint } from './checkpoint-types.js';
import type { ShadowGit } from './shadow-git.js';

export interface HistoryRetention {
  maxAgeDays?: number;
  maxCount?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const GC_MARKER = 'last-gc';
/** Objects this recent are kept by gc even when unreachable: a snapshot may be writing them. */
const GC_GRACE = '1.hour.ago';

/** Which checkpoints (oldest first) the retention keeps. */
export function retained(
  all: readonly Checkpoint[],
  retention: HistoryRetention,
  now: number,
): { kept: Checkpoint[]; dropped: Checkpoint[] } {
  const oldest = retention.maxAgeDays ? now - retention.maxAgeDays * DAY_MS : -Infinity;
  const maxCount = retention.maxCount ?? Infinity;
  const kept: Checkpoint[] = [];
  const dropped: Checkpoint[] = [];
  all.forEach((checkpoint, index) => {
    const tooOld = Date.parse(checkpoint.at) < oldest;
    const tooMany = all.length - index > maxCount;
    (tooOld || tooMany ? dropped : kept).push(checkpoint);
  });
  return { kept, dropped };
}

/**
 * Rewrites the records without `dropped` (a new file renamed over the old one), deletes
 * their refs, and collects the objects only they held when the last collection was over a
 * day ago.
 */
export async function removeCheckpoints(
  git: ShadowGit,
  dir: string,
  recordsName: string,
  kept: readonly Checkpoint[],
  dropped: readonly Checkpoint[],
  retention: HistoryRetention,
): Promise<void> {
  const records = path.join(dir, recordsName);
  // A fresh name renamed over the old records, never through a link among them.
  await writeOwnFile(
    path.dirname(dir),
    records,
    kept.map((checkpoint) => `${JSON.stringify(checkpoint)}\n`).join(''),
  );
  const keptCommits = new Set(kept.map((checkpoint) => checkpoint.commit));
  await git.run(['update-ref', '--stdin'], {
    input: dropped.map((checkpoint) => `delete refs/checkpoints/${checkpoint.id}\n`).join(''),
  });
  // HEAD only tells the next snapshot what the last tree was; it must not keep a dropped one.
  const newest = kept.at(-1);
  if (newest && !keptCommits.has((await git.run(['rev-parse', 'HEAD'])).trim())) {
    await git.run(['update-ref', 'HEAD', newest.commit]);
  }
  const marker = path.join(dir, GC_MARKER);
  if (existsSync(marker) && Date.now() - statSync(marker).mtimeMs < DAY_MS) return;
  await writeOwnFile(path.dirname(dir), marker, '');
  await git.run(['reflog', 'expire', '--expire=now', '--all']);
  await git.run(['gc', '--quiet', `--prune=${GC_GRACE}`]);
  pruneGoneProjects(path.dirname(dir), (retention.maxAgeDays ?? 0) * DAY_MS, recordsName);
}

/**
 * Removes the history of projects whose folder no longer exists and whose records were
 * last written more than `maxAgeMs` ago (at least a day).
 */
export function pruneGoneProjects(historyDir: string, maxAgeMs: number, recordsName: string): void {
  let names: string[];
  try {
    names = readdirSync(historyDir);
  } catch {
    return;
  }
  const limit = Date.now() - Math.max(maxAgeMs, DAY_MS);
  for (const name of names) {
    const folder = path.join(historyDir, name);
    try {
      const { projectRoot } = JSON.parse(
        readFileSync(path.join(folder, 'project.json'), 'utf8'),
      ) as { projectRoot?: unknown };
      if (typeof projectRoot !== 'string' || existsSync(projectRoot)) continue;
      const records = path.join(folder, recordsName);
      if (statSync(existsSync(records) ? records : folder).mtimeMs > limit) continue;
      rmSync(folder, { recursive: true, force: true });
    } catch {
      // not a project's history folder
    }
  }
}
