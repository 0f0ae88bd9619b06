import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Checkpoint } from './checkpoint-types.js';
import { pruneGoneProjects, retained } from './prune-history.js';

const DAY = 24 * 60 * 60 * 1000;
const at = (daysAgo: number, now: number): Checkpoint => ({
  id: `c${daysAgo}`,
  at: new Date(now - daysAgo * DAY).toISOString(),
  kind: 'tool_calls',
  toolCalls: [],
  commit: 'x',
  roots: [],
});

describe('retention', () => {
  it('drops checkpoints older than maxAgeDays and all but the newest maxCount', () => {
    const now = Date.parse('2026-11-23T00:00:00Z');
    const all = [at(40, now), at(20, now), at(10, now), at(1, now)];
    const byAge = retained(all, { maxAgeDays: 30, maxCount: 100 }, now);
    expect(byAge.dropped.map((c) => c.id)).toEqual(['c40']);
    const byCount = retained(all, { maxAgeDays: 30, maxCount: 2 }, now);
    expect(byCount.kept.map((c) => c.id)).toEqual(['c10', 'c1']);
    expect(byCount.dropped.map((c) => c.id)).toEqual(['c40', 'c20']);
  });

  it('removes the history of a project whose folder is gone once it is past the age limit', () => {
    const base = mkdtempSync(path.join(os.tmpdir(), 'toolhost-prune-'));
    try {
      const history = path.join(base, 'history');
      const project = (name: string, root: string, daysAgo: number) => {
        const folder = path.join(history, name);
        mkdirSync(folder, { recursive: true });
        writeFileSync(path.join(folder, 'project.json'), JSON.stringify({ projectRoot: root }));
        const records = path.join(folder, 'checkpoints.jsonl');
        writeFileSync(records, '');
        const when = new Date(Date.now() - daysAgo * DAY);
        utimesSync(records, when, when);
        return folder;
      };
      const gone = project('gone', path.join(base, 'deleted-project'), 40);
      const recent = project('recent', path.join(base, 'moved-yesterday'), 1);
      const alive = project('alive', base, 40);
      pruneGoneProjects(history, 30 * DAY, 'checkpoints.jsonl');
      expect([gone, recent, alive].map((folder) => existsSync(folder))).toEqual([
        false,
        true,
        true,
      ]);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
