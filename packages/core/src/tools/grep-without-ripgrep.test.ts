/**
 * grep_search on a platform where the bundled ripgrep is missing: git grep inside a
 * repository, JavaScript outside one and when git refuses the repository.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  grepHits as hits,
  TODO_HITS,
  writeSearchFixture,
} from '../../test/helpers/search-fixture.js';
import { makeWorkspace, type TempWorkspace } from '../../test/helpers/temp-workspace.js';
import { IgnoreRules } from '../utils/ignore-rules.js';
import { GrepTool } from './grep.js';
import { chooseEngine } from './grep-engines.js';

// The platform package that carries rg is absent: the lookup finds nothing.
vi.mock('../utils/ripgrep.js', async (original) => ({
  ...(await original<typeof import('../utils/ripgrep.js')>()),
  ripgrepPath: () => null,
}));

const signal = new AbortController().signal;
let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
  writeSearchFixture(ws.root);
});
afterEach(() => ws.cleanup());

describe('grep_search without ripgrep', () => {
  it('uses git grep inside a repository and JavaScript outside one', async () => {
    expect(await chooseEngine(undefined, ws.root, new IgnoreRules(ws.config.workspace.roots))).toBe(
      'git',
    );
    const outside = makeWorkspace();
    try {
      outside.write('notes.txt', 'TODO outside\n');
      const rules = new IgnoreRules(outside.config.workspace.roots);
      expect(await chooseEngine(undefined, outside.root, rules)).toBe('javascript');
      const result = await new GrepTool(outside.config).execute({ pattern: 'TODO' }, signal);
      expect(hits(result.llmContent)).toEqual(['notes.txt:1']);
    } finally {
      outside.cleanup();
    }
  });

  it('falls back to JavaScript when git refuses the repository', async () => {
    const auto = () => new GrepTool(ws.config).execute({ pattern: 'TODO' }, signal);
    expect(hits((await auto()).llmContent)).toEqual(TODO_HITS);
    // A .git file naming a missing repository: git stops with "not a git repository".
    rmSync(path.join(ws.root, '.git'), { recursive: true });
    writeFileSync(path.join(ws.root, '.git'), `gitdir: ${path.join(ws.base, 'moved-away')}\n`);
    expect(() =>
      execFileSync('git', ['grep', '-e', 'TODO'], { cwd: ws.root, stdio: 'pipe' }),
    ).toThrow();
    expect(hits((await auto()).llmContent)).toEqual(TODO_HITS);
  });
});
