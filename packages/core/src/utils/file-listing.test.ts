import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VISIBLE_FILES, writeSearchFixture } from '../../test/helpers/search-fixture.js';
import { makeWorkspace, type TempWorkspace } from '../../test/helpers/temp-workspace.js';
import { type ListingEngine, listFiles } from './file-listing.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
  writeSearchFixture(ws.root);
});
afterEach(() => ws.cleanup());

const RULES = { respectGitIgnore: true, respectToolhostIgnore: true };
const list = async (
  engine: ListingEngine,
  flags = { respectGitIgnore: true, respectToolhostIgnore: true },
  dir = ws.root,
) =>
  (await listFiles(dir, { roots: [ws.root], engine, ...flags }))
    .map((f) => path.relative(ws.root, f))
    .sort();

describe('listFiles', () => {
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

    it(`${engine}: lists only a folder's own files when not recursive`, async () => {
      const own = (
        await listFiles(ws.p('src'), { roots: [ws.root], engine, recursive: false, ...RULES })
      )
        .map((f) => path.relative(ws.root, f))
        .sort();
      expect(own).toEqual(['src/app.ts', 'src/util.ts']);
    });

    it(`${engine}: lists names with a newline, and hands files over as it finds them`, async () => {
      writeFileSync(ws.p('docs', 'odd\nname.md'), 'x\n');
      const seen: string[] = [];
      const returned = await listFiles(ws.p('docs'), {
        roots: [ws.root],
        engine,
        ...RULES,
        onFile: (file) => seen.push(path.relative(ws.root, file)),
      });
      expect(returned).toEqual([]);
      expect(seen.sort()).toEqual(['docs/guide.md', 'docs/odd\nname.md']);
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
