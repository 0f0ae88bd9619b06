import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from '../../test/helpers/temp-workspace.js';
import { userSettingsDir } from './settings.js';
import { isFolderTrusted, setFolderTrust } from './trusted-folders.js';

let dirs: TempDirs;
let userDir: string;
beforeEach(() => {
  dirs = makeTempDirs();
  userDir = userSettingsDir(dirs.home);
});
afterEach(() => dirs.cleanup());

describe('trusted folders', () => {
  it('trusts nothing by default', () => {
    expect(isFolderTrusted('/work/project', userDir)).toBe(false);
  });

  it('trusts a folder and what is below it, and the most specific rule wins', async () => {
    await setFolderTrust('/work/project', userDir, 'TRUST_FOLDER');
    expect(isFolderTrusted('/work/project', userDir)).toBe(true);
    expect(isFolderTrusted('/work/project/packages/app', userDir)).toBe(true);
    expect(isFolderTrusted('/work/project-evil', userDir)).toBe(false);
    await setFolderTrust('/work/project/vendor', userDir, 'DO_NOT_TRUST');
    expect(isFolderTrusted('/work/project/vendor/lib', userDir)).toBe(false);
  });

  it('TRUST_PARENT trusts the folder holding the given path', async () => {
    await setFolderTrust('/work/clients/acme', userDir, 'TRUST_PARENT');
    expect(isFolderTrusted('/work/clients/other', userDir)).toBe(true);
  });
});
