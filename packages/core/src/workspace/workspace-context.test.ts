import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  isWithin,
  resolveLikeKernel,
  WorkspaceContext,
  WorkspaceError,
} from './workspace-context.js';

let base: string;
let ws: string;
let evil: string;
let outside: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'toolhost-ws-')));
  ws = path.join(base, 'ws');
  evil = path.join(base, 'ws-evil');
  outside = path.join(base, 'outside');
  for (const dir of [ws, evil, outside, path.join(ws, 'src')]) mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(ws, 'src', 'a.ts'), 'a');
  writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  writeFileSync(path.join(evil, 'x.txt'), 'x');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('WorkspaceContext', () => {
  it('accepts files and new paths inside the root', () => {
    const workspace = new WorkspaceContext([ws]);
    expect(workspace.check(path.join(ws, 'src', 'a.ts'))).toEqual({
      ok: true,
      realPath: path.join(ws, 'src', 'a.ts'),
    });
    expect(workspace.check(path.join(ws, 'new', 'deep', 'file.ts'), 'write').ok).toBe(true);
    expect(workspace.check(ws).ok).toBe(true);
  });

  it('compares whole path components: /ws does not contain /ws-evil', () => {
    const workspace = new WorkspaceContext([ws]);
    const result = workspace.check(path.join(evil, 'x.txt'));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toBe('outside_workspace');
  });

  it('resolves .. before checking', () => {
    const workspace = new WorkspaceContext([ws]);
    expect(workspace.check(path.join(ws, 'src', '..', '..', 'outside', 'secret.txt')).ok).toBe(
      false,
    );
    expect(workspace.check(path.join(ws, 'src', '..', 'src', 'a.ts')).ok).toBe(true);
  });

  it('refuses a symlink that leads out, and says so', () => {
    symlinkSync(outside, path.join(ws, 'link-out'));
    const workspace = new WorkspaceContext([ws]);
    const result = workspace.check(path.join(ws, 'link-out', 'secret.txt'));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain('through a symbolic link');
    expect(!result.ok && result.message).toContain(path.join(outside, 'secret.txt'));
  });

  it('refuses a dangling symlink whose target would be created outside', () => {
    symlinkSync(path.join(outside, 'not-yet.txt'), path.join(ws, 'dangling'));
    const workspace = new WorkspaceContext([ws]);
    expect(workspace.check(path.join(ws, 'dangling'), 'write').ok).toBe(false);
  });

  it('follows a link before applying .. (as the kernel does)', () => {
    // ws/deep -> outside/sub ; ws/deep/../secret.txt is outside/secret.txt, not ws/secret.txt
    mkdirSync(path.join(outside, 'sub'));
    symlinkSync(path.join(outside, 'sub'), path.join(ws, 'deep'));
    const workspace = new WorkspaceContext([ws]);
    expect(workspace.check(`${ws}/deep/../secret.txt`).ok).toBe(false);
  });

  it('accepts symlinks that stay inside and returns the real path', () => {
    symlinkSync(path.join(ws, 'src'), path.join(ws, 'src-link'));
    symlinkSync('src/a.ts', path.join(ws, 'relative-link'));
    const workspace = new WorkspaceContext([ws]);
    expect(workspace.check(path.join(ws, 'src-link', 'a.ts'))).toEqual({
      ok: true,
      realPath: path.join(ws, 'src', 'a.ts'),
    });
    expect(workspace.check(path.join(ws, 'relative-link'))).toEqual({
      ok: true,
      realPath: path.join(ws, 'src', 'a.ts'),
    });
  });

  it('accepts a root reached through a symlink', () => {
    const alias = path.join(base, 'alias');
    symlinkSync(ws, alias);
    const workspace = new WorkspaceContext([alias]);
    expect(workspace.roots).toEqual([ws]);
    expect(workspace.check(path.join(alias, 'src', 'a.ts')).ok).toBe(true);
  });

  it('reports a symlink loop', () => {
    symlinkSync(path.join(ws, 'loop-b'), path.join(ws, 'loop-a'));
    symlinkSync(path.join(ws, 'loop-a'), path.join(ws, 'loop-b'));
    const result = new WorkspaceContext([ws]).check(path.join(ws, 'loop-a'));
    expect(!result.ok && result.reason).toBe('symlink_loop');
  });

  it('requires absolute paths and suggests one', () => {
    const result = new WorkspaceContext([ws]).check('src/a.ts');
    expect(!result.ok && result.reason).toBe('not_absolute');
    expect(!result.ok && result.message).toContain(path.join(ws, 'src/a.ts'));
  });

  it('supports several roots', () => {
    const workspace = new WorkspaceContext([ws, outside]);
    expect(workspace.check(path.join(outside, 'secret.txt')).ok).toBe(true);
    expect(workspace.check(path.join(evil, 'x.txt')).ok).toBe(false);
    expect(workspace.relative(path.join(outside, 'secret.txt'))).toBe(
      path.join('outside', 'secret.txt'),
    );
    expect(workspace.relative(path.join(ws, 'src', 'a.ts'))).toBe(path.join('src', 'a.ts'));
  });

  it('lets read-only folders be read but not written', () => {
    const workspace = new WorkspaceContext([ws]);
    workspace.addReadOnlyDirectory(outside);
    expect(workspace.check(path.join(outside, 'secret.txt'), 'read').ok).toBe(true);
    expect(workspace.check(path.join(outside, 'secret.txt'), 'write').ok).toBe(false);
  });

  it('rejects a missing root or a file as root', () => {
    expect(() => new WorkspaceContext([path.join(base, 'nope')])).toThrow(WorkspaceError);
    expect(() => new WorkspaceContext([path.join(ws, 'src', 'a.ts')])).toThrow(/not a folder/);
  });
});

describe('isWithin', () => {
  it('compares components', () => {
    expect(isWithin('/ws', '/ws')).toBe(true);
    expect(isWithin('/ws', '/ws/a')).toBe(true);
    expect(isWithin('/ws', '/ws-evil')).toBe(false);
    expect(isWithin('/ws', '/ws/..foo')).toBe(true);
    expect(isWithin('/ws', '/')).toBe(false);
    expect(isWithin('/', '/anything')).toBe(true);
  });
});

describe('resolveLikeKernel', () => {
  it('appends missing components lexically', () => {
    expect(resolveLikeKernel(path.join(ws, 'a', 'b', '..', 'c'))).toBe(path.join(ws, 'a', 'c'));
  });
});
