import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestSession, type TestSession } from '../../../test/helpers/command-context.js';
import { rankPaths, suggestAtPaths, WorkspacePaths } from './path-completion.js';

describe('ranking paths', () => {
  const entries = [
    'README.md',
    'src/',
    'src/main.ts',
    'src/deep/',
    'src/deep/more.ts',
    'docs/',
    'docs/main-guide.md',
    'test/src-map.ts',
  ];

  it('puts the typed folder’s own entries first, then file names, then anything containing it', () => {
    expect(rankPaths('src/', entries)).toEqual([
      'src/',
      'src/deep/',
      'src/main.ts',
      'src/deep/more.ts',
    ]);
    expect(rankPaths('main', entries)).toEqual(['src/main.ts', 'docs/main-guide.md']);
    expect(rankPaths('MORE', entries)).toEqual(['src/deep/more.ts']);
    expect(rankPaths('map', entries)).toEqual(['test/src-map.ts']);
  });
});

describe('@ path suggestions', () => {
  let session: TestSession;
  beforeEach(() => {
    session = makeTestSession();
    const { root } = session.dirs;
    mkdirSync(path.join(root, 'src/components'), { recursive: true });
    mkdirSync(path.join(root, 'build'));
    mkdirSync(path.join(root, '.git'));
    writeFileSync(path.join(root, 'src/components/button file.tsx'), '');
    writeFileSync(path.join(root, 'src/index.ts'), '');
    writeFileSync(path.join(root, 'build/index.js'), '');
    writeFileSync(path.join(root, 'private.key'), '');
    writeFileSync(path.join(root, '.gitignore'), 'build/\n');
    writeFileSync(path.join(root, '.toolhostignore'), '*.key\n');
  });
  afterEach(() => session.close());

  it('offers workspace files and folders the ignore files allow, escaped for the prompt', async () => {
    const paths = new WorkspacePaths(session.config);
    const listed = await paths.list();
    expect(listed).toContain('src/components/');
    expect(listed).toContain('src/components/button file.tsx');
    expect(listed.some((entry) => entry.startsWith('build'))).toBe(false);
    expect(listed).not.toContain('private.key');
    expect(listed.some((entry) => entry.startsWith('.git/'))).toBe(false);

    const suggestions = await suggestAtPaths('src/comp', paths, session.registry);
    expect(suggestions.map((suggestion) => suggestion.value)).toEqual([
      '@src/components/',
      '@src/components/button\\ file.tsx ',
    ]);
    expect(
      (await suggestAtPaths('index', paths, session.registry)).map((item) => item.label),
    ).toEqual(['src/index.ts']);
  });
});
