/**
 * The public surface is deliberate: the checked-in report (packages/core/api-report.txt)
 * must match what the entry points export, and the command reaches the library through
 * those entry points alone (at most twelve, no `internal/*`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiReport, REPORT } from '../../../scripts/api-report.mjs';

const CLI_SRC = path.resolve(import.meta.dirname, '../../cli/src');
const CORE = path.resolve(import.meta.dirname, '..');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('the public API of @toolhost/core', () => {
  it('is the checked-in report (run npm run api-report after changing it on purpose)', () => {
    expect(apiReport()).toBe(readFileSync(REPORT, 'utf8'));
  }, 60_000);

  it('has at most twelve entry points, and the command uses only them', () => {
    const { exports } = JSON.parse(readFileSync(path.join(CORE, 'package.json'), 'utf8'));
    const entries = Object.keys(exports as Record<string, unknown>);
    expect(entries.length).toBeLessThanOrEqual(12);
    expect(entries.some((entry) => entry.includes('internal'))).toBe(false);
    const used = new Set<string>();
    for (const file of sourceFiles(CLI_SRC)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/['"](@toolhost\/core[^'"]*)['"]/g))
        used.add(match[1] as string);
    }
    const publicNames = new Set(
      entries.map((entry) =>
        entry === '.' ? '@toolhost/core' : `@toolhost/core/${entry.slice(2)}`,
      ),
    );
    expect([...used].filter((name) => !publicNames.has(name))).toEqual([]);
  });
});
