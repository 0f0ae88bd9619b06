import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bwrapArgs, findBwrap } from './bwrap.js';
import { CREDENTIAL_LOCATIONS, existingCredentialPaths, protectedGitPaths } from './policy.js';

let base: string;
let home: string;
let ws: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'toolhost-policy-')));
  home = path.join(base, 'home');
  ws = path.join(base, 'ws');
  mkdirSync(home);
  mkdirSync(ws);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('existingCredentialPaths', () => {
  it('covers the usual credential locations', () => {
    for (const location of [
      '.ssh',
      '.aws',
      '.gnupg',
      '.config/gcloud',
      '.kube',
      '.docker',
      '.netrc',
      '.npmrc',
      '.pypirc',
      '.git-credentials',
      '.toolhost',
      '.qwen',
    ])
      expect(CREDENTIAL_LOCATIONS, location).toContain(location);
  });

  it('lists the ones that exist, by real path, sorted, each once', () => {
    const other = path.join(base, 'other-home');
    mkdirSync(path.join(home, '.ssh'));
    mkdirSync(path.join(home, '.config', 'gcloud'), { recursive: true });
    writeFileSync(path.join(home, '.netrc'), 'machine x password y');
    const realAws = path.join(base, 'aws-elsewhere');
    mkdirSync(realAws);
    symlinkSync(realAws, path.join(home, '.aws'));
    mkdirSync(other);
    symlinkSync(path.join(home, '.ssh'), path.join(other, '.ssh'));
    expect(existingCredentialPaths([home, other])).toEqual(
      [
        path.join(home, '.ssh'),
        path.join(home, '.config', 'gcloud'),
        path.join(home, '.netrc'),
        realAws,
      ].sort(),
    );
    expect(existingCredentialPaths([path.join(base, 'missing')])).toEqual([]);
  });
});

describe('protectedGitPaths', () => {
  it('finds hooks and config of each repository and its submodules', () => {
    mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
    writeFileSync(path.join(ws, '.git', 'config'), '');
    mkdirSync(path.join(ws, '.git', 'modules', 'lib', 'hooks'), { recursive: true });
    writeFileSync(path.join(ws, '.git', 'modules', 'lib', 'config'), '');
    writeFileSync(path.join(ws, '.git', 'modules', 'not-a-repo'), '');
    const plain = path.join(base, 'plain');
    mkdirSync(plain);
    expect(protectedGitPaths([ws, plain])).toEqual({
      gitDirs: [path.join(ws, '.git')],
      readOnly: [
        path.join(ws, '.git', 'hooks'),
        path.join(ws, '.git', 'config'),
        path.join(ws, '.git', 'modules', 'lib', 'hooks'),
        path.join(ws, '.git', 'modules', 'lib', 'config'),
      ],
    });
  });

  it('lists a linked .git by its real path and skips a missing hooks folder or a .git file', () => {
    const realGit = path.join(base, 'real-git');
    mkdirSync(realGit);
    writeFileSync(path.join(realGit, 'config'), '');
    symlinkSync(realGit, path.join(ws, '.git'));
    const worktree = path.join(base, 'wt');
    mkdirSync(worktree);
    writeFileSync(path.join(worktree, '.git'), 'gitdir: /x\n');
    expect(protectedGitPaths([ws, worktree])).toEqual({
      gitDirs: [realGit],
      readOnly: [path.join(realGit, 'config')],
    });
  });
});

describe('bwrapArgs', () => {
  const policy = (over = {}) => ({
    workspaceRoots: [ws],
    projectTempDir: path.join(base, 'tmp', 'project'),
    homeDirs: [home],
    network: 'allow' as const,
    ...over,
  });

  it('binds the roots and the project temporary folder writable, creating the latter', () => {
    const args = bwrapArgs(policy(), ws);
    expect(args.join(' ')).toContain(`--bind ${ws} ${ws}`);
    const temp = path.join(base, 'tmp', 'project');
    expect(args.join(' ')).toContain(`--bind ${temp} ${temp}`);
    expect(args.slice(-6)).toEqual(['--setenv', 'TOOLHOST_SANDBOX', 'bwrap', '--chdir', ws, '--']);
    expect(args.slice(0, 3)).toEqual(['--die-with-parent', '--unshare-pid', '--unshare-ipc']);
    expect(args).not.toContain('--unshare-net');
  });

  it('cuts the network when denied and can outlive toolhost when asked', () => {
    const args = bwrapArgs(policy({ network: 'deny', dieWithParent: false }), ws);
    expect(args).toContain('--unshare-net');
    expect(args).not.toContain('--die-with-parent');
  });

  it('hides credential folders under an empty tmpfs and files behind /dev/null', () => {
    mkdirSync(path.join(home, '.ssh'));
    writeFileSync(path.join(home, '.netrc'), 'x');
    const args = bwrapArgs(policy(), ws).join(' ');
    expect(args).toContain(`--tmpfs ${path.join(home, '.ssh')}`);
    expect(args).toContain(`--ro-bind /dev/null ${path.join(home, '.netrc')}`);
  });

  it('pins .git in place inside the workspace and makes hooks read-only last', () => {
    mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
    const args = bwrapArgs(policy(), ws);
    const joined = args.join(' ');
    const gitDir = path.join(ws, '.git');
    expect(joined).toContain(`--bind ${gitDir} ${gitDir}`);
    expect(joined.indexOf(`--ro-bind ${gitDir}/hooks`)).toBeGreaterThan(
      joined.indexOf(`--bind ${gitDir} ${gitDir}`),
    );
    expect(joined.indexOf(`--bind ${gitDir} ${gitDir}`)).toBeGreaterThan(
      joined.indexOf(`--bind ${ws} ${ws}`),
    );
  });

  it('does not bind a .git that lives outside the workspace', () => {
    const realGit = path.join(base, 'real-git');
    mkdirSync(path.join(realGit, 'hooks'), { recursive: true });
    symlinkSync(realGit, path.join(ws, '.git'));
    const joined = bwrapArgs(policy(), ws).join(' ');
    expect(joined).not.toContain(`--bind ${realGit} ${realGit}`);
    expect(joined).toContain(`--ro-bind ${realGit}/hooks ${realGit}/hooks`);
  });
});

describe('findBwrap', () => {
  it('finds an executable file named bwrap on PATH when no system one exists', () => {
    const found = findBwrap('');
    const bin = path.join(base, 'bin');
    const notExecutable = path.join(base, 'plain');
    mkdirSync(bin);
    mkdirSync(notExecutable);
    mkdirSync(path.join(base, 'dir', 'bwrap'), { recursive: true });
    writeFileSync(path.join(bin, 'bwrap'), '#!/bin/sh\n');
    chmodSync(path.join(bin, 'bwrap'), 0o755);
    writeFileSync(path.join(notExecutable, 'bwrap'), '');
    const searched = findBwrap([path.join(base, 'dir'), notExecutable, bin].join(path.delimiter));
    // A system bwrap (this machine has one) comes first.
    expect(searched).toBe(found ?? path.join(bin, 'bwrap'));
  });
});
