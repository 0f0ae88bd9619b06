/**
 * The unasked profile's mounts, in order, for homes and roots in every arrangement. The
 * effects (nothing else visible, nothing writable) are proven with real bwrap in
 * test/sandbox-profiles.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempFolder } from '../../../../test/helpers/file-system.js';
import { PROMPT_FOLDER_ROOTS } from '../../../config/prompt-folders.js';
import type { SandboxPolicy } from '../policy.js';
import { SYSTEM_FOLDERS, SYSTEM_SECRETS, unaskedMounts } from './unasked.js';

let base: string;
let home: string;
let ws: string;
beforeEach(() => {
  base = makeTempFolder('toolhost-unasked-');
  home = path.join(base, 'home');
  ws = path.join(base, 'ws');
  fs.mkdirSync(home);
  fs.mkdirSync(ws);
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

const policy = (over: Partial<SandboxPolicy> = {}): SandboxPolicy => ({
  workspaceRoots: [ws],
  projectTempDir: path.join(home, '.toolhost', 'tmp', 'p'),
  homeDirs: [home],
  promptFolders: PROMPT_FOLDER_ROOTS,
  network: 'allow',
  ...over,
});
const temp = () => ({ kind: 'read-only', path: path.join(home, '.toolhost', 'tmp', 'p') });
const FRESH = [
  { kind: 'devices', path: '/dev' },
  { kind: 'processes', path: '/proc' },
  { kind: 'empty-folder', path: '/tmp' },
];

describe('unaskedMounts', () => {
  it('shows the system folders as they are, then the roots read-only over empty homes', () => {
    const system = path.join(base, 'system');
    fs.mkdirSync(system);
    fs.mkdirSync(path.join(system, 'usr'));
    fs.symlinkSync('usr/bin', path.join(system, 'bin'));
    fs.writeFileSync(path.join(system, 'file'), '');
    const folders = ['usr', 'bin', 'file', 'missing'].map((name) => path.join(system, name));
    expect(unaskedMounts(policy(), folders)).toEqual([
      { kind: 'read-only', path: path.join(system, 'usr') },
      { kind: 'link', path: path.join(system, 'bin'), target: 'usr/bin' },
      ...FRESH,
      { kind: 'empty-folder', path: home },
      { kind: 'read-only', path: ws },
      temp(),
    ]);
    expect(fs.existsSync(temp().path)).toBe(true);
  });

  it('lists the folders programs live in, and the secrets of /etc', () => {
    expect(SYSTEM_FOLDERS).toEqual(
      expect.arrayContaining(['/usr', '/bin', '/lib', '/lib64', '/etc', '/opt', '/nix']),
    );
    expect(SYSTEM_FOLDERS).not.toContain('/home');
    expect(SYSTEM_FOLDERS).not.toContain('/run');
    expect(SYSTEM_FOLDERS).not.toContain('/var');
    expect(SYSTEM_SECRETS).toEqual(
      expect.arrayContaining(['shadow', 'gshadow', 'sudoers', 'ssl/private', 'ssh/*_key']),
    );
  });

  it('covers the secrets of a folder shown as etc, as files and folders, links followed', () => {
    const etc = path.join(base, 'system', 'etc');
    const usr = path.join(base, 'system', 'usr');
    fs.mkdirSync(path.join(etc, 'sudoers.d'), { recursive: true });
    fs.mkdirSync(path.join(etc, 'ssh'));
    fs.mkdirSync(usr);
    for (const file of ['shadow', 'passwd', 'ssh/ssh_host_rsa_key', 'ssh/ssh_config'])
      fs.writeFileSync(path.join(etc, file), '');
    fs.writeFileSync(path.join(usr, 'shadow'), '');
    fs.symlinkSync('shadow', path.join(etc, 'gshadow'));
    fs.symlinkSync('missing', path.join(etc, 'sudoers'));
    const mounts = unaskedMounts(policy(), [etc, usr]);
    expect(mounts.slice(0, 2)).toEqual([
      { kind: 'read-only', path: etc },
      { kind: 'read-only', path: usr },
    ]);
    expect(mounts.slice(2 + FRESH.length + 2, -1)).toEqual([
      { kind: 'empty-file', path: path.join(etc, 'shadow') },
      { kind: 'empty-file', path: path.join(etc, 'gshadow') },
      { kind: 'empty-folder', path: path.join(etc, 'sudoers.d') },
      { kind: 'empty-file', path: path.join(etc, 'ssh', 'ssh_host_rsa_key') },
    ]);
  });

  it("covers this machine's /etc/shadow", () => {
    expect(unaskedMounts(policy(), ['/etc'])).toContainEqual({
      kind: 'empty-file',
      path: '/etc/shadow',
    });
  });

  it('keeps a home that holds a system folder (a home of /) as it is', () => {
    expect(unaskedMounts(policy({ homeDirs: ['/', home] }), ['/usr'])).toEqual([
      { kind: 'read-only', path: '/usr' },
      ...FRESH,
      { kind: 'empty-folder', path: home },
      { kind: 'read-only', path: ws },
      temp(),
    ]);
  });

  it('shows a root inside a home, and a home that is a root, with credentials covered', () => {
    const inside = path.join(home, 'project');
    fs.mkdirSync(inside);
    fs.mkdirSync(path.join(home, '.ssh'));
    const other = path.join(base, 'other-home');
    fs.mkdirSync(path.join(other, '.aws'), { recursive: true });
    expect(
      unaskedMounts(policy({ workspaceRoots: [inside], homeDirs: [home, other] }), []),
    ).toEqual([
      ...FRESH,
      { kind: 'empty-folder', path: home },
      { kind: 'empty-folder', path: other },
      { kind: 'read-only', path: inside },
      temp(),
    ]);
    expect(unaskedMounts(policy({ workspaceRoots: [home], homeDirs: [home, other] }), [])).toEqual([
      ...FRESH,
      { kind: 'empty-folder', path: home },
      { kind: 'empty-folder', path: other },
      { kind: 'read-only', path: home },
      { kind: 'empty-folder', path: path.join(home, '.ssh') },
      // Made by the call before, for toolhost's temporary folder: covered, then that shown.
      { kind: 'empty-folder', path: path.join(home, '.toolhost') },
      temp(),
    ]);
  });

  it('covers credentials in any one of the roots', () => {
    fs.mkdirSync(path.join(home, '.ssh'));
    expect(unaskedMounts(policy({ workspaceRoots: [ws, home] }), [])).toEqual([
      ...FRESH,
      { kind: 'empty-folder', path: home },
      { kind: 'read-only', path: ws },
      { kind: 'read-only', path: home },
      { kind: 'empty-folder', path: path.join(home, '.ssh') },
      temp(),
    ]);
  });

  it('shows a home that is a root again, under another root around it', () => {
    expect(unaskedMounts(policy({ workspaceRoots: [base, home] }), [])).toEqual([
      ...FRESH,
      { kind: 'empty-folder', path: home },
      { kind: 'read-only', path: base },
      { kind: 'read-only', path: home },
      { kind: 'empty-folder', path: home },
      { kind: 'read-only', path: home },
      temp(),
    ]);
  });

  it('empties a home again under a root around it, with the roots inside it shown again', () => {
    const inside = path.join(home, 'project');
    fs.mkdirSync(inside);
    expect(unaskedMounts(policy({ workspaceRoots: [base, inside] }), [])).toEqual([
      ...FRESH,
      { kind: 'empty-folder', path: home },
      { kind: 'read-only', path: base },
      { kind: 'read-only', path: inside },
      { kind: 'empty-folder', path: home },
      { kind: 'read-only', path: inside },
      temp(),
    ]);
  });
});
