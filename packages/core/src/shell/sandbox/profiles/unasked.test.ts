/**
 * The unasked profile's mounts, in order, for homes and roots in every arrangement. The
 * effects (nothing else visible, nothing writable) are proven with real bwrap in
 * test/sandbox-profiles.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempFolder } from '../../../../test/helpers/file-system.js';
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
    expect(SYSTEM_SECRETS).toEqual(expect.arrayContaining(['/etc/shadow', '/etc/gshadow']));
  });

  it("covers /etc's secrets that exist here, as files and folders, only with /etc shown", () => {
    const mounts = unaskedMounts(policy(), ['/etc']);
    expect(mounts[0]).toEqual({ kind: 'read-only', path: '/etc' });
    const covered = mounts.slice(FRESH.length + 3, -1);
    for (const secret of [...SYSTEM_SECRETS, '/etc/ssh/ssh_host_ed25519_key']) {
      const stat = fs.statSync(secret, { throwIfNoEntry: false });
      const kind = stat?.isDirectory() ? 'empty-folder' : 'empty-file';
      if (stat) expect(covered).toContainEqual({ kind, path: secret });
      else expect(covered.map((mount) => mount.path)).not.toContain(secret);
    }
    expect(fs.existsSync('/etc/shadow')).toBe(true);
    expect(unaskedMounts(policy(), []).map((mount) => mount.path)).not.toContain('/etc/shadow');
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
