/** A real workspace in a temporary folder, with a Config around it, for tool tests. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Config, type ConfigParameters } from '../../src/config/config.js';

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');

export interface TempWorkspace {
  /** The folder holding the workspace and things outside it. */
  base: string;
  root: string;
  home: string;
  config: Config;
  /** Absolute path of a workspace-relative path. */
  p(...parts: string[]): string;
  write(relative: string, content: string | Buffer): string;
  mkdir(relative: string): string;
  cleanup(): void;
}

export function makeWorkspace(
  params: Omit<ConfigParameters, 'roots' | 'homeDir'> = {},
): TempWorkspace {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'toolhost-test-')));
  const root = path.join(base, 'ws');
  const home = path.join(base, 'home');
  mkdirSync(root);
  mkdirSync(home);
  const p = (...parts: string[]) => path.join(root, ...parts);
  return {
    base,
    root,
    home,
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
    cleanup() {
      rmSync(base, { recursive: true, force: true });
    },
  };
}
