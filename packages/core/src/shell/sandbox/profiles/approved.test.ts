/**
 * The approved profile's mounts beyond what bwrap.test.ts reads from its arguments:
 * credentials covered by kind, toolhost's folder shown read-only last. The effects are
 * proven with real bwrap in test/sandbox-profiles.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempFolder } from '../../../../test/helpers/file-system.js';
import { PROMPT_FOLDER_ROOTS } from '../../../config/prompt-folders.js';
import { approvedMounts, credentialMounts } from './approved.js';

let base: string;
let home: string;
beforeEach(() => {
  base = makeTempFolder('toolhost-approved-');
  home = path.join(base, 'home');
  fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
  fs.writeFileSync(path.join(home, '.pgpass'), 'x');
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

describe('credentialMounts', () => {
  it('covers a folder with an empty folder and a file with an empty file', () => {
    expect(credentialMounts([home])).toEqual([
      { kind: 'empty-file', path: path.join(home, '.pgpass') },
      { kind: 'empty-folder', path: path.join(home, '.ssh') },
    ]);
  });

  it('keeps only the ones asked for', () => {
    const ssh = path.join(home, '.ssh');
    expect(credentialMounts([home], (file) => file === ssh)).toEqual([
      { kind: 'empty-folder', path: ssh },
    ]);
  });
});

describe('approvedMounts', () => {
  it("hides ~/.toolhost, then shows the project's temporary folder in it, read-only, made first", () => {
    const ws = path.join(base, 'ws');
    fs.mkdirSync(ws);
    fs.mkdirSync(path.join(home, '.toolhost'));
    const temp = path.join(home, '.toolhost', 'tmp', 'project');
    const { mounts, release } = approvedMounts({
      workspaceRoots: [ws],
      projectTempDir: temp,
      homeDirs: [home],
      promptFolders: PROMPT_FOLDER_ROOTS,
      network: 'allow',
    });
    release();
    release();
    expect(fs.existsSync(temp)).toBe(true);
    const hidden = mounts.findIndex((m) => m.path === path.join(home, '.toolhost'));
    expect(mounts[hidden]).toEqual({ kind: 'empty-folder', path: path.join(home, '.toolhost') });
    expect(mounts.slice(hidden + 1)).toEqual([{ kind: 'read-only', path: temp }]);
    expect(mounts).not.toContainEqual({ kind: 'writable', path: temp });
    expect(fs.readdirSync(ws)).toEqual([]);
  });
});
