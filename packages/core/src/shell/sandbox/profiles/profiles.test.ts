/** Which profile a decision leads to, and what each profile's layout is made of. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempFolder } from '../../../../test/helpers/file-system.js';
import { PROMPT_FOLDER_ROOTS } from '../../../config/prompt-folders.js';
import type { SandboxPolicy } from '../policy.js';
import { PROFILE_SUMMARIES, profileFor, sandboxLayout } from './profiles.js';
import { unaskedMounts } from './unasked.js';

let base: string;
let policy: SandboxPolicy;
beforeEach(() => {
  base = makeTempFolder('toolhost-profiles-');
  fs.mkdirSync(path.join(base, 'ws'));
  policy = {
    workspaceRoots: [path.join(base, 'ws')],
    projectTempDir: path.join(base, 'home', '.toolhost', 'tmp', 'p'),
    homeDirs: [path.join(base, 'home')],
    promptFolders: PROMPT_FOLDER_ROOTS,
    network: 'allow',
  };
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

describe('profileFor', () => {
  it('is unasked only for a line proven read-only, approved for every yes', () => {
    expect(profileFor({ kind: 'allow', reason: 'read_only' })).toBe('unasked');
    expect(profileFor({ kind: 'allow', reason: 'rules' })).toBe('approved');
    expect(profileFor({ kind: 'ask', rootCommands: ['rm'], reasons: [] })).toBe('approved');
    expect(profileFor({ kind: 'deny', message: 'no' })).toBe('approved');
    // yolo, or the whole tool allowed: a yes to every line.
    expect(profileFor({ kind: 'allow', reason: 'read_only' }, true)).toBe('approved');
    expect(profileFor({ kind: 'allow', reason: 'read_only' }, false)).toBe('unasked');
  });
});

describe('sandboxLayout', () => {
  it('gives the unasked profile no network whatever the setting, and nothing to give back', () => {
    const layout = sandboxLayout('unasked', policy);
    expect(layout).toMatchObject({ profile: 'unasked', network: 'deny' });
    expect(layout.mounts).toEqual(unaskedMounts(policy));
    // Nothing made in the workspace: it is read-only as a whole.
    expect(fs.readdirSync(policy.workspaceRoots[0]!)).toEqual([]);
    layout.release();
  });

  it("gives the approved profile the setting's network and its mounts, released once", () => {
    const layout = sandboxLayout('approved', { ...policy, network: 'deny' });
    expect(layout).toMatchObject({ profile: 'approved', network: 'deny' });
    expect(layout.mounts[0]).toEqual({ kind: 'read-only', path: '/' });
    expect(layout.mounts.at(-1)).toEqual({ kind: 'read-only', path: policy.projectTempDir });
    const ws = policy.workspaceRoots[0]!;
    expect(fs.readdirSync(ws).length).toBeGreaterThan(0); // prompt folders made to mount on
    layout.release();
    expect(fs.readdirSync(ws)).toEqual([]);
    expect(sandboxLayout('approved', policy).network).toBe('allow');
  });
});

describe('PROFILE_SUMMARIES', () => {
  it('says who each profile is for and what it hides', () => {
    expect(PROFILE_SUMMARIES.unasked.who).toContain('without your yes');
    expect(PROFILE_SUMMARIES.unasked.hides).toContain('home folder');
    expect(PROFILE_SUMMARIES.approved.who).toContain('you allowed');
    expect(PROFILE_SUMMARIES.approved.hides).toContain('credentials');
  });
});
