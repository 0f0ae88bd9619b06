import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { anyGlobMatcher, globReachesSubfolders } from './glob-match.js';

describe('anyGlobMatcher', () => {
  const patterns = [
    '**/node_modules/**',
    '**/.git/**',
    '**/*.{lock,log}',
    '**/.env',
    '**/.env.*',
    '**/*.min.{js,css}',
    '**/{package-lock.json,yarn.lock}',
    'docs/[a-c]*.md',
  ];
  const paths = [
    'a/node_modules/x.js',
    'node_modules/x',
    'x.log',
    'deep/er/x.LOG',
    'src/.env',
    'src/.env.local',
    'src/.environment',
    'a.min.js',
    'package-lock.json',
    'sub/yarn.lock',
    'src/a.ts',
    '.git/config',
    'a/.gitx/y',
    'docs/b.md',
    'docs/d.md',
    'docs/sub/b.md',
  ];

  for (const caseSensitive of [true, false]) {
    it(`answers as picomatch's list matcher does (caseSensitive ${caseSensitive})`, () => {
      const reference = picomatch(patterns, { dot: true, nocase: !caseSensitive });
      const combined = anyGlobMatcher(patterns, { caseSensitive });
      for (const file of paths) expect([file, combined(file)]).toEqual([file, reference(file)]);
    });
  }

  it('matches nothing without patterns', () => {
    expect(anyGlobMatcher([])('anything')).toBe(false);
  });
});

describe('globReachesSubfolders', () => {
  it('tells globs that stay in one folder from those that go deeper', () => {
    expect(globReachesSubfolders('bench-read/*.ts')).toBe(false);
    expect(globReachesSubfolders('*.{ts,tsx}')).toBe(false);
    expect(globReachesSubfolders('src/file.ts')).toBe(false);
    expect(globReachesSubfolders('src/**/*.ts')).toBe(true);
    expect(globReachesSubfolders('src/**')).toBe(true);
    expect(globReachesSubfolders('src/*/index.ts')).toBe(true);
    expect(globReachesSubfolders('{a,b/c}.ts')).toBe(true);
  });
});
