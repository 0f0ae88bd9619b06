import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from '../../test/helpers/temp-workspace.js';
import { findRipgrep, ripgrepPath } from './ripgrep.js';

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

const PLATFORM = `ripgrep-${process.platform}-${process.arch}`;
const BINARY = process.platform === 'win32' ? 'rg.exe' : 'rg';
const at = (...parts: string[]) => path.join(dirs.base, ...parts);

/** @vscode/ripgrep's manifest in `folder` (a node_modules). */
function wrapperIn(folder: string): string {
  const wrapper = path.join(folder, '@vscode', 'ripgrep');
  mkdirSync(wrapper, { recursive: true });
  writeFileSync(path.join(wrapper, 'package.json'), '{"name":"@vscode/ripgrep"}');
  return wrapper;
}

/** An executable platform binary in `folder` (a node_modules); returns its path. */
function binaryIn(folder: string, mode = 0o755): string {
  const binary = path.join(folder, '@vscode', PLATFORM, 'bin', BINARY);
  mkdirSync(path.dirname(binary), { recursive: true });
  writeFileSync(binary, '#!/bin/sh\n');
  chmodSync(binary, mode);
  return binary;
}

/** Node's own re-reading of NODE_PATH and HOME for `require`'s global folders (internal). */
const initPaths = () => (Module as unknown as { _initPaths(): void })._initPaths();

/** Where a module of @toolhost/core's dist/utils would be, under `coreRoot`. */
const moduleOf = (coreRoot: string) => path.join(coreRoot, 'dist', 'utils', 'ripgrep.js');

describe('findRipgrep', () => {
  it('finds the bundled ripgrep where @vscode/ripgrep itself says it is', async () => {
    const { rgPath } = await import('@vscode/ripgrep');
    expect(ripgrepPath()).toMatch(/rg(\.exe)?$/);
    expect(ripgrepPath()).toBe(rgPath);
  });

  it('the clone: both packages hoisted to the repository root', () => {
    wrapperIn(at('repo', 'node_modules'));
    const binary = binaryIn(at('repo', 'node_modules'));
    expect(findRipgrep(moduleOf(at('repo', 'packages', 'core')))).toBe(binary);
  });

  it("a global install: both in @toolhost/core's own node_modules, not a neighbour's", () => {
    const core = at('prefix', 'lib', 'node_modules', '@toolhost', 'core');
    wrapperIn(path.join(core, 'node_modules'));
    const binary = binaryIn(path.join(core, 'node_modules'));
    // Another package's copy higher up is not the one @toolhost/core depends on.
    wrapperIn(at('prefix', 'lib', 'node_modules'));
    binaryIn(at('prefix', 'lib', 'node_modules'));
    expect(findRipgrep(moduleOf(core))).toBe(binary);
  });

  it("a project's node_modules: hoisted beside @toolhost/core; a platform package nested in the wrapper wins", () => {
    const modules = at('project', 'node_modules');
    const core = path.join(modules, '@toolhost', 'core');
    const wrapper = wrapperIn(modules);
    const hoisted = binaryIn(modules);
    expect(findRipgrep(moduleOf(core))).toBe(hoisted);
    // npm nests a dependency under its dependent when versions conflict.
    const nested = binaryIn(path.join(wrapper, 'node_modules'));
    expect(findRipgrep(moduleOf(core))).toBe(nested);
  });

  it.runIf(process.platform !== 'win32')(
    "pnpm: the platform package beside the wrapper's real folder in the store, not beside the link",
    () => {
      const store = at(
        'project',
        'node_modules',
        '.pnpm',
        '@vscode+ripgrep@1.18.0',
        'node_modules',
      );
      const real = wrapperIn(store);
      const binary = binaryIn(store);
      const coreStore = at('project', 'node_modules', '.pnpm', '@toolhost+core@1', 'node_modules');
      const core = path.join(coreStore, '@toolhost', 'core');
      expect(findRipgrep(moduleOf(core))).toBeNull();
      mkdirSync(path.join(coreStore, '@vscode'), { recursive: true });
      symlinkSync(real, path.join(coreStore, '@vscode', 'ripgrep'));
      // A decoy beside the link: Node resolves from the real folder, so must this.
      const decoy = binaryIn(coreStore);
      expect(findRipgrep(moduleOf(core))).toBe(binary);
      expect(findRipgrep(moduleOf(core))).not.toBe(decoy);
    },
  );

  it('says null without the wrapper, without the platform package, or when the binary cannot run', () => {
    const core = at('project', 'node_modules', '@toolhost', 'core');
    expect(findRipgrep(moduleOf(core))).toBeNull();
    wrapperIn(at('project', 'node_modules'));
    expect(findRipgrep(moduleOf(core))).toBeNull();
    if (process.platform !== 'win32') {
      const binary = binaryIn(at('project', 'node_modules'), 0o644);
      expect(findRipgrep(moduleOf(core))).toBeNull();
      chmodSync(binary, 0o755);
      expect(findRipgrep(moduleOf(core))).toBe(binary);
    }
  });

  it('takes no binary from outside the install: NODE_PATH and ~/.node_modules are not searched', () => {
    const core = at('project', 'node_modules', '@toolhost', 'core');
    wrapperIn(at('project', 'node_modules'));
    // Where `require` would also look: a folder anyone could put a program in.
    const elsewhere = at('home', '.node_modules');
    binaryIn(elsewhere);
    const saved = { NODE_PATH: process.env.NODE_PATH, HOME: process.env.HOME };
    process.env.NODE_PATH = elsewhere;
    process.env.HOME = at('home');
    // Node reads both once at start; this makes `require` see them as a process started so.
    initPaths();
    try {
      expect(findRipgrep(moduleOf(core))).toBeNull();
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      initPaths();
    }
  });

  it('takes a folder named like the binary for no binary', () => {
    wrapperIn(at('project', 'node_modules'));
    mkdirSync(at('project', 'node_modules', '@vscode', PLATFORM, 'bin', BINARY), {
      recursive: true,
    });
    expect(findRipgrep(moduleOf(at('project', 'node_modules', '@toolhost', 'core')))).toBeNull();
  });
});
