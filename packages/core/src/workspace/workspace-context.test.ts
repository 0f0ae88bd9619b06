import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  isWithin,
  kernelResolver,
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

  it('works out a read-only folder added for later on the first decision, read-only too', () => {
    const workspace = new WorkspaceContext([ws]);
    let asked = 0;
    workspace.addReadOnlyDirectoryLater(() => {
      asked++;
      return outside;
    });
    expect(asked).toBe(0);
    expect(workspace.allowsRealPath(path.join(outside, 'secret.txt'))).toBe(true);
    expect(workspace.check(path.join(outside, 'secret.txt'), 'read').ok).toBe(true);
    expect(workspace.check(path.join(outside, 'secret.txt'), 'write').ok).toBe(false);
    expect(asked).toBe(1);
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

  it('reads a backslash as a character of a name, as Linux does', () => {
    expect(resolveLikeKernel(path.join(ws, 'a\\b'))).toBe(path.join(ws, 'a\\b'));
  });

  it('skips . and repeated slashes', () => {
    expect(resolveLikeKernel(`${ws}/./src//./a.ts`)).toBe(path.join(ws, 'src', 'a.ts'));
  });

  it('applies .. after a link pointing outside to the link target', () => {
    symlinkSync(path.join(outside, 'sub'), path.join(ws, 'link'));
    mkdirSync(path.join(outside, 'sub'));
    expect(resolveLikeKernel(`${ws}/link/..`)).toBe(outside);
    expect(resolveLikeKernel(`${ws}/link/../secret.txt`)).toBe(path.join(outside, 'secret.txt'));
  });

  it('follows relative and absolute link targets, and links inside links', () => {
    symlinkSync('../outside', path.join(ws, 'rel'));
    symlinkSync(path.join(ws, 'rel'), path.join(ws, 'abs'));
    expect(resolveLikeKernel(path.join(ws, 'rel', 'secret.txt'))).toBe(
      path.join(outside, 'secret.txt'),
    );
    expect(resolveLikeKernel(path.join(ws, 'abs', 'secret.txt'))).toBe(
      path.join(outside, 'secret.txt'),
    );
  });

  it('follows a dangling link to where the file would be created', () => {
    symlinkSync(path.join(outside, 'new', 'file.txt'), path.join(ws, 'dangling'));
    expect(resolveLikeKernel(path.join(ws, 'dangling'))).toBe(
      path.join(outside, 'new', 'file.txt'),
    );
  });

  it('follows 40 links in a row, as Linux does, and calls the 41st a loop', () => {
    const chain = (length: number, prefix: string) => {
      writeFileSync(path.join(ws, `${prefix}-end`), 'x');
      let target = path.join(ws, `${prefix}-end`);
      for (let i = 0; i < length; i++) {
        const link = path.join(ws, `${prefix}-${i}`);
        symlinkSync(target, link);
        target = link;
      }
      return target;
    };
    expect(resolveLikeKernel(chain(40, 'ok'))).toBe(path.join(ws, 'ok-end'));
    expect(resolveLikeKernel(chain(41, 'long'))).toBeNull();
  });
});

describe('WorkspaceContext: what tools rely on', () => {
  it('checks for reading unless told otherwise', () => {
    const workspace = new WorkspaceContext([ws]);
    workspace.addReadOnlyDirectory(outside);
    expect(workspace.check(path.join(outside, 'secret.txt')).ok).toBe(true);
    expect(workspace.allowsRealPath(path.join(outside, 'secret.txt'))).toBe(true);
    expect(workspace.allowsRealPath(path.join(outside, 'secret.txt'), 'write')).toBe(false);
    expect(workspace.contains(path.join(outside, 'secret.txt'))).toBe(false);
    expect(workspace.contains(path.join(ws, 'src', 'a.ts'))).toBe(true);
  });

  it('says whether a refused path was to be read or changed', () => {
    const workspace = new WorkspaceContext([ws]);
    const target = path.join(outside, 'secret.txt');
    const read = workspace.check(target);
    expect(!read.ok && read.message).toBe(
      `${target} is outside the workspace; only paths inside ${ws} may be read.`,
    );
    const write = workspace.check(target, 'write');
    expect(!write.ok && write.message).toBe(
      `${target} is outside the workspace; only paths inside ${ws} may be changed.`,
    );
    symlinkSync(outside, path.join(ws, 'out'));
    const viaLink = workspace.check(path.join(ws, 'out', 'secret.txt'), 'write');
    expect(!viaLink.ok && viaLink.message).toBe(
      `${path.join(ws, 'out', 'secret.txt')} leads outside the workspace through a symbolic link (it resolves to ${target}); only paths inside ${ws} may be changed.`,
    );
  });

  it('names every root when there are several', () => {
    const workspace = new WorkspaceContext([ws, evil]);
    const result = workspace.check(path.join(outside, 'secret.txt'));
    expect(!result.ok && result.message).toContain(`only paths inside one of ${ws}, ${evil} may`);
    symlinkSync(outside, path.join(evil, 'out'));
    const viaLink = workspace.check(path.join(evil, 'out', 'secret.txt'));
    expect(!viaLink.ok && viaLink.message).toBe(
      `${path.join(evil, 'out', 'secret.txt')} leads outside the workspace through a symbolic link (it resolves to ${path.join(outside, 'secret.txt')}); only paths inside one of ${ws}, ${evil} may be read.`,
    );
  });

  it('follows links again after .. leaves a part that does not exist yet', () => {
    symlinkSync(outside, path.join(ws, 'out'));
    const workspace = new WorkspaceContext([ws]);
    const target = `${ws}/not-yet/../out/secret.txt`;
    expect(resolveLikeKernel(target)).toBe(path.join(outside, 'secret.txt'));
    expect(workspace.check(target, 'write').ok).toBe(false);
    expect(workspace.check(`${ws}/not-yet/../src/a.ts`).ok).toBe(true);
  });

  it('counts a root given twice, or through a link, once', () => {
    const alias = path.join(base, 'alias');
    symlinkSync(ws, alias);
    expect(new WorkspaceContext([ws, alias, `${ws}/`]).roots).toEqual([ws]);
    expect(() => new WorkspaceContext([])).toThrow(
      new WorkspaceError('A workspace needs at least one root folder.'),
    );
  });

  it('explains a missing root and a file root with what to do', () => {
    const missing = path.join(base, 'nope');
    expect(() => new WorkspaceContext([missing])).toThrow(
      `Workspace folder ${missing} does not exist; create it or pass another folder.`,
    );
    const file = path.join(ws, 'src', 'a.ts');
    expect(() => new WorkspaceContext([file])).toThrow(
      `Workspace root ${file} is not a folder; pass a folder instead.`,
    );
  });

  it('lets one outside file be read and written, but not its folder or a neighbour', () => {
    const workspace = new WorkspaceContext([ws]);
    const memory = path.join(outside, 'memory.md');
    workspace.allowFile(memory);
    expect(workspace.check(memory, 'write')).toEqual({ ok: true, realPath: memory });
    expect(workspace.allowsRealPath(memory, 'write')).toBe(true);
    expect(workspace.check(outside).ok).toBe(false);
    expect(workspace.check(path.join(outside, 'secret.txt')).ok).toBe(false);
  });

  it('keeps read-only folders listed once and ignores one that is a loop', () => {
    const workspace = new WorkspaceContext([ws]);
    symlinkSync(path.join(base, 'loop'), path.join(base, 'loop'));
    workspace.addReadOnlyDirectory(path.join(base, 'loop'));
    workspace.addReadOnlyDirectory(outside);
    workspace.addReadOnlyDirectory(`${outside}/`);
    expect(workspace.check(path.join(outside, 'secret.txt')).ok).toBe(true);
    expect(workspace.check(path.join(base, 'loop', 'x')).ok).toBe(false);
  });

  it('shows paths relative to the root holding them', () => {
    const workspace = new WorkspaceContext([ws, outside]);
    expect(workspace.relative(ws)).toBe('.');
    expect(workspace.relative(outside)).toBe(path.join('outside', '.'));
    expect(workspace.relative(path.join(evil, 'x.txt'))).toBe(path.join(evil, 'x.txt'));
    expect(new WorkspaceContext([ws]).relative(path.join(ws, 'src'))).toBe('src');
    expect(workspace.projectRoot).toBe(ws);
  });

  it('suggests the absolute path for a relative one', () => {
    const workspace = new WorkspaceContext([ws]);
    expect(workspace.notAbsoluteMessage(path.join(ws, 'a'))).toBeNull();
    expect(workspace.notAbsoluteMessage('src/a.ts')).toBe(
      `src/a.ts is not an absolute path; send the full path, e.g. ${path.join(ws, 'src/a.ts')}.`,
    );
  });

  it('reports a loop with a message', () => {
    symlinkSync(path.join(ws, 'self'), path.join(ws, 'self'));
    const result = new WorkspaceContext([ws]).check(path.join(ws, 'self', 'x'));
    expect(result).toEqual({
      ok: false,
      reason: 'symlink_loop',
      message: `${path.join(ws, 'self', 'x')} goes through a loop of symbolic links and cannot be opened.`,
    });
  });
});

describe('kernelResolver', () => {
  it('gives the answers of resolveLikeKernel, links of folders and files included', () => {
    mkdirSync(path.join(outside, 'sub'));
    writeFileSync(path.join(outside, 'sub', 'b.txt'), 'b');
    symlinkSync(path.join(outside, 'sub'), path.join(ws, 'link'));
    symlinkSync('../outside/secret.txt', path.join(ws, 'src', 'file-link'));
    symlinkSync(path.join(outside, 'new', 'file.txt'), path.join(ws, 'dangling'));
    symlinkSync(path.join(ws, 'loop-a'), path.join(ws, 'loop-b'));
    symlinkSync(path.join(ws, 'loop-b'), path.join(ws, 'loop-a'));
    const paths = [
      path.join(ws, 'src', 'a.ts'),
      path.join(ws, 'src', 'file-link'),
      path.join(ws, 'link', 'b.txt'),
      path.join(ws, 'link', 'missing', 'c.txt'),
      `${ws}/link/../secret.txt`,
      path.join(ws, 'dangling'),
      path.join(ws, 'loop-a', 'x'),
      path.join(ws, 'new', 'deep', 'file.ts'),
      '/',
    ];
    const resolve = kernelResolver();
    // Twice: the second round answers from what the first learnt about the folders.
    for (let round = 0; round < 2; round++)
      for (const p of paths) expect(resolve(p), p).toBe(resolveLikeKernel(p));
    expect(resolve(path.join(ws, 'link', 'b.txt'))).toBe(path.join(outside, 'sub', 'b.txt'));
  });
});
