import { describe, expect, it } from 'vitest';
import type { Mount } from '../mount.js';
import type { CoveredPath, CoveredPaths, RuleEffect } from './covered.js';
import { decidingMount, withRuleMounts } from './rule-mounts.js';

const covered = (...paths: [string, RuleEffect, boolean?][]): CoveredPaths => ({
  paths: paths.map(
    ([file, effect, folder]): CoveredPath => ({
      path: file,
      foundAs: file,
      folder: folder ?? false,
      effect,
      rule: 'R',
      dev: 0,
      ino: 0,
    }),
  ),
  unenforced: [],
});

/** The approved profile's shape: all read-only, the workspace writable, a credential hidden in it. */
const APPROVED: Mount[] = [
  { kind: 'read-only', path: '/' },
  { kind: 'empty-folder', path: '/tmp' },
  { kind: 'writable', path: '/ws' },
  { kind: 'read-only', path: '/ws/.git' },
  { kind: 'empty-folder', path: '/ws/home/.ssh' },
];
/** The unasked profile's shape: the workspace read-only, the home folder empty. */
const UNASKED: Mount[] = [
  { kind: 'read-only', path: '/usr' },
  { kind: 'empty-folder', path: '/home/me' },
  { kind: 'read-only', path: '/ws' },
  { kind: 'empty-folder', path: '/ws/home/.ssh' },
];

const added = (base: Mount[], paths: CoveredPaths) =>
  withRuleMounts(base, paths).mounts.slice(base.length);

describe('withRuleMounts', () => {
  it('hides a file and a folder, pinning the folders above them up to the writable root', () => {
    expect(
      added(APPROVED, covered(['/ws/a/b/secret.txt', 'hide'], ['/ws/vault', 'hide', true])),
    ).toEqual([
      { kind: 'writable', path: '/ws/a' },
      { kind: 'writable', path: '/ws/a/b' },
      { kind: 'hidden-folder', path: '/ws/vault' },
      { kind: 'empty-file', path: '/ws/a/b/secret.txt' },
    ]);
  });

  it('binds an Edit-covered path read-only over itself, bringing back what the profile hid or froze inside', () => {
    expect(added(APPROVED, covered(['/ws', 'read-only', true]))).toEqual([
      { kind: 'read-only', path: '/ws' },
      { kind: 'read-only', path: '/ws/.git' },
      { kind: 'empty-folder', path: '/ws/home/.ssh' },
    ]);
  });

  it('re-applies what a pinned folder holds, so a pin cannot open a frozen or hidden folder', () => {
    expect(added(APPROVED, covered(['/ws/home/notes.txt', 'read-only']))).toEqual([
      { kind: 'writable', path: '/ws/home' },
      { kind: 'empty-folder', path: '/ws/home/.ssh' },
      { kind: 'read-only', path: '/ws/home/notes.txt' },
    ]);
  });

  it('leaves out what the profile hides already or does not show, and Edit where nothing is writable', () => {
    const paths = covered(
      ['/home/me/secret', 'hide'],
      ['/tmp/x', 'hide'],
      ['/ws/home/.ssh/key', 'hide'],
      ['/srv/data', 'hide'],
      ['/ws/conf.txt', 'read-only'],
      ['/ws/.env', 'hide'],
    );
    expect(added(UNASKED, paths)).toEqual([{ kind: 'empty-file', path: '/ws/.env' }]);
    expect(added(APPROVED, paths)).toEqual([
      { kind: 'empty-file', path: '/srv/data' },
      { kind: 'read-only', path: '/ws/conf.txt' },
      { kind: 'empty-file', path: '/ws/.env' },
      { kind: 'empty-file', path: '/home/me/secret' },
    ]);
  });

  it('mounts nothing inside a hidden folder, and lays deeper paths over shallower ones', () => {
    expect(
      added(
        APPROVED,
        covered(
          ['/ws/conf/inner/.env', 'hide'],
          ['/ws/conf', 'read-only', true],
          ['/ws/vault/deep/x', 'read-only'],
          ['/ws/vault', 'hide', true],
        ),
      ),
    ).toEqual([
      { kind: 'writable', path: '/ws/conf' },
      { kind: 'writable', path: '/ws/conf/inner' },
      { kind: 'read-only', path: '/ws/conf' },
      { kind: 'hidden-folder', path: '/ws/vault' },
      { kind: 'empty-file', path: '/ws/conf/inner/.env' },
    ]);
  });
});

describe('decidingMount', () => {
  it('is the last mount at or above the path', () => {
    expect(decidingMount(APPROVED, '/ws/home/.ssh/id')?.kind).toBe('empty-folder');
    expect(decidingMount(APPROVED, '/ws/src/a.ts')?.kind).toBe('writable');
    expect(decidingMount(UNASKED, '/srv')).toBeUndefined();
  });
});
