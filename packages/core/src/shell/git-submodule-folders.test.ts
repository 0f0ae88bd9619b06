import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempFolder } from '../../test/helpers/file-system.js';
import { MAX_SUBMODULE_FOLDERS, submoduleFolders } from './git-submodule-folders.js';

let base: string;
let modules: string;
beforeEach(() => {
  base = makeTempFolder('toolhost-submodules-');
  modules = path.join(base, 'modules');
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

const folder = (...parts: string[]) => {
  const dir = path.join(modules, ...parts);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
};
const gitFolder = (...parts: string[]) => {
  const dir = folder(...parts);
  fs.writeFileSync(path.join(dir, 'HEAD'), 'ref: refs/heads/main\n');
  fs.mkdirSync(path.join(dir, 'objects', 'aa'), { recursive: true });
  return dir;
};

describe('submoduleFolders', () => {
  it('finds every folder of a name with slashes, and only the modules/ of a git folder', () => {
    const one = gitFolder('libs', 'one');
    const inner = gitFolder('libs', 'one', 'modules', 'inner');
    fs.writeFileSync(path.join(modules, 'a-file'), '');
    expect(submoduleFolders(modules)?.sort()).toEqual(
      [path.join(modules, 'libs'), one, inner].sort(),
    );
  });

  it('counts a link to a folder as a folder, and finds nothing where there is no modules/', () => {
    const elsewhere = path.join(base, 'elsewhere');
    fs.mkdirSync(path.join(elsewhere, 'sub'), { recursive: true });
    folder();
    fs.symlinkSync(elsewhere, path.join(modules, 'linked'));
    expect(submoduleFolders(modules)).toEqual([
      path.join(modules, 'linked'),
      path.join(modules, 'linked', 'sub'),
    ]);
    expect(submoduleFolders(path.join(base, 'missing'))).toEqual([]);
  });

  it('gives up after the folders it may look at, the allowance shared between searches', () => {
    for (let index = 0; index < MAX_SUBMODULE_FOLDERS - 1; index++) folder(`m${index}`);
    expect(submoduleFolders(modules)).toHaveLength(MAX_SUBMODULE_FOLDERS - 1);
    folder(`m${MAX_SUBMODULE_FOLDERS - 1}`);
    expect(submoduleFolders(modules)).toBeNull();
    const budget = { left: 3 };
    expect(submoduleFolders(folder('m0'), budget)).toEqual([]);
    expect(budget.left).toBe(2);
    expect(submoduleFolders(modules, budget)).toBeNull();
  });
});
