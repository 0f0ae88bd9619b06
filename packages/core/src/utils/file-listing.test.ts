import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VISIBLE_FILES, writeSearchFixture } from '../../test/helpers/search-fixture.js';
import { makeWorkspace, type TempWorkspace } from '../../test/helpers/temp-workspace.js';
import { type ListingEngine, listFiles } from './file-listing.js';
import { ripgrepPath } from './ripgrep.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
  writeSearchFixture(ws.root);
});
afterEach(() => ws.cleanup());

const list = async (
  engine: ListingEngine,
  flags = { respectGitIgnore: true, respectToolhostIgnore: true },
  dir = ws.root,
) =>
  (await listFiles(dir, { roots: [ws.root], engine, ...flags }))
    .map((f) => path.relative(ws.root, f))
    .sort();

describe('listFiles', () => {
  it('finds the bundled ripgrep', () => {
    expect(ripgrepPath()).toMatch(/rg(\.exe)?$/);
  });

  for (const engine of ['ripgrep', 'javascript'] as const) {
    it(`${engine}: applies nested .gitignore, .toolhostignore, skips .git and symlinks, keeps hidden files`, async () => {
      expect(await list(engine)).toEqual(VISIBLE_FILES);
    });

    it(`${engine}: lists ignored files when asked to`, async () => {
      const all = await list(engine, { respectGitIgnore: false, respectToolhostIgnore: false });
      expect(all).toEqual(
        [
          ...VISIBLE_FILES,
          'debug.log',
          'dist/bundle.js',
          'secrets/key.txt',
          'src/legacy/generated.ts',
        ].sort(),
      );
    });

    it(`${engine}: lists a subfolder`, async () => {
      expect(await list(engine, undefined, ws.p('src', 'legacy'))).toEqual([
        'src/legacy/.gitignore',
        'src/legacy/keep.log',
        'src/legacy/old.js',
      ]);
    });
  }
});
