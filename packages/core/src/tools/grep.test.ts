import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  grepHits as hits,
  makeSearchWorkspace,
  TODO_HITS,
  withOwnSearchWorkspace,
} from '../../test/helpers/search-fixture.js';
import { makeWorkspace, type TempWorkspace } from '../../test/helpers/temp-workspace.js';
import { Config } from '../config/config.js';
import { IgnoreRules } from '../utils/ignore-rules.js';
import { GrepTool, type GrepToolParams } from './grep.js';
import { chooseEngine, type GrepEngineName, isCaseInsensitive } from './grep-engines.js';
import { ToolErrorType } from './tools.js';

/** The fixture, built once: tests that change files make their own (withOwnFixture). */
let ws: TempWorkspace;
const signal = new AbortController().signal;
beforeAll(() => {
  ws = makeSearchWorkspace();
});
afterAll(() => ws.cleanup());
const withOwnFixture = withOwnSearchWorkspace;

const ENGINES: GrepEngineName[] = ['ripgrep', 'git', 'javascript'];
const grep = (engine: GrepEngineName, params: GrepToolParams) =>
  new GrepTool(ws.config, { engine }).execute(params, signal);

describe('grep_search: every engine gives the same answers', () => {
  for (const engine of ENGINES) {
    describe(engine, () => {
      it('finds matches in path order, skipping ignored, binary, .git and symlinked files', async () => {
        const result = await grep(engine, { pattern: 'TODO' });
        expect(result.error).toBeUndefined();
        expect(hits(result.llmContent)).toEqual(TODO_HITS);
        expect(String(result.llmContent)).toMatch(
          /^Found 7 matches for \/TODO\/ in 7 files \(matching case\)\./,
        );
      });

      it('ignores case when the pattern has no capitals', async () => {
        const result = await grep(engine, { pattern: 'todo', path: ws.p('src') });
        expect(hits(result.llmContent)).toEqual([
          'src/app.ts:2',
          'src/components/.hidden.ts:1',
          'src/components/Button.tsx:1',
          'src/legacy/keep.log:1',
          'src/legacy/old.js:1',
          'src/util.ts:2',
        ]);
        expect(String(result.llmContent)).toContain('(ignoring case)');
      });

      it('filters by glob, with braces', async () => {
        const result = await grep(engine, { pattern: 'TODO', glob: '*.{ts,tsx}' });
        expect(hits(result.llmContent)).toEqual([
          'app/[id]/page.tsx:1',
          'src/app.ts:2',
          'src/components/.hidden.ts:1',
          'src/components/Button.tsx:1',
        ]);
      });

      it('filters by a glob with a folder part, still honouring ignore rules', async () => {
        const result = await grep(engine, { pattern: 'TODO', glob: 'src/**/*.{ts,js}' });
        expect(hits(result.llmContent)).toEqual([
          'src/app.ts:2',
          'src/components/.hidden.ts:1',
          'src/legacy/old.js:1',
        ]);
      });

      it('supports regular expressions', async () => {
        const result = await grep(engine, { pattern: 'export (const|function) \\w+' });
        expect(hits(result.llmContent)).toEqual([
          'src/app.ts:1',
          'src/components/Button.tsx:1',
          'src/util.ts:1',
        ]);
      });

      it('searches a single file', async () => {
        const result = await grep(engine, { pattern: 'run', path: ws.p('src', 'util.ts') });
        expect(hits(result.llmContent)).toEqual(['src/util.ts:1']);
      });

      it('reports no matches plainly', async () => {
        const result = await grep(engine, { pattern: 'NOT_ANYWHERE_\\d+' });
        expect(result.error).toBeUndefined();
        expect(result.llmContent).toBe('No matches for /NOT_ANYWHERE_\\d+/ (matching case).');
      });

      it('reads names with a newline, lines arriving in pieces, and committed ignored files', () =>
        withOwnFixture(async (ws) => {
          const grep = (engine: GrepEngineName, params: GrepToolParams) =>
            new GrepTool(ws.config, { engine }).execute(params, signal);
          writeFileSync(ws.p('odd\nname.txt'), 'TODO in an odd name\n');
          // Enough output to arrive in many chunks, lines of every length cut across them.
          const lines = Array.from(
            { length: 20_000 },
            (_, i) => `TODO ${'x'.repeat(i % 300)} ${i}`,
          );
          writeFileSync(ws.p('docs', 'many.md'), `${lines.join('\n')}\n`);
          // Committed, then ignored: git grep searches it, the other engines never do.
          writeFileSync(ws.p('dist', 'tracked.js'), '// TODO tracked but ignored\n');
          execFileSync('git', ['add', '-f', 'dist/tracked.js'], { cwd: ws.root });
          execFileSync(
            'git',
            ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'tracked'],
            { cwd: ws.root },
          );
          const result = await grep(engine, { pattern: 'TODO', limit: 30_000 });
          const text = String(result.llmContent);
          expect(text).toMatch(/^Found 20008 matches for \/TODO\/ in 9 files/);
          // The lines shown (as many as the output's size allows) are the chunked file's
          // first lines, each once and in order, not only the right count.
          const shown = hits(text).filter((hit) => hit.startsWith('docs/many.md:'));
          expect(shown.length).toBeGreaterThan(100);
          expect(shown).toEqual(
            lines.slice(0, shown.length).map((_, i) => `docs/many.md:${i + 1}`),
          );
          expect(text).not.toContain('tracked but ignored');
          const odd = String((await grep(engine, { pattern: 'odd name' })).llmContent);
          expect(odd).toContain('odd\nname.txt\n  1: TODO in an odd name');
          const last = await grep(engine, { pattern: ' 19999$', path: ws.p('docs') });
          expect(String(last.llmContent)).toContain(`  20000: ${lines[19_999]}`);
        }));

      it('rejects an invalid regular expression with a clear error', async () => {
        const result = await grep(engine, { pattern: 'foo(' });
        expect(result.error?.type).toBe(ToolErrorType.INVALID_PATTERN);
        // One line naming the problem: no copy of the pattern with a caret under it.
        expect(result.error?.message).toMatch(
          /^The pattern "foo\(" is not a valid regular expression \((unclosed group|unterminated group|missing closing parenthesis|unmatched \( or \\\(|missing \))[^)]*\)\. Escape special characters/i,
        );
        expect(result.error?.message).not.toMatch(/\n|\^|\(\?:/);
      });
    });
  }
});

describe('grep_search: limits and errors', () => {
  it('keeps the first matches in path order and says how many were left', () =>
    withOwnFixture(async (ws) => {
      for (let i = 0; i < 30; i++)
        writeFileSync(ws.p(`many-${String(i).padStart(2, '0')}.txt`), 'needle\nneedle\n');
      const result = await new GrepTool(ws.config).execute({ pattern: 'needle', limit: 5 }, signal);
      const text = String(result.llmContent);
      expect(text).toContain('Found 60 matches for /needle/ in 30 files');
      expect(hits(text)).toEqual([
        'many-00.txt:1',
        'many-00.txt:2',
        'many-01.txt:1',
        'many-01.txt:2',
        'many-02.txt:1',
      ]);
      expect(text).toContain('Showing the first 5 of 60 matches in path order; 55 more not shown');
      expect(text).toContain('raise limit');
    }));

  it('cuts very long lines', () =>
    withOwnFixture(async (ws) => {
      writeFileSync(ws.p('long.txt'), `needle${'x'.repeat(5000)}\n`);
      const result = await new GrepTool(ws.config).execute(
        { pattern: 'needle', path: ws.p('long.txt') },
        signal,
      );
      const text = String(result.llmContent);
      expect(text.length).toBeLessThan(2000);
      expect(hits(text)).toEqual(['long.txt:1']);
    }));

  it('counts each file once when workspace roots overlap', async () => {
    // The project root and a folder inside it, both roots: a file in the inner one is
    // found from both, and is still counted as one file.
    const config = new Config({ roots: [ws.root, ws.p('src')], homeDir: ws.home });
    const result = await new GrepTool(config).execute({ pattern: 'TODO' }, signal);
    expect(String(result.llmContent)).toMatch(/ in 7 files /);
  });

  it("keeps the next file's name whole after ripgrep notes a file found binary past a match", () =>
    withOwnFixture(async (ws) => {
      // rg prints the first match, then finds the NUL and puts a warning line in the output.
      writeFileSync(
        ws.p('late-binary.txt'),
        `needle first\n${'x'.repeat(200_000)}\n\0\nneedle after\n`,
      );
      for (const name of ['m-1.txt', 'n-2.txt', 'z-3.txt']) writeFileSync(ws.p(name), 'needle\n');
      const result = await new GrepTool(ws.config, { engine: 'ripgrep' }).execute(
        { pattern: 'needle' },
        signal,
      );
      const text = String(result.llmContent);
      expect(text).not.toContain('WARNING');
      expect(hits(text)).toEqual(['late-binary.txt:1', 'm-1.txt:1', 'n-2.txt:1', 'z-3.txt:1']);
    }));

  it('counts the matches it does not show, of every file', () =>
    withOwnFixture(async (ws) => {
      // Files arrive in no set order: later ones push earlier-kept matches out and are
      // turned down whole once the kept ones all sort before them.
      for (let i = 0; i < 40; i++)
        writeFileSync(ws.p(`f-${String(i).padStart(2, '0')}.txt`), 'needle\n'.repeat(i + 1));
      for (const engine of ['ripgrep', 'git'] as const) {
        const result = await new GrepTool(ws.config, { engine }).execute(
          { pattern: 'needle', limit: 3 },
          signal,
        );
        const text = String(result.llmContent);
        expect(text).toContain('Found 820 matches for /needle/ in 40 files');
        expect(hits(text)).toEqual(['f-00.txt:1', 'f-01.txt:1', 'f-01.txt:2']);
      }
    }));

  it('accepts include as an alias of glob', () => {
    const tool = new GrepTool(ws.config);
    expect(tool.normalizeParams({ pattern: 'x', include: '*.ts' })).toEqual({
      pattern: 'x',
      glob: '*.ts',
    });
  });

  it('gives search_path_not_found for a missing path and refuses paths outside', async () => {
    const tool = new GrepTool(ws.config);
    expect((await tool.execute({ pattern: 'x', path: ws.p('nope') }, signal)).error?.type).toBe(
      ToolErrorType.SEARCH_PATH_NOT_FOUND,
    );
    expect(
      (await tool.execute({ pattern: 'x', path: path.dirname(ws.root) }, signal)).error?.type,
    ).toBe(ToolErrorType.PATH_NOT_IN_WORKSPACE);
  });
});

describe('isCaseInsensitive', () => {
  it('looks for capitals outside escapes', () => {
    expect(isCaseInsensitive('todo')).toBe(true);
    expect(isCaseInsensitive('Todo')).toBe(false);
    expect(isCaseInsensitive('\\Sfoo\\W')).toBe(true);
    expect(isCaseInsensitive('Ärger')).toBe(false);
  });
});

describe('grep_search: engine choice', () => {
  const auto = (params: GrepToolParams) => new GrepTool(ws.config).execute(params, signal);

  it('uses ripgrep inside a repository and outside one (it measured faster than git grep)', async () => {
    const rules = new IgnoreRules(ws.config.workspace.roots);
    expect(await chooseEngine(undefined, ws.root, rules)).toBe('ripgrep');
    const outside = makeWorkspace();
    try {
      outside.write('notes.txt', 'TODO outside\n');
      const outsideRules = new IgnoreRules(outside.config.workspace.roots);
      expect(await chooseEngine(undefined, outside.root, outsideRules)).toBe('ripgrep');
    } finally {
      outside.cleanup();
    }
  });

  it('answers as every forced engine does', async () => {
    const result = await auto({ pattern: 'TODO' });
    expect(hits(result.llmContent)).toEqual(TODO_HITS);
  });
});
