import { utimesSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSearchWorkspace, withOwnSearchWorkspace } from '../../test/helpers/search-fixture.js';
import type { TempWorkspace } from '../../test/helpers/temp-workspace.js';
import { GlobTool, type GlobToolParams } from './glob.js';
import { ToolErrorType } from './tools.js';

let ws: TempWorkspace;
const signal = new AbortController().signal;
const OLD = new Date('2020-01-01T00:00:00Z');

/** The fixture, built once: tests that change files make their own. */
beforeAll(() => {
  ws = makeSearchWorkspace();
});
afterAll(() => ws.cleanup());

function paths(result: { llmContent: unknown }, root = ws.root): string[] {
  return String(result.llmContent)
    .split('\n')
    .filter((line) => line.startsWith('/'))
    .map((line) => path.relative(root, line));
}

for (const engine of ['ripgrep', 'javascript'] as const) {
  describe(`glob (${engine})`, () => {
    const glob = (params: GlobToolParams) =>
      new GlobTool(ws.config, { engine }).execute(params, signal);

    it('matches ** and braces, honouring ignore files', async () => {
      const result = await glob({ pattern: '**/*.{ts,tsx}' });
      expect(paths(result).sort()).toEqual([
        'app/[id]/page.tsx',
        'src/app.ts',
        'src/components/.hidden.ts',
        'src/components/Button.tsx',
        'src/util.ts',
      ]);
      expect(String(result.llmContent)).toContain('Files excluded by ignore rules are not listed.');
    });

    it('counts the ignored files that match when nothing else does', async () => {
      const result = await glob({ pattern: '**/generated.TS' });
      expect(result.llmContent).toBe(
        `No files match "**/generated.TS" in ${ws.root}. 1 more matching file was left out by .gitignore/.toolhostignore rules.`,
      );
      const inIgnoredFolder = await glob({ pattern: 'dist/*.js' });
      expect(String(inIgnoredFolder.llmContent)).toContain('1 more matching file was left out');
    });

    it('applies the folder part of the pattern and the name part together', async () => {
      expect(paths(await glob({ pattern: 'SRC/**/*.TS' })).sort()).toEqual([
        'src/app.ts',
        'src/components/.hidden.ts',
        'src/util.ts',
      ]);
      expect(paths(await glob({ pattern: 'src/*/Button.tsx', case_sensitive: true }))).toEqual([
        'src/components/Button.tsx',
      ]);
      expect(paths(await glob({ pattern: 'nowhere/**/*.ts' }))).toEqual([]);
      expect(paths(await glob({ pattern: '**/*.{md,MD}' })).sort()).toEqual([
        'README.md',
        'docs/guide.md',
      ]);
      expect(paths(await glob({ pattern: 'src/**' })).length).toBe(7);
    });

    it('includes ignored files when asked', async () => {
      const result = await glob({ pattern: '**/*.log', respect_git_ignore: false });
      expect(paths(result).sort()).toEqual(['debug.log', 'src/legacy/keep.log']);
    });

    it('is case-insensitive by default and case-sensitive on request', async () => {
      expect(paths(await glob({ pattern: '**/button.TSX' }))).toEqual([
        'src/components/Button.tsx',
      ]);
      expect(paths(await glob({ pattern: '**/button.TSX', case_sensitive: true }))).toEqual([]);
    });

    it('keeps * within one folder', async () => {
      expect(paths(await glob({ pattern: '*.md' }))).toEqual(['README.md']);
    });

    it('searches under path, with absolute results', async () => {
      const result = await glob({ pattern: '*.ts', path: ws.p('src') });
      expect(String(result.llmContent).split('\n').slice(1).sort()).toEqual([
        ws.p('src', 'app.ts'),
        ws.p('src', 'util.ts'),
      ]);
    });

    it('finds a file whose literal path contains glob characters', async () => {
      expect(paths(await glob({ pattern: 'app/[id]/page.tsx' }))).toContain('app/[id]/page.tsx');
    });

    it('puts files changed in the last 24 hours first, newest first, then the rest by path', () =>
      withOwnSearchWorkspace(async (own) => {
        for (const file of [
          'src/app.ts',
          'src/util.ts',
          'src/components/Button.tsx',
          'src/components/.hidden.ts',
        ]) {
          utimesSync(own.p(file), OLD, OLD);
        }
        const now = Date.now() / 1000;
        utimesSync(own.p('src/util.ts'), now - 60, now - 60);
        utimesSync(own.p('src/components/Button.tsx'), now - 10, now - 10);
        const result = await new GlobTool(own.config, { engine }).execute(
          { pattern: 'src/**/*.{ts,tsx}' },
          signal,
        );
        expect(paths(result, own.root)).toEqual([
          'src/components/Button.tsx',
          'src/util.ts',
          'src/app.ts',
          'src/components/.hidden.ts',
        ]);
      }));

    it('says so when nothing matches', async () => {
      const result = await glob({ pattern: '**/*.rs' });
      expect(result.llmContent).toBe(`No files match "**/*.rs" in ${ws.root}.`);
    });
  });
}

describe('glob: limits and errors', () => {
  it('caps the list at 1000 and says how many were left', () =>
    withOwnSearchWorkspace(async (own) => {
      for (let i = 0; i < 1005; i++) own.write(`many/f${String(i).padStart(4, '0')}.txt`, '');
      const result = await new GlobTool(own.config).execute({ pattern: 'many/*.txt' }, signal);
      expect(String(result.llmContent)).toContain('Found 1005 files');
      expect(String(result.llmContent)).toContain('(5 more files match;');
      expect(paths(result, own.root)).toHaveLength(1000);
    }));

  it('shows the recent files first and then the first older ones by path, whatever the listing order', () =>
    withOwnSearchWorkspace(async (own) => {
      const names = Array.from(
        { length: 1500 },
        (_, i) => `many/f${String(i).padStart(4, '0')}.txt`,
      );
      for (const name of names) {
        own.write(name, '');
        utimesSync(own.p(name), OLD, OLD);
      }
      const now = Date.now() / 1000;
      // Recent files spread through the path order, the newest last by path.
      const recent = ['many/f1499.txt', 'many/f0700.txt', 'many/f0003.txt'];
      for (const [i, name] of recent.entries())
        utimesSync(own.p(name), now - 100 + i, now - 100 + i);
      const result = await new GlobTool(own.config).execute({ pattern: 'many/*.txt' }, signal);
      expect(String(result.llmContent)).toContain('Found 1500 files');
      expect(String(result.llmContent)).toContain('(500 more files match;');
      const older = names.filter((name) => !recent.includes(name)).slice(0, 997);
      expect(paths(result, own.root)).toEqual([...recent].reverse().concat(older));
    }));

  it('shows the newest files when more than 1000 are recent, ties by path, however they were written', () =>
    withOwnSearchWorkspace(async (own) => {
      const names = Array.from(
        { length: 1100 },
        (_, i) => `many/f${String(i).padStart(4, '0')}.txt`,
      );
      const now = Date.now() / 1000;
      // Times spread out of path order, three files to each time (the cut at 1000 falls inside a tie).
      const times = names.map((_, i) => now - 5000 + Math.floor(((i * 7) % names.length) / 3));
      for (const [i, name] of names.entries()) {
        own.write(name, '');
        utimesSync(own.p(name), times[i]!, times[i]!);
      }
      const expected = names
        .map((name, i) => ({ name, time: times[i]! }))
        .sort((a, b) => b.time - a.time || (a.name < b.name ? -1 : 1))
        .slice(0, 1000)
        .map(({ name }) => name);
      for (const engine of ['ripgrep', 'javascript'] as const) {
        const result = await new GlobTool(own.config, { engine }).execute(
          { pattern: 'many/*.txt' },
          signal,
        );
        expect(String(result.llmContent)).toContain('Found 1100 files');
        expect(String(result.llmContent)).toContain('(100 more files match;');
        expect(paths(result, own.root)).toEqual(expected);
      }
    }));

  it('refuses a folder outside the workspace', async () => {
    const result = await new GlobTool(ws.config).execute({ pattern: '*', path: ws.base }, signal);
    expect(result.error?.type).toBe(ToolErrorType.PATH_NOT_IN_WORKSPACE);
  });

  it('rejects an empty pattern and a relative path', () => {
    const tool = new GlobTool(ws.config);
    expect(tool.validateToolParams({ pattern: ' ' })).toMatch(/must not be empty/);
    expect(tool.validateToolParams({ pattern: '*', path: 'src' })).toMatch(/not an absolute path/);
  });
});
