/**
 * Reading and creating folders without following links (confined-fs.ts): a folder is read
 * as the folder its path names, never one a link leads to, and folders made for
 * toolhost's own files can be made private.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempFolder, openDescriptorsInto } from '../../test/helpers/file-system.js';
import { ConfinementError, openFolderConfined, readFolderConfined } from './confined-fs.js';

let dir: string;
let outside: string;
beforeEach(() => {
  dir = makeTempFolder('toolhost-confined-folders-');
  outside = path.join(dir, 'outside');
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  fs.mkdirSync(path.join(dir, 'inside', 'sub'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'inside', 'file.txt'), 'x');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('readFolderConfined', () => {
  it('gives the entries with their types, and closes the folder', async () => {
    const before = openDescriptorsInto(dir);
    const entries = await readFolderConfined(path.join(dir, 'inside'));
    const described = entries.map((e) => `${e.name}:${e.isDirectory() ? 'dir' : 'file'}`);
    expect(described.sort()).toEqual(['file.txt:file', 'sub:dir']);
    expect(openDescriptorsInto(dir)).toEqual(before);
  });

  it('refuses a folder that is a link', async () => {
    fs.symlinkSync(outside, path.join(dir, 'link'));
    await expect(readFolderConfined(path.join(dir, 'link'))).rejects.toThrow();
  });

  it('refuses a folder reached through a link on the way, and closes it', async () => {
    fs.symlinkSync(dir, path.join(dir, 'loop'));
    const before = openDescriptorsInto(dir);
    const error = await readFolderConfined(path.join(dir, 'loop', 'outside')).catch((e) => e);
    expect(error).toBeInstanceOf(ConfinementError);
    expect((error as Error).message).toContain(`now leads to ${outside}`);
    expect(openDescriptorsInto(dir)).toEqual(before);
  });
});

describe('openFolderConfined creating folders', () => {
  it('makes them with the mode asked for, or the usual one', () => {
    const privateOne = path.join(dir, 'own', 'deeper');
    fs.closeSync(openFolderConfined(privateOne, true, true, 0o700));
    expect(fs.statSync(privateOne).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.dirname(privateOne)).mode & 0o777).toBe(0o700);
    const usual = path.join(dir, 'plain', 'deeper');
    fs.closeSync(openFolderConfined(usual, true, true));
    const umask = process.umask();
    expect(fs.statSync(usual).mode & 0o777).toBe(0o777 & ~umask);
  });
});
