/**
 * Real workspaces in temporary folders: the folders alone (for tests that run the command)
 * or with a Config around them (for tool tests). Every test uses these, and removes them
 * in afterEach or finally.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Config, type ConfigParameters } from '../../src/config/config.js';

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');

export interface TempDirs {
  /** The folder holding the workspace, the home folder and things outside both. */
  base: string;
  /** The project root (the workspace). */
  root: string;
  /** A home folder standing in for ~ (its .toolhost holds user settings). */
  home: string;
  cleanup(): void;
}

/**
 * A temporary base folder with an empty project root (`ws`, or `rootName` for tests whose
 * output names the project) and home folder in it.
 */
export function makeTempDirs(options: { rootName?: string } = {}): TempDirs {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'toolhost-test-')));
  const root = path.join(base, options.rootName ?? 'ws');
  const home = path.join(base, 'home');
  mkdirSync(root);
  mkdirSync(home);
  return { base, root, home, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

export interface TempWorkspace extends TempDirs {
  config: Config;
  /** Absolute path of a workspace-relative path. */
  p(...parts: string[]): string;
  write(relative: string, content: string | Buffer): string;
  mkdir(relative: string): string;
}

export function makeWorkspace(
  params: Omit<ConfigParameters, 'roots' | 'homeDir'> = {},
): TempWorkspace {
  const dirs = makeTempDirs();
  const { root, home } = dirs;
  const p = (...parts: string[]) => path.join(root, ...parts);
  return {
    ...dirs,
    config: new Config({ ...params, roots: [root], homeDir: home }),
    p,
    write(relative, content) {
      const file = p(relative);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, content);
      return file;
    },
    mkdir(relative) {
      const dir = p(relative);
      mkdirSync(dir, { recursive: true });
      return dir;
    },
  };
}
