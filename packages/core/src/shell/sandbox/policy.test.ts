import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  SECRET_FILES,
  VISIBLE_FILES,
  writeCredentialHome,
} from '../../../test/helpers/credentials.js';
import { makeTempFolder } from '../../../test/helpers/file-system.js';
import { existingCredentialPaths, protectedGitPaths } from './policy.js';

let base: string;
let home: string;
let ws: string;
beforeEach(() => {
  base = makeTempFolder('toolhost-policy-');
  home = path.join(base, 'home');
  ws = path.join(base, 'ws');
  fs.mkdirSync(home);
  fs.mkdirSync(ws);
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

/** Whether `file` is `hidden` itself or lies inside it. */
const covers = (hidden: string, file: string) =>
  file === hidden || file.startsWith(`${hidden}${path.sep}`);

describe('existingCredentialPaths', () => {
  it('covers a secret in every usual credential location, and nothing beside them', () => {
    writeCredentialHome(home);
    const hidden = existingCredentialPaths([home]);
    for (const file of Object.keys(SECRET_FILES))
      expect(
        hidden.some((place) => covers(place, path.join(home, file))),
        file,
      ).toBe(true);
    for (const file of Object.keys(VISIBLE_FILES))
      expect(
        hidden.some((place) => covers(place, path.join(home, file))),
        file,
      ).toBe(false);
  });

  it('lists the ones that exist, by real path, sorted, each once', () => {
    const other = path.join(base, 'other-home');
    fs.mkdirSync(path.join(home, '.ssh'));
    fs.mkdirSync(path.join(home, '.config', 'gcloud'), { recursive: true });
    fs.writeFileSync(path.join(home, '.netrc'), 'machine x password y');
    const realAws = path.join(base, 'aws-elsewhere');
    fs.mkdirSync(realAws);
    fs.symlinkSync(realAws, path.join(home, '.aws'));
    fs.mkdirSync(other);
    fs.symlinkSync(path.join(home, '.ssh'), path.join(other, '.ssh'));
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

  it('skips a link to nowhere', () => {
    fs.symlinkSync(path.join(base, 'gone'), path.join(home, '.ssh'));
    expect(existingCredentialPaths([home])).toEqual([]);
  });
});

describe('protectedGitPaths', () => {
  /** A git folder with HEAD, hooks and config at `dir`. */
  const gitFolder = (dir: string) => {
    fs.mkdirSync(path.join(dir, 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'HEAD'), 'ref: refs/heads/main\n');
    fs.writeFileSync(path.join(dir, 'config'), '[core]\n');
    return dir;
  };
  const pinned = (dir: string) => [path.join(dir, 'hooks'), path.join(dir, 'config')];

  it('finds hooks and config of each repository and its submodules', () => {
    const gitDir = gitFolder(path.join(ws, '.git'));
    const lib = gitFolder(path.join(gitDir, 'modules', 'lib'));
    fs.writeFileSync(path.join(gitDir, 'modules', 'not-a-repo'), '');
    const plain = path.join(base, 'plain');
    fs.mkdirSync(plain);
    expect(protectedGitPaths([ws, plain])).toEqual({
      gitDirs: [gitDir],
      readOnly: [...pinned(gitDir), ...pinned(lib)],
    });
  });

  it('finds submodules whose names hold slashes, and submodules of submodules', () => {
    const gitDir = gitFolder(path.join(ws, '.git'));
    const modules = path.join(gitDir, 'modules');
    const nested = gitFolder(path.join(modules, 'libs', 'deep', 'one'));
    const inner = gitFolder(path.join(nested, 'modules', 'inner'));
    // A git folder's other folders are not submodules, though a worktree's has a HEAD.
    gitFolder(path.join(nested, 'worktrees', 'linked'));
    // A folder is a git folder by any one of HEAD, hooks or config.
    fs.mkdirSync(path.join(modules, 'hooks-only', 'hooks'), { recursive: true });
    fs.mkdirSync(path.join(modules, 'config-only'));
    fs.writeFileSync(path.join(modules, 'config-only', 'config'), '');
    fs.mkdirSync(path.join(modules, 'head-only'));
    fs.writeFileSync(path.join(modules, 'head-only', 'HEAD'), '');
    // A link in modules counts by the folder it leads to.
    const elsewhere = gitFolder(path.join(base, 'elsewhere'));
    fs.symlinkSync(elsewhere, path.join(modules, 'linked'));
    const { readOnly } = protectedGitPaths([ws]);
    expect(readOnly.slice(0, 2)).toEqual(pinned(gitDir));
    expect([...readOnly].sort()).toEqual(
      [
        ...pinned(gitDir),
        ...pinned(path.join(modules, 'config-only')),
        ...pinned(path.join(modules, 'head-only')),
        ...pinned(path.join(modules, 'hooks-only')),
        ...pinned(nested),
        ...pinned(inner),
        ...pinned(elsewhere),
      ].sort(),
    );
    // Folders on the way to a submodule are not git folders: nothing is made in them.
    expect(fs.existsSync(path.join(modules, 'libs', 'hooks'))).toBe(false);
    expect(fs.existsSync(path.join(modules, 'libs', 'deep', 'config'))).toBe(false);
  });

  it('looks for submodules down to a bounded depth', () => {
    const gitDir = gitFolder(path.join(ws, '.git'));
    const folders = (count: number) => Array.from({ length: count }, (_, i) => `d${i}`);
    const reachable = gitFolder(path.join(gitDir, 'modules', ...folders(8), 'sub'));
    gitFolder(path.join(gitDir, 'modules', ...folders(9), 'too-deep'));
    expect(protectedGitPaths([ws]).readOnly).toEqual([...pinned(gitDir), ...pinned(reachable)]);
    // Each submodule of a submodule counts one level.
    const chain = [gitFolder(path.join(base, 'chain', '.git'))];
    for (let level = 0; level < 10; level++)
      chain.push(gitFolder(path.join(chain.at(-1)!, 'modules', `s${level}`)));
    expect(protectedGitPaths([path.join(base, 'chain')]).readOnly).toEqual(
      chain.slice(0, 10).flatMap(pinned),
    );
  });

  it('lists a linked .git and a linked modules folder by their real paths', () => {
    const realGit = gitFolder(path.join(base, 'real-git'));
    fs.symlinkSync(realGit, path.join(ws, '.git'));
    const realModules = path.join(base, 'real-modules');
    const sub = gitFolder(path.join(realModules, 'sub'));
    fs.symlinkSync(realModules, path.join(realGit, 'modules'));
    expect(protectedGitPaths([ws])).toEqual({
      gitDirs: [realGit],
      readOnly: [...pinned(realGit), ...pinned(sub)],
    });
  });

  it('creates a missing hooks folder and config file, empty, so they can be pinned', () => {
    const gitDir = path.join(ws, '.git');
    fs.mkdirSync(gitDir);
    fs.writeFileSync(path.join(gitDir, 'HEAD'), 'ref: refs/heads/main\n');
    expect(protectedGitPaths([ws]).readOnly).toEqual(pinned(gitDir));
    expect(fs.lstatSync(path.join(gitDir, 'hooks')).isDirectory()).toBe(true);
    expect(fs.readFileSync(path.join(gitDir, 'config'), 'utf8')).toBe('');
    // An existing config is left as it is.
    const again = path.join(base, 'again');
    fs.mkdirSync(path.join(again, '.git'), { recursive: true });
    fs.writeFileSync(path.join(again, '.git', 'config'), '[core]\n');
    protectedGitPaths([again]);
    expect(fs.readFileSync(path.join(again, '.git', 'config'), 'utf8')).toBe('[core]\n');
  });

  it('makes the whole git folder read-only when its hooks or config is a link', () => {
    const shared = path.join(base, 'shared-hooks');
    fs.mkdirSync(shared);
    const linkedHooks = path.join(base, 'a');
    fs.mkdirSync(path.join(linkedHooks, '.git'), { recursive: true });
    fs.symlinkSync(shared, path.join(linkedHooks, '.git', 'hooks'));
    fs.writeFileSync(path.join(linkedHooks, '.git', 'config'), '');
    const linkedConfig = path.join(base, 'b');
    fs.mkdirSync(path.join(linkedConfig, '.git', 'hooks'), { recursive: true });
    // A link to a file that does not exist yet, in a folder that does.
    fs.symlinkSync(path.join(base, 'planted-config'), path.join(linkedConfig, '.git', 'config'));
    expect(protectedGitPaths([linkedHooks, linkedConfig]).readOnly).toEqual([
      path.join(linkedHooks, '.git'),
      path.join(linkedConfig, '.git'),
    ]);
    expect(fs.existsSync(path.join(base, 'planted-config'))).toBe(false);
  });

  it('makes a git folder where hooks cannot be made read-only as a whole', (context) => {
    const gitDir = path.join(ws, '.git');
    fs.mkdirSync(gitDir);
    fs.writeFileSync(path.join(gitDir, 'HEAD'), '');
    try {
      // Immutable: not even root may add to it (needs root and a file system that has it).
      execFileSync('chattr', ['+i', gitDir], { stdio: 'pipe' });
    } catch {
      context.skip('chattr +i does not work here');
    }
    try {
      expect(protectedGitPaths([ws]).readOnly).toEqual([gitDir]);
    } finally {
      execFileSync('chattr', ['-i', gitDir]);
    }
  });

  it("pins a worktree's .git file, which points at its git folder", () => {
    fs.writeFileSync(path.join(ws, '.git'), 'gitdir: /elsewhere/.git/worktrees/ws\n');
    expect(protectedGitPaths([ws])).toEqual({ gitDirs: [], readOnly: [path.join(ws, '.git')] });
  });
});
