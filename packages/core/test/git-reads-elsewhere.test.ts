/**
 * Read-only git runs without asking and outside the sandbox, so it must read nothing
 * outside the workspace: a repository whose config or `.git` file moves git's work tree
 * or git folder elsewhere makes the command ask. Each case first shows, in yolo mode, that
 * the line really prints a canary from a folder outside the workspace; in default mode it
 * must ask, and the canary must not appear. Lines whose repository stays inside still run
 * without asking. The sandbox is off throughout: where it works it hides this outside
 * folder (under /tmp), but the check must hold where it does not.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Settings } from '../src/config/settings.js';
import { caseFolder, runThroughScheduler } from './helpers/shell-policy.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

let ws: TempWorkspace;
/** Outside the workspace, beside it. */
let outside: string;
let cases = 0;
beforeAll(() => {
  ws = makeWorkspace();
  outside = path.join(ws.base, 'outside');
  mkdirSync(outside);
});
afterAll(() => ws.cleanup());

const settings: Settings = { tools: { shell: { sandbox: 'off', parseOnlyAutoApproval: true } } };
const CANARY = 'canary-from-outside-the-workspace';

function git(dir: string, ...args: string[]) {
  return execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'protocol.file.allow=always', ...args],
    {
      cwd: dir,
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: ws.home },
      encoding: 'utf8',
      stdio: 'pipe',
      timeout: 20_000,
    },
  );
}

function appendConfig(gitDir: string, text: string) {
  const file = path.join(gitDir, 'config');
  writeFileSync(file, readFileSync(file, 'utf8') + text);
}

/** A repository with secret.txt committed as "old", its config extended by `config(dir)`. */
function repo(dir: string, config?: (dir: string) => string) {
  writeFileSync(path.join(dir, 'secret.txt'), 'old\n');
  git(dir, 'init', '-q');
  git(dir, 'add', 'secret.txt');
  git(dir, 'commit', '-qm', 'one');
  if (config) appendConfig(path.join(dir, '.git'), config(dir));
}

/** A folder outside the workspace whose secret.txt holds the canary. */
function outsideTree(): string {
  const tree = path.join(outside, `tree-${++cases}`);
  mkdirSync(tree);
  writeFileSync(path.join(tree, 'secret.txt'), `${CANARY}\n`);
  return tree;
}

/** A repository outside the workspace whose history holds the canary. */
function outsideRepo(): string {
  const tree = outsideTree();
  git(tree, 'init', '-q');
  git(tree, 'add', 'secret.txt');
  git(tree, 'commit', '-qm', 'secret');
  return tree;
}

/** The name git gives the canary's file content, as any repository stores it. */
const CANARY_BLOB = createHash('sha1')
  .update(`blob ${CANARY.length + 1}\0${CANARY}\n`)
  .digest('hex');

/** A file outside the workspace holding `text`. */
function outsideFile(text: string): string {
  const file = path.join(outside, `file-${++cases}`);
  writeFileSync(file, text);
  return file;
}

/**
 * A case whose `.git/<name>` is a link to a file outside holding the canary: git quotes a
 * line of that file it cannot parse when `line` runs.
 */
function linkedGitFile(name: string, line: string): [string, string, (dir: string) => void] {
  return [
    `a ${name} file that is a link to a file outside (git quotes the line it cannot read)`,
    line,
    (d) => {
      const secret = outsideFile(`${CANARY}\n`);
      repo(d);
      symlinkSync(secret, path.join(d, '.git', name));
    },
  ];
}

const LEADS_OUT: [string, string, (dir: string) => void][] = [
  [
    'core.worktree, absolute',
    'git diff',
    (d) => {
      const tree = outsideTree();
      repo(d, () => `[core]\n\tworktree = ${tree}\n`);
    },
  ],
  [
    'core.worktree, relative to the git folder',
    'git diff',
    (d) => {
      const tree = outsideTree();
      repo(d, () => `[core]\n\tworktree = ${path.relative(path.join(d, '.git'), tree)}\n`);
    },
  ],
  [
    'core.worktree on the same line as the header',
    'git status --porcelain=v1 -uall && git diff',
    (d) => {
      const tree = outsideTree();
      repo(d, () => `[core] worktree = ${tree}\n`);
    },
  ],
  [
    "a .git file naming another repository's git folder",
    'git log -p',
    (d) => writeFileSync(path.join(d, '.git'), `gitdir: ${path.join(outsideRepo(), '.git')}\n`),
  ],
  [
    'a git folder whose commondir leads to another repository',
    'git log -p',
    (d) => {
      const other = outsideRepo();
      repo(d);
      writeFileSync(path.join(d, '.git', 'commondir'), path.join(other, '.git'));
    },
  ],
  [
    'mailmap.file naming a file outside (git log maps names through it)',
    'git log -1',
    (d) => {
      const mailmap = outsideFile(`${CANARY} <t@t>\n`);
      repo(d, () => `[mailmap]\n\tfile = ${mailmap}\n`);
    },
  ],
  [
    "blame.ignoreRevsFile naming a file outside (git blame quotes the file's first line)",
    'git blame secret.txt',
    (d) => {
      const revs = outsideFile(`${CANARY}\nmore\n`);
      repo(d, () => `[blame] ignoreRevsFile = ${revs}\n`);
    },
  ],
  [
    "an alternates file borrowing another repository's objects",
    `git show ${CANARY_BLOB}`,
    (d) => {
      const other = outsideRepo();
      repo(d);
      writeFileSync(
        path.join(d, '.git', 'objects', 'info', 'alternates'),
        `${path.join(other, '.git', 'objects')}\n`,
      );
    },
  ],
  [
    'an alternates file with a relative path, reached through an object folder inside',
    `git show ${CANARY_BLOB}`,
    (d) => {
      const other = outsideRepo();
      repo(d);
      // The repository borrows from a folder inside, which borrows from one outside.
      const middle = path.join(d, 'middle-objects');
      mkdirSync(path.join(middle, 'info'), { recursive: true });
      const objects = path.join(d, '.git', 'objects');
      writeFileSync(
        path.join(objects, 'info', 'alternates'),
        `${path.relative(objects, middle)}\n`,
      );
      writeFileSync(
        path.join(middle, 'info', 'alternates'),
        `${path.relative(middle, path.join(other, '.git', 'objects'))}\n`,
      );
    },
  ],
  linkedGitFile('packed-refs', 'git status'),
  linkedGitFile('shallow', 'git log --oneline'),
  [
    "a loose-object folder that is a link to another repository's",
    `git show ${CANARY_BLOB}`,
    (d) => {
      const other = outsideRepo();
      repo(d);
      const prefix = CANARY_BLOB.slice(0, 2);
      symlinkSync(
        path.join(other, '.git', 'objects', prefix),
        path.join(d, '.git', 'objects', prefix),
      );
    },
  ],
  [
    "an objects folder that is a link to another repository's",
    `git show ${CANARY_BLOB}`,
    (d) => {
      const other = outsideRepo();
      repo(d);
      rmSync(path.join(d, '.git', 'objects'), { recursive: true });
      symlinkSync(path.join(other, '.git', 'objects'), path.join(d, '.git', 'objects'));
    },
  ],
];

describe.concurrent('read-only git that would read outside the workspace asks', () => {
  for (const [name, line, setup] of LEADS_OUT) {
    it(name, async () => {
      const open = caseFolder(ws, setup);
      const yolo = await runThroughScheduler(ws, line, { mode: 'yolo', directory: open, settings });
      expect(yolo.message, 'in yolo mode the line reads outside').toContain(CANARY);

      const dir = caseFolder(ws, setup);
      const run = await runThroughScheduler(ws, line, {
        mode: 'default',
        directory: dir,
        settings,
      });
      expect(run.message).not.toContain(CANARY);
      expect(run.status).toBe('cancelled');
      expect(run.asked).toHaveLength(1);
      const details = run.asked[0]!;
      const reasons = details.type === 'exec' ? (details.reasons ?? []) : [];
      expect(reasons.join('\n')).toMatch(/outside the workspace/);
    });
  }
});

describe.concurrent('read-only git whose repository stays inside runs without asking', () => {
  it('core.worktree inside the workspace', async () => {
    const dir = caseFolder(ws, (d) => {
      repo(d, () => '[core]\n\tworktree = ..\n');
      writeFileSync(path.join(d, 'secret.txt'), 'new inside\n');
    });
    const run = await runThroughScheduler(ws, 'git diff', {
      mode: 'default',
      directory: dir,
      settings,
    });
    expect(run.asked).toHaveLength(0);
    expect(run.message).toContain('+new inside');
  });

  it('mailmap.file and an alternates file that stay inside the workspace', async () => {
    const dir = caseFolder(ws, (d) => {
      const donor = path.join(d, 'donor');
      mkdirSync(donor);
      writeFileSync(path.join(donor, 'secret.txt'), `${CANARY}\n`);
      git(donor, 'init', '-q');
      git(donor, 'add', 'secret.txt');
      git(donor, 'commit', '-qm', 'inside');
      writeFileSync(path.join(d, 'names'), 'Inside Name <t@t>\n');
      repo(d, () => '[mailmap]\n\tfile = names\n');
      writeFileSync(
        path.join(d, '.git', 'objects', 'info', 'alternates'),
        `${path.join(donor, '.git', 'objects')}\n`,
      );
    });
    const run = await runThroughScheduler(ws, `git log -1 && git show ${CANARY_BLOB}`, {
      mode: 'default',
      directory: dir,
      settings,
    });
    expect(run.asked).toHaveLength(0);
    expect(run.message).toContain('Author: Inside Name <t@t>');
    expect(run.message).toContain(CANARY);
  });

  it('a linked worktree of a repository outside the workspace, which names it back', async () => {
    const main = outsideRepo();
    const worktree = path.join(ws.root, `linked-${++cases}`);
    git(main, 'worktree', 'add', '-q', worktree);
    writeFileSync(path.join(worktree, 'secret.txt'), 'changed in the worktree\n');
    const run = await runThroughScheduler(ws, 'git diff', {
      mode: 'default',
      directory: worktree,
      settings,
    });
    expect(run.asked).toHaveLength(0);
    expect(run.message).toContain('+changed in the worktree');
  });

  it('a checked-out submodule, whose config names its work tree', async () => {
    const source = outsideRepo();
    const dir = caseFolder(ws, (d) => {
      repo(d);
      git(d, 'submodule', 'add', '-q', source, 'sub');
      writeFileSync(path.join(d, 'sub', 'secret.txt'), 'changed in the submodule\n');
    });
    expect(readFileSync(path.join(dir, '.git', 'modules', 'sub', 'config'), 'utf8')).toMatch(
      /worktree = \.\.\/\.\.\/\.\.\/sub/,
    );
    const run = await runThroughScheduler(ws, 'git status --porcelain=v1', {
      mode: 'default',
      directory: dir,
      settings,
    });
    expect(run.asked).toHaveLength(0);
    expect(run.message).toContain('sub');
  });
});
