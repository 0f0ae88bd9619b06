/**
 * Allow and deny rules for commands against what the shell and git really do: output
 * redirections make an allowed command a write, git's own options do not hide the
 * subcommand from a rule, and variables or repository config that make git run a program
 * ask. Proven by effects: a victim file unchanged, a pushed ref missing, a canary file
 * never made, beside controls showing the same setup does run what the rules allow.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { git, ruleSession } from './helpers/rule-session.js';
import { makeTempDirs, type TempDirs } from './helpers/temp-workspace.js';

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

/** A repository with two commits of `a.txt`, so `git diff HEAD~1` has something to show. */
function repository(root: string) {
  git(root, 'init', '-q', '-b', 'main');
  writeFileSync(`${root}/a.txt`, 'one\n');
  git(root, 'add', '.');
  git(root, 'commit', '-qm', 'one');
  writeFileSync(`${root}/a.txt`, 'two\n');
  git(root, 'commit', '-qam', 'two');
}

/** A script that makes `canary` in the workspace when anything runs it. */
function canaryScript(root: string, name: string): string {
  const file = `${root}/${name}`;
  writeFileSync(file, `#!/bin/sh\ntouch '${root}/canary'\n`);
  chmodSync(file, 0o755);
  return file;
}

describe('output redirections', () => {
  const CASES: [rule: string, lines: string[]][] = [
    [
      'Bash(git diff:*)',
      [
        'git diff > victim.txt',
        'git diff >> victim.txt',
        'git diff >| victim.txt',
        'git diff &> victim.txt',
        'git diff 2> victim.txt',
        'git diff >& victim.txt',
        'git diff --output=victim.txt',
      ],
    ],
    ['Bash(ls:*)', ['ls > victim.txt', 'ls >victim.txt 2>&1']],
    ['Bash(npm test:*)', ['npm test > victim.txt']],
  ];
  for (const [rule, lines] of CASES) {
    it(`make a command ${rule} allows a write that asks`, async () => {
      repository(dirs.root);
      writeFileSync(`${dirs.root}/victim.txt`, 'KEEP');
      const s = ruleSession(dirs, { allow: [rule] });
      try {
        for (const line of lines) {
          const done = await s.run(line);
          expect(done.status, line).toBe('error');
          expect(readFileSync(`${dirs.root}/victim.txt`, 'utf8'), line).toBe('KEEP');
        }
      } finally {
        await s.dispose();
      }
    });
  }

  it('follow Edit rules: an Edit allow lets the write run, an Edit deny refuses it in yolo', async () => {
    writeFileSync(`${dirs.root}/victim.txt`, 'KEEP');
    const allowed = ruleSession(dirs, { allow: ['Bash(ls:*)', 'Edit(./out.txt)'] });
    try {
      expect((await allowed.run('ls > out.txt')).status).toBe('success');
      expect(readFileSync(`${dirs.root}/out.txt`, 'utf8')).toContain('victim.txt');
    } finally {
      await allowed.dispose();
    }
    const denied = ruleSession(dirs, { allow: ['Bash'], deny: ['Edit(./victim.txt)'] }, 'yolo');
    try {
      for (const line of ['ls > victim.txt', 'echo x >> ./victim.txt', 'ls > $(echo victim.txt)']) {
        const done = await denied.run(line);
        expect(done.status, line).toBe('error');
        expect(readFileSync(`${dirs.root}/victim.txt`, 'utf8'), line).toBe('KEEP');
      }
      expect((await denied.run('ls > other.txt')).status).toBe('success');
    } finally {
      await denied.dispose();
    }
  });
});

describe("git's own options before the subcommand", () => {
  /** A workspace repository with a bare remote beside it, in the workspace too. */
  function withRemote(root: string) {
    repository(root);
    git(root, 'init', '-q', '--bare', `${root}/remote.git`);
    git(root, 'remote', 'add', 'origin', `${root}/remote.git`);
  }
  const pushed = (root: string) => {
    try {
      return git(`${root}/remote.git`, 'rev-parse', '--verify', '-q', 'refs/heads/main') !== '';
    } catch {
      return false;
    }
  };
  const LINES = [
    'git -C . push origin main',
    'git -c color.ui=never push origin main',
    'git -P push origin main',
    'git --no-pager -C . push origin main',
    'git --git-dir=.git push origin main',
  ];

  it('cannot get round a Bash(git push:*) deny in yolo mode', async () => {
    withRemote(dirs.root);
    const s = ruleSession(dirs, { deny: ['Bash(git push:*)'] }, 'yolo');
    try {
      for (const line of LINES) {
        const done = await s.run(line);
        expect(done.status, line).toBe('error');
        expect(pushed(dirs.root), line).toBe(false);
      }
      // Without the rule the same push goes through.
      expect((await s.run('git -C . status')).status).toBe('success');
    } finally {
      await s.dispose();
    }
    const control = ruleSession(dirs, {}, 'yolo');
    try {
      expect((await control.run('git -P push origin main')).status).toBe('success');
      expect(pushed(dirs.root)).toBe(true);
    } finally {
      await control.dispose();
    }
  });

  it("cannot get round a Bash(git push:*) deny through the repository's aliases", async () => {
    withRemote(dirs.root);
    const config = readFileSync(`${dirs.root}/.git/config`, 'utf8');
    writeFileSync(`${dirs.root}/.git/config`, `${config}[alias]\n\tp = push\n\tq = !git push\n`);
    const s = ruleSession(dirs, { deny: ['Bash(git push:*)'] }, 'yolo');
    try {
      for (const line of ['git p origin main', 'git -C . P origin main', 'git q origin main']) {
        expect((await s.run(line)).status, line).toBe('error');
        expect(pushed(dirs.root), line).toBe(false);
      }
      expect((await s.run('git status')).status).toBe('success');
    } finally {
      await s.dispose();
    }
  });

  it('cannot get round a Bash(git push:*) ask rule, even with Bash allowed in yolo mode', async () => {
    withRemote(dirs.root);
    const s = ruleSession(dirs, { allow: ['Bash'], ask: ['Bash(git push:*)'] }, 'yolo');
    try {
      for (const line of LINES) {
        expect((await s.run(line)).status, line).toBe('error');
        expect(pushed(dirs.root), line).toBe(false);
      }
    } finally {
      await s.dispose();
    }
  });
});

describe('what makes an allowed git command run a program', () => {
  it('XDG_CONFIG_HOME naming a shipped config with diff.external asks', async () => {
    repository(dirs.root);
    canaryScript(dirs.root, 'external.sh');
    mkdirSync(`${dirs.root}/cfg/git`, { recursive: true });
    writeFileSync(`${dirs.root}/cfg/git/config`, `[diff]\n\texternal = ${dirs.root}/external.sh\n`);
    const s = ruleSession(dirs, { allow: ['Bash(git diff:*)', 'Bash(env:*)'] });
    try {
      for (const line of [
        'XDG_CONFIG_HOME=cfg git diff HEAD~1',
        'env XDG_CONFIG_HOME=cfg git diff HEAD~1',
        'export XDG_CONFIG_HOME=cfg; git diff HEAD~1',
        'GIT_CONFIG_GLOBAL=cfg/git/config git diff HEAD~1',
        `GIT_EXTERNAL_DIFF=${dirs.root}/external.sh git diff HEAD~1`,
        `git -c diff.external=${dirs.root}/external.sh diff HEAD~1`,
      ]) {
        expect((await s.run(line)).status, line).toBe('error');
        expect(existsSync(`${dirs.root}/canary`), line).toBe(false);
      }
      // The allowed command itself runs.
      expect((await s.run('git diff HEAD~1')).text).toContain('+two');
    } finally {
      await s.dispose();
    }
  });

  it("is refused in yolo mode while a deny rule exists, since it can't be checked", async () => {
    repository(dirs.root);
    writeFileSync(`${dirs.root}/victim`, 'KEEP');
    writeFileSync(`${dirs.root}/rm-victim.sh`, `#!/bin/sh\nrm '${dirs.root}/victim'\n`);
    chmodSync(`${dirs.root}/rm-victim.sh`, 0o755);
    mkdirSync(`${dirs.root}/cfg/git`, { recursive: true });
    writeFileSync(
      `${dirs.root}/cfg/git/config`,
      `[diff]\n\texternal = ${dirs.root}/rm-victim.sh\n`,
    );
    const s = ruleSession(dirs, { deny: ['Bash(rm:*)'] }, 'yolo');
    try {
      for (const line of [
        'XDG_CONFIG_HOME=cfg git diff HEAD~1',
        'env XDG_CONFIG_HOME=cfg git diff HEAD~1',
      ]) {
        expect((await s.run(line)).status, line).toBe('error');
        expect(existsSync(`${dirs.root}/victim`), line).toBe(true);
      }
    } finally {
      await s.dispose();
    }
  });

  it("the repository's own core.fsmonitor or textconv asks under an allowed status, diff or show", async () => {
    repository(dirs.root);
    const script = canaryScript(dirs.root, 'hook.sh');
    const config = readFileSync(`${dirs.root}/.git/config`, 'utf8');
    const s = ruleSession(dirs, {
      allow: ['Bash(git status)', 'Bash(git show:*)', 'Bash(git diff:*)'],
    });
    try {
      writeFileSync(`${dirs.root}/.git/config`, `${config}[core]\n\tfsmonitor = ${script}\n`);
      expect((await s.run('git status')).status).toBe('error');
      expect(existsSync(`${dirs.root}/canary`)).toBe(false);
      writeFileSync(`${dirs.root}/.gitattributes`, '*.txt diff=conv\n');
      writeFileSync(`${dirs.root}/.git/config`, `${config}[diff "conv"]\n\ttextconv = ${script}\n`);
      for (const line of ['git show HEAD', 'git diff HEAD~1']) {
        expect((await s.run(line)).status, line).toBe('error');
        expect(existsSync(`${dirs.root}/canary`), line).toBe(false);
      }
      // With the repository's config plain again, the allowed commands run.
      writeFileSync(`${dirs.root}/.git/config`, config);
      expect((await s.run('git status')).status).toBe('success');
      expect((await s.run('git show HEAD')).text).toContain('+two');
    } finally {
      await s.dispose();
    }
  });
});
