/**
 * The files and objects a repository can make read-only git read from elsewhere: config
 * keys naming a file (mailmap.file, blame.ignoreRevsFile and the like) and object folders
 * (a linked `objects` folder, `objects/info/alternates`). The rest of gitConfigProblem
 * is in git-read-only.test.ts; real git reading a canary from outside is in
 * test/git-reads-elsewhere.test.ts.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitConfigProblem } from './git-read-only-config.js';

let base: string;
/** The workspace: a folder of `base`, so `base` itself is outside. */
let ws: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'toolhost-git-elsewhere-')));
  ws = path.join(base, 'ws');
  mkdirSync(ws);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const inWorkspace = (target: string) => target === ws || target.startsWith(`${ws}/`);

/** A repository at `at` (the workspace by default) with `config` as its config. */
function repo(config = '', at = ws): string {
  mkdirSync(path.join(at, '.git', 'objects', 'info'), { recursive: true });
  writeFileSync(path.join(at, '.git', 'config'), `[core]\n\tbare = false\n${config}`);
  return at;
}

/** A checked-out submodule's git folder under the workspace repository's modules/. */
function submoduleGitFolder(): string {
  const module = path.join(ws, '.git', 'modules', 'sub');
  mkdirSync(path.join(module, 'objects'), { recursive: true });
  writeFileSync(path.join(module, 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(path.join(module, 'config'), '[core]\n\tbare = false\n');
  return module;
}

function alternates(objects: string, ...lines: string[]) {
  mkdirSync(path.join(objects, 'info'), { recursive: true });
  writeFileSync(path.join(objects, 'info', 'alternates'), `${lines.join('\n')}\n`);
}

describe('config keys that name a file git reads', () => {
  const config = () => path.join(ws, '.git', 'config');

  it('asks for each such key naming a file outside the workspace, in any section', () => {
    for (const line of [
      '[mailmap]\n\tfile = /etc/passwd',
      '[blame]\n\tignoreRevsFile = /etc/passwd',
      '[core]\n\texcludesFile = ../x',
      '[core] attributesfile=../x',
      '[core]  excludesFile = ../x',
      '[diff]\n\tOrderFile = /etc/passwd',
      '[other]\n\tfile = /etc/passwd',
    ]) {
      repo(`${line}\n`);
      expect(gitConfigProblem(ws, inWorkspace), line).toMatch(
        /^the repository's git config \(.*\) sets \w+ to \S+, a file outside the workspace that git would read$/,
      );
    }
    repo('[mailmap]\n\tfile = /etc/passwd\n');
    expect(gitConfigProblem(ws, inWorkspace)).toBe(
      `the repository's git config (${config()}) sets file to /etc/passwd, a file outside the workspace that git would read`,
    );
  });

  it('takes a relative path from the top of the work tree and from where git runs', () => {
    const deep = path.join(ws, 'a', 'b');
    mkdirSync(deep, { recursive: true });
    repo('[mailmap]\n\tfile = names\n');
    expect(gitConfigProblem(deep, inWorkspace)).toBeNull();
    // From the top it stays inside; from a/b, ../../.. leads out.
    repo('[mailmap]\n\tfile = ../../names\n');
    expect(gitConfigProblem(ws, inWorkspace)).toContain('a file outside the workspace');
    expect(gitConfigProblem(deep, inWorkspace)).toContain('a file outside the workspace');
    repo('[mailmap]\n\tfile = a/../names\n');
    expect(gitConfigProblem(deep, inWorkspace)).toBeNull();
    // Only a leading ~ names a home folder.
    repo('[mailmap]\n\tfile = names~old\n');
    expect(gitConfigProblem(deep, inWorkspace)).toBeNull();
  });

  it('asks for a value not understood: none, a home folder, quotes, escapes or comments', () => {
    for (const value of ['', '~/.mailmap', '"names"', 'names\\', 'names # note', 'names;x']) {
      repo(`[mailmap]\n\tfile = ${value}\n`);
      expect(gitConfigProblem(ws, inWorkspace), value).toBe(
        `the repository's git config (${config()}) sets file in a form not understood`,
      );
    }
  });

  it('does not mistake other keys ending in the same letters, or a blob, for a file', () => {
    repo('[mailmap]\n\tblob = HEAD:.mailmap\n\tprofile = /etc\n[x]\n\tfilex = /etc\n');
    expect(gitConfigProblem(ws, inWorkspace)).toBeNull();
  });
});

describe("links among a git folder's files", () => {
  it('asks when an entry of the git folder, its info/ or its logs/ links out', () => {
    const secret = path.join(base, 'secret');
    writeFileSync(secret, 'line\n');
    for (const entry of ['packed-refs', 'shallow', 'info/grafts', 'logs/HEAD']) {
      repo();
      const link = path.join(ws, '.git', entry);
      mkdirSync(path.dirname(link), { recursive: true });
      symlinkSync(secret, link);
      expect(gitConfigProblem(ws, inWorkspace), entry).toBe(
        `the git folder ${path.join(ws, '.git')} links to ${secret}, outside the workspace`,
      );
      rmSync(link);
    }
    // Links that stay inside the workspace, or inside the git folder, read nothing elsewhere.
    repo();
    writeFileSync(path.join(ws, 'refs-kept'), '');
    symlinkSync(path.join(ws, 'refs-kept'), path.join(ws, '.git', 'packed-refs'));
    symlinkSync(path.join(ws, '.git', 'HEAD'), path.join(ws, '.git', 'ORIG_HEAD'));
    expect(gitConfigProblem(ws, inWorkspace)).toBeNull();
  });

  it('checks the git folder a worktree uses and a submodule git folder too', () => {
    repo();
    const secret = path.join(base, 'secret');
    writeFileSync(secret, 'line\n');
    const module = submoduleGitFolder();
    symlinkSync(secret, path.join(module, 'packed-refs'));
    expect(gitConfigProblem(ws, inWorkspace)).toBe(
      `the git folder ${module} links to ${secret}, outside the workspace`,
    );
    rmSync(path.join(module, 'packed-refs'));
    const own = path.join(ws, '.git', 'worktrees', 'wt');
    mkdirSync(own, { recursive: true });
    writeFileSync(path.join(own, 'commondir'), '../..\n');
    const worktree = path.join(ws, 'wt');
    mkdirSync(worktree);
    writeFileSync(path.join(worktree, '.git'), `gitdir: ${own}\n`);
    expect(gitConfigProblem(worktree, inWorkspace)).toBeNull();
    symlinkSync(secret, path.join(own, 'shallow'));
    expect(gitConfigProblem(worktree, inWorkspace)).toBe(
      `the git folder ${own} links to ${secret}, outside the workspace`,
    );
  });

  it('lets the git folder of a repository around the workspace link within itself only', () => {
    repo('', base);
    const secret = path.join(path.dirname(base), `${path.basename(base)}-secret`);
    writeFileSync(path.join(base, '.git', 'refs-copy'), '');
    symlinkSync(path.join(base, '.git', 'refs-copy'), path.join(base, '.git', 'packed-refs'));
    expect(gitConfigProblem(ws, inWorkspace)).toBeNull();
    writeFileSync(secret, 'line\n');
    try {
      symlinkSync(secret, path.join(base, '.git', 'shallow'));
      expect(gitConfigProblem(ws, inWorkspace)).toBe(
        `the git folder ${path.join(base, '.git')} links to ${secret}, outside the workspace`,
      );
    } finally {
      rmSync(secret);
    }
  });
});

describe('object folders', () => {
  it('asks when an alternates line names an object folder outside the workspace', () => {
    const other = path.join(base, 'other', 'objects');
    mkdirSync(other, { recursive: true });
    repo();
    const objects = path.join(ws, '.git', 'objects');
    alternates(objects, other);
    expect(gitConfigProblem(ws, inWorkspace)).toBe(
      `git would read objects from ${other}, outside the workspace`,
    );
    // Relative lines are taken from the objects folder.
    alternates(objects, path.relative(objects, other));
    expect(gitConfigProblem(ws, inWorkspace)).toBe(
      `git would read objects from ${other}, outside the workspace`,
    );
  });

  it('follows alternates from folder to folder, skipping comments and blank lines', () => {
    repo();
    const objects = path.join(ws, '.git', 'objects');
    const middle = path.join(ws, 'middle');
    const last = path.join(base, 'last');
    mkdirSync(last);
    // A comment is skipped even when, read as a path, it would lead out.
    alternates(objects, '#/../../../..', '', `  ${middle}  `);
    alternates(middle);
    expect(gitConfigProblem(ws, inWorkspace)).toBeNull();
    alternates(middle, last);
    expect(gitConfigProblem(ws, inWorkspace)).toBe(
      `git would read objects from ${last}, outside the workspace`,
    );
  });

  it('ends a loop of alternates, and asks for a chain deeper than git follows', () => {
    repo();
    const objects = path.join(ws, '.git', 'objects');
    const folders = [1, 2, 3, 4, 5, 6].map((n) => path.join(ws, `store-${n}`));
    alternates(objects, folders[0]!);
    for (const [index, folder] of folders.entries())
      alternates(folder, folders[index + 1] ?? objects);
    // Six folders deep: the sixth's line back to the start is one more than git follows.
    expect(gitConfigProblem(ws, inWorkspace)).toBe(
      'the repository chains more than 5 object folders',
    );
    alternates(folders[4]!, objects);
    expect(gitConfigProblem(ws, inWorkspace)).toBeNull();
  });

  it('asks for a quoted alternates line', () => {
    repo();
    for (const line of [`"${path.join(ws, 'x')}"`, '"x']) {
      alternates(path.join(ws, '.git', 'objects'), line);
      expect(gitConfigProblem(ws, inWorkspace), line).toBe(
        'the repository names other object folders in a form not understood',
      );
    }
  });

  it('asks when the objects folder is a link leading out of its git folder and the workspace', () => {
    repo();
    const other = path.join(base, 'other-objects');
    mkdirSync(other);
    const objects = path.join(ws, '.git', 'objects');
    rmSync(objects, { recursive: true });
    symlinkSync(other, objects);
    expect(gitConfigProblem(ws, inWorkspace)).toBe(
      `the git folder ${path.join(ws, '.git')} links to ${other}, outside the workspace`,
    );
    // A link to a folder inside the workspace reads nothing from elsewhere.
    rmSync(objects);
    mkdirSync(path.join(ws, 'kept-objects'));
    symlinkSync(path.join(ws, 'kept-objects'), objects);
    expect(gitConfigProblem(ws, inWorkspace)).toBeNull();
  });

  it('asks when a loose-object folder or a pack among the objects links out', () => {
    repo();
    const objects = path.join(ws, '.git', 'objects');
    const other = path.join(base, 'other');
    mkdirSync(path.join(other, 'ab'), { recursive: true });
    writeFileSync(path.join(other, 'pack-1.pack'), '');
    symlinkSync(path.join(other, 'ab'), path.join(objects, 'ab'));
    expect(gitConfigProblem(ws, inWorkspace)).toBe(
      `git would read objects from ${path.join(other, 'ab')}, outside the workspace`,
    );
    rmSync(path.join(objects, 'ab'));
    mkdirSync(path.join(objects, 'pack'));
    symlinkSync(path.join(other, 'pack-1.pack'), path.join(objects, 'pack', 'pack-1.pack'));
    expect(gitConfigProblem(ws, inWorkspace)).toBe(
      `git would read objects from ${path.join(other, 'pack-1.pack')}, outside the workspace`,
    );
    // Links that stay inside the workspace, and plain entries, read nothing from elsewhere.
    rmSync(path.join(objects, 'pack', 'pack-1.pack'));
    writeFileSync(path.join(ws, 'kept.pack'), '');
    symlinkSync(path.join(ws, 'kept.pack'), path.join(objects, 'pack', 'pack-2.pack'));
    mkdirSync(path.join(objects, 'cd'));
    writeFileSync(path.join(objects, 'pack', 'pack-3.pack'), '');
    expect(gitConfigProblem(ws, inWorkspace)).toBeNull();
  });

  it('leaves the objects of a repository around the workspace where they are', () => {
    repo('', base);
    const pkg = path.join(base, 'ws');
    expect(gitConfigProblem(pkg, inWorkspace)).toBeNull();
    // Its alternates still must not lead outside the workspace.
    alternates(path.join(base, '.git', 'objects'), path.join(base, 'shared'));
    expect(gitConfigProblem(pkg, inWorkspace)).toBe(
      `git would read objects from ${path.join(base, 'shared')}, outside the workspace`,
    );
  });

  it("checks a submodule's object folder too", () => {
    repo();
    const module = submoduleGitFolder();
    expect(gitConfigProblem(ws, inWorkspace)).toBeNull();
    alternates(path.join(module, 'objects'), path.join(base, 'elsewhere'));
    expect(gitConfigProblem(ws, inWorkspace)).toBe(
      `git would read objects from ${path.join(base, 'elsewhere')}, outside the workspace`,
    );
  });
});
