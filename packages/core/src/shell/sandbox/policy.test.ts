import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeTempFolder } from '../../../test/helpers/file-system.js';
import { waitUntil } from '../../../test/helpers/processes.js';
import { PROMPT_FOLDER_ROOTS } from '../../config/prompt-folders.js';
import { findBwrap } from './bwrap.js';
import { mountedNow, protectedPaths, releaseMade } from './policy.js';

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

describe('protectedPaths', () => {
  /** A git folder with HEAD, hooks and config at `dir`. */
  const gitFolder = (dir: string) => {
    fs.mkdirSync(path.join(dir, 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'HEAD'), 'ref: refs/heads/main\n');
    fs.writeFileSync(path.join(dir, 'config'), '[core]\n');
    return dir;
  };
  const settingsOf = (root: string) => path.join(root, '.toolhost');
  /** The prompt folders of a root, in the loaders' order. */
  const promptOf = (root: string) => PROMPT_FOLDER_ROOTS.map((name) => path.join(root, name));
  const readOnlyOf = (root: string) => protectedPaths([root], PROMPT_FOLDER_ROOTS).readOnly;

  it("keeps each root's settings folder and whole git folder with its submodules", () => {
    const gitDir = gitFolder(path.join(ws, '.git'));
    const lib = gitFolder(path.join(gitDir, 'modules', 'lib'));
    fs.writeFileSync(path.join(gitDir, 'modules', 'not-a-repo'), '');
    const plain = path.join(base, 'plain');
    fs.mkdirSync(plain);
    expect(protectedPaths([ws, plain], PROMPT_FOLDER_ROOTS)).toEqual({
      readOnly: [...promptOf(ws), gitDir, lib, ...promptOf(plain)],
      pinnedRoots: [],
      made: [...promptOf(ws), ...promptOf(plain)],
    });
  });

  it('makes missing prompt folders, empty, and leaves one that is there as it is', () => {
    fs.mkdirSync(settingsOf(home));
    fs.writeFileSync(path.join(settingsOf(home), 'settings.json'), '{}');
    const kept = protectedPaths([ws, home], PROMPT_FOLDER_ROOTS);
    expect(kept.readOnly).toEqual([...promptOf(ws), ...promptOf(home)]);
    expect(kept.made).toEqual([...promptOf(ws), ...promptOf(home).slice(1)]);
    for (const folder of kept.made) expect(fs.readdirSync(folder)).toEqual([]);
    releaseMade(kept.made, () => false);
    expect(fs.readdirSync(ws)).toEqual([]);
    expect(fs.readdirSync(home)).toEqual(['.toolhost']);
    expect(fs.readdirSync(settingsOf(home))).toEqual(['settings.json']);
  });

  it('keeps the prompt folders its caller names, and no others', () => {
    fs.mkdirSync(path.join(ws, '.qwen'));
    const kept = protectedPaths([ws], ['.mine']);
    expect(kept).toEqual({
      readOnly: [path.join(ws, '.mine')],
      pinnedRoots: [],
      made: [path.join(ws, '.mine')],
    });
    releaseMade(kept.made, () => false);
    expect(fs.readdirSync(ws)).toEqual(['.qwen']);
  });

  it('makes nothing when asked not to (a sandbox that denies by name)', () => {
    expect(protectedPaths([ws], PROMPT_FOLDER_ROOTS, false)).toEqual({
      readOnly: [],
      pinnedRoots: [],
      made: [],
    });
    expect(fs.readdirSync(ws)).toEqual([]);
  });

  it('keeps a made folder while it is held, mounted elsewhere, or no longer empty', () => {
    const first = protectedPaths([ws], PROMPT_FOLDER_ROOTS).made;
    const second = protectedPaths([ws], PROMPT_FOLDER_ROOTS).made;
    expect(second).toEqual(first);
    releaseMade(first, () => false);
    expect(fs.readdirSync(ws).length, 'held by the second').toBe(PROMPT_FOLDER_ROOTS.length);
    releaseMade(second, () => true);
    expect(fs.readdirSync(ws).length, 'mounted elsewhere').toBe(PROMPT_FOLDER_ROOTS.length);
    // Still this process's own: the next command holds it and gives it back.
    const third = protectedPaths([ws], PROMPT_FOLDER_ROOTS).made;
    expect(third).toEqual(first);
    fs.writeFileSync(path.join(settingsOf(ws), 'settings.json'), '{}');
    releaseMade(third, () => false);
    expect(fs.readdirSync(ws)).toEqual(['.toolhost']);
    // Given back once more, it is no longer counted: it is the person's now.
    releaseMade(third, () => false);
    expect(protectedPaths([ws], PROMPT_FOLDER_ROOTS).made).toEqual(promptOf(ws).slice(1));
  });

  it('gives back a folder still mounted at its release once the mount tables no longer name it', async () => {
    const made = protectedPaths([ws], PROMPT_FOLDER_ROOTS).made;
    // The sandbox that just ended still has it mounted at the moment of release.
    releaseMade(made, () => true);
    expect(fs.readdirSync(ws).length).toBe(PROMPT_FOLDER_ROOTS.length);
    await waitUntil(() => fs.readdirSync(ws).length === 0, 5_000);
    expect(fs.readdirSync(ws)).toEqual([]);
  });

  // Fake timers step the looks again one by one; the mount tables read are the real ones.
  it('looks again at a released folder only while no command holds it again', () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const made = protectedPaths([ws], PROMPT_FOLDER_ROOTS).made;
      releaseMade(made, () => true);
      expect(protectedPaths([ws], PROMPT_FOLDER_ROOTS).made, 'held again').toEqual(made);
      vi.advanceTimersByTime(50);
      expect(fs.readdirSync(ws).length, 'kept for the new holder').toBe(made.length);
      releaseMade(made, () => false);
      expect(fs.readdirSync(ws)).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it.skipIf(!findBwrap())(
    'keeps a released folder while a sandbox has it mounted, and stops looking after two seconds',
    async () => {
      const made = protectedPaths([ws], PROMPT_FOLDER_ROOTS).made;
      const [held, ...others] = made as [string, ...string[]];
      const holder = spawn(
        findBwrap()!,
        [
          ...['--die-with-parent', '--unshare-pid', '--ro-bind', '/', '/'],
          ...['--ro-bind', held, held, '--', 'sh', '-c', 'echo up; sleep 30'],
        ],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      await new Promise((resolve) => holder.stdout.once('data', resolve));
      const realSetTimeout = globalThis.setTimeout;
      vi.useFakeTimers({ toFake: ['setTimeout'] });
      try {
        releaseMade(made, () => true);
        vi.advanceTimersByTime(50);
        expect(
          others.filter((folder) => fs.existsSync(folder)),
          'not mounted',
        ).toEqual([]);
        expect(fs.existsSync(held), 'still mounted').toBe(true);
        vi.advanceTimersByTime(39 * 50); // the 40 looks of two seconds
        holder.kill('SIGKILL');
        await new Promise((resolve) => holder.once('exit', resolve));
        // The sandbox's mounts go with its last process, which the kernel ends a moment later.
        const deadline = Date.now() + 10_000;
        while (mountedNow()(held) && Date.now() < deadline)
          await new Promise((resolve) => realSetTimeout(resolve, 50));
        expect(mountedNow()(held), 'unmounted').toBe(false);
        vi.advanceTimersByTime(50);
        expect(fs.existsSync(held), 'no longer looked at').toBe(true);
        releaseMade([held], () => false);
        expect(fs.existsSync(held), 'given back at the next release').toBe(false);
      } finally {
        vi.useRealTimers();
        holder.kill('SIGKILL');
      }
    },
  );

  it.skipIf(!findBwrap())(
    "keeps a folder another process's sandbox has mounted, found by the mount tables",
    async () => {
      const spaced = path.join(ws, 'a b\tc'); // written escaped in the mount tables
      fs.mkdirSync(spaced);
      const holder = spawn(
        findBwrap()!,
        [
          ...['--die-with-parent', '--unshare-pid', '--ro-bind', '/', '/'],
          ...['--ro-bind', spaced, spaced, '--', 'sh', '-c', 'echo up; sleep 30'],
        ],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      await new Promise((resolve) => holder.stdout.once('data', resolve));
      try {
        releaseMade([spaced]);
        expect(fs.existsSync(spaced), 'mounted elsewhere').toBe(true);
      } finally {
        holder.kill('SIGKILL');
        await new Promise((resolve) => holder.once('exit', resolve));
      }
      // The sandbox's mounts go with its last process, which the kernel ends a moment later.
      const gone = await waitUntil(() => {
        releaseMade([spaced]);
        return !fs.existsSync(spaced);
      }, 10_000);
      expect(gone).toBe(true);
    },
  );

  it('reads the mount tables once, as the kernel escapes them, and keeps all when it cannot', () => {
    const proc = path.join(base, 'proc');
    for (const [pid, point] of [
      ['1', '/'],
      ['42', `${ws}/a\\040b`],
    ] as const) {
      fs.mkdirSync(path.join(proc, pid), { recursive: true });
      fs.writeFileSync(
        path.join(proc, pid, 'mountinfo'),
        `22 1 8:1 / ${point} rw,relatime - ext4 /dev/sda1 rw\n`,
      );
    }
    // Only a process's folder counts, not self nor other names holding digits.
    for (const name of ['self', 'x1', '1x']) {
      fs.mkdirSync(path.join(proc, name));
      fs.writeFileSync(path.join(proc, name, 'mountinfo'), `9 1 8:1 / ${ws}/c rw - x y rw\n`);
    }
    const mounted = mountedNow(proc);
    expect([`${ws}/a b`, '/', `${ws}/c`, `${ws}/a\\040b`].map(mounted)).toEqual([
      true,
      true,
      false,
      false,
    ]);
    fs.rmSync(path.join(proc, '42'), { recursive: true });
    expect(mounted(`${ws}/a b`), 'read once').toBe(true);
    expect(mountedNow(path.join(base, 'no-proc'))(`${ws}/anything`)).toBe(true);
  });

  it('keeps a file in the way, and pins a root whose prompt folder is a link to nowhere', () => {
    fs.writeFileSync(settingsOf(ws), 'a file in the way');
    expect(protectedPaths([ws], PROMPT_FOLDER_ROOTS)).toEqual({
      readOnly: promptOf(ws),
      pinnedRoots: [],
      made: promptOf(ws).slice(1),
    });
    // A root where a missing one cannot be made (here: a root that is gone) is pinned.
    const gone = path.join(base, 'gone');
    expect(protectedPaths([gone], PROMPT_FOLDER_ROOTS).pinnedRoots).toEqual([gone]);
    expect(protectedPaths([gone], PROMPT_FOLDER_ROOTS, false).pinnedRoots).toEqual([]);
    fs.rmSync(settingsOf(ws));
    fs.symlinkSync(path.join(base, 'nowhere', 'x'), settingsOf(ws));
    expect(protectedPaths([ws], PROMPT_FOLDER_ROOTS)).toEqual({
      readOnly: promptOf(ws).slice(1),
      pinnedRoots: [ws],
      made: promptOf(ws).slice(1),
    });
  });

  it('pins a root whose .git or .toolhost is a link, and keeps what the link leads to', () => {
    const realGit = gitFolder(path.join(base, 'real-git'));
    fs.symlinkSync(realGit, path.join(ws, '.git'));
    expect(protectedPaths([ws], PROMPT_FOLDER_ROOTS)).toEqual({
      readOnly: [...promptOf(ws), realGit],
      pinnedRoots: [ws],
      made: promptOf(ws),
    });
    const realSettings = path.join(base, 'real-settings');
    fs.mkdirSync(realSettings);
    fs.symlinkSync(realSettings, settingsOf(home));
    expect(protectedPaths([home], PROMPT_FOLDER_ROOTS)).toEqual({
      readOnly: [realSettings, ...promptOf(home).slice(1)],
      pinnedRoots: [home],
      made: promptOf(home).slice(1),
    });
  });

  it('finds submodules whose names hold slashes, and submodules of submodules', () => {
    const gitDir = gitFolder(path.join(ws, '.git'));
    const modules = path.join(gitDir, 'modules');
    const nested = gitFolder(path.join(modules, 'libs', 'deep', 'one'));
    const inner = gitFolder(path.join(nested, 'modules', 'inner'));
    // A git folder's other folders are not submodules, though a worktree's has a HEAD.
    gitFolder(path.join(nested, 'worktrees', 'linked'));
    gitFolder(path.join(gitDir, 'worktrees', 'top'));
    // A folder is a git folder by any one of HEAD, hooks or config.
    fs.mkdirSync(path.join(modules, 'hooks-only', 'hooks'), { recursive: true });
    fs.mkdirSync(path.join(modules, 'config-only'));
    fs.writeFileSync(path.join(modules, 'config-only', 'config'), '');
    fs.mkdirSync(path.join(modules, 'head-only'));
    fs.writeFileSync(path.join(modules, 'head-only', 'HEAD'), '');
    // A link in modules counts by the folder it leads to.
    const elsewhere = gitFolder(path.join(base, 'elsewhere'));
    fs.symlinkSync(elsewhere, path.join(modules, 'linked'));
    const readOnly = readOnlyOf(ws);
    expect(readOnly.slice(0, 5)).toEqual([...promptOf(ws), gitDir]);
    expect([...readOnly].sort()).toEqual(
      [
        ...promptOf(ws),
        gitDir,
        path.join(modules, 'config-only'),
        path.join(modules, 'head-only'),
        path.join(modules, 'hooks-only'),
        nested,
        inner,
        elsewhere,
      ].sort(),
    );
  });

  it('finds submodules at any depth, and fails when there are more folders than it looks at', () => {
    const gitDir = gitFolder(path.join(ws, '.git'));
    const folders = (count: number) => Array.from({ length: count }, (_, i) => `d${i}`);
    const deep = gitFolder(path.join(gitDir, 'modules', ...folders(20), 'sub'));
    const chainRoot = path.join(base, 'chain');
    const chain = [gitFolder(path.join(chainRoot, '.git'))];
    for (let level = 0; level < 12; level++)
      chain.push(gitFolder(path.join(chain.at(-1)!, 'modules', `s${level}`)));
    expect(readOnlyOf(ws)).toEqual([...promptOf(ws), gitDir, deep]);
    expect(readOnlyOf(chainRoot)).toEqual([...promptOf(chainRoot), ...chain]);
    // A link back up makes a loop: counted out, not followed for ever.
    fs.symlinkSync(path.join(gitDir, 'modules'), path.join(gitDir, 'modules', 'loop'));
    expect(() => protectedPaths([ws], PROMPT_FOLDER_ROOTS)).toThrow(
      `${gitDir} has more than 500 folders under modules/ to keep read-only`,
    );
  });

  it('keeps what linked hooks, config and modules lead to', () => {
    const gitDir = path.join(ws, '.git');
    fs.mkdirSync(gitDir);
    const sharedHooks = path.join(base, 'shared-hooks');
    fs.mkdirSync(sharedHooks);
    fs.symlinkSync(sharedHooks, path.join(gitDir, 'hooks'));
    const sharedConfig = path.join(base, 'shared-config');
    fs.writeFileSync(sharedConfig, '');
    fs.symlinkSync(sharedConfig, path.join(gitDir, 'config'));
    const realModules = path.join(base, 'real-modules');
    const sub = gitFolder(path.join(realModules, 'sub'));
    fs.symlinkSync(realModules, path.join(gitDir, 'modules'));
    // A link to nothing yet is left out: it can only be made outside the workspace's roots.
    fs.symlinkSync(path.join(base, 'planted'), path.join(sub, 'config-link'));
    expect(readOnlyOf(ws)).toEqual([...promptOf(ws), gitDir, sharedHooks, sharedConfig, sub]);
  });

  it("keeps a worktree's .git file, the git folder it names and that folder's common folder", () => {
    const main = gitFolder(path.join(base, 'main', '.git'));
    const own = gitFolder(path.join(main, 'worktrees', 'ws'));
    fs.writeFileSync(path.join(own, 'commondir'), '../..\n');
    fs.writeFileSync(path.join(ws, '.git'), 'gitdir: ../main/.git/worktrees/ws\n');
    expect(readOnlyOf(ws)).toEqual([...promptOf(ws), path.join(ws, '.git'), own, main]);
    // A .git file that names nothing, or no folder, is kept itself.
    const notAPointer = 'not a pointer, gitdir: ../main/.git/worktrees/ws\n';
    for (const text of ['', 'gitdir: ../missing\n', notAPointer, 'gitdir:../main/.git\n']) {
      fs.writeFileSync(path.join(ws, '.git'), text);
      expect(readOnlyOf(ws), text).toEqual([...promptOf(ws), path.join(ws, '.git')]);
    }
  });

  it('keeps the .git of each submodule checked out in the root, as .gitmodules lists them', () => {
    const gitDir = gitFolder(path.join(ws, '.git'));
    fs.mkdirSync(path.join(ws, 'libs', 'one'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'libs', 'one', '.git'), 'gitdir: ../../.git/modules/one\n');
    fs.mkdirSync(path.join(ws, 'two', '.git'), { recursive: true });
    // Only a path line names a submodule, not text inside another line.
    fs.mkdirSync(path.join(ws, 'three', '.git'), { recursive: true });
    fs.writeFileSync(
      path.join(ws, '.gitmodules'),
      '[submodule "one"]\n\tpath = libs/one\n\turl = x/path = three\n[submodule "two"]\n  path=two  \n[submodule "gone"]\n\tpath = gone\n',
    );
    expect(readOnlyOf(ws)).toEqual([
      ...promptOf(ws),
      gitDir,
      path.join(ws, 'libs', 'one', '.git'),
      path.join(ws, 'two', '.git'),
    ]);
  });
});
