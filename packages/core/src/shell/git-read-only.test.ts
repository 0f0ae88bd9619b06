/**
 * Read-only git judged word by word (gitProblem), the repository-config check that refuses
 * a repository able to run programs (gitConfigProblem), and the environment that switches
 * those programs off. Whole command lines through the shell policy are in
 * read-only-commands.test.ts; real git runs in test/shell-read-only-bypass.test.ts.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitConfigProblem, gitProblem, readOnlyGitEnvironment } from './git-read-only.js';
import type { ShellWord } from './shell-words.js';

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'toolhost-git-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const words = (...values: (string | ShellWord)[]): ShellWord[] =>
  values.map((value) => (typeof value === 'string' ? { value, literal: true } : value));
const unknown = (value: string): ShellWord => ({ value, literal: false });

/** gitProblem with the workspace at /ws and a clean repository config. */
function problem(args: ShellWord[], seen: { checked: string[]; configDirs: string[] } = fresh()) {
  return gitProblem(
    args,
    '/ws',
    (word, cwd) => {
      seen.checked.push(`${cwd}:${word.value}`);
      return path.resolve(cwd, word.value).startsWith('/ws') ? null : `${word.value} is outside`;
    },
    (configDir) => {
      seen.configDirs.push(configDir);
      return null;
    },
  );
}
const fresh = () => ({ checked: [] as string[], configDirs: [] as string[] });

describe('gitProblem', () => {
  it('lets read-only subcommands through and asks the config check about the right folder', () => {
    const seen = fresh();
    expect(problem(words('status'), seen)).toBeNull();
    expect(seen.configDirs).toEqual(['/ws']);
    const viaC = fresh();
    expect(problem(words('-C', 'sub', '--no-pager', '-C', 'deeper', 'log'), viaC)).toBeNull();
    expect(viaC.checked).toEqual(['/ws:sub', '/ws/sub:deeper']);
    expect(viaC.configDirs).toEqual(['/ws/sub/deeper']);
  });

  it('passes on what the config check says', () => {
    expect(
      gitProblem(
        words('status'),
        '/ws',
        () => null,
        () => 'runs a pager',
      ),
    ).toBe('runs a pager');
  });

  it('refuses a -C folder outside, or none at all', () => {
    expect(problem(words('-C', '/etc', 'status'))).toBe('/etc is outside');
    expect(problem(words('-C'))).toBe('git -C needs a folder');
  });

  it('accepts only the global flags known to change nothing', () => {
    for (const flag of [
      '--no-pager',
      '-P',
      '--no-optional-locks',
      '--literal-pathspecs',
      '--glob-pathspecs',
      '--noglob-pathspecs',
      '--icase-pathspecs',
      '--no-replace-objects',
    ])
      expect(problem(words(flag, 'status')), flag).toBeNull();
    expect(problem(words('-c', 'core.pager=sh', 'status'))).toBe(
      'git: the option -c is not known to be read-only',
    );
    expect(problem(words('--exec-path=/tmp', 'status'))).toMatch(/--exec-path=\/tmp is not known/);
  });

  it('asks about anything only known when the command runs', () => {
    expect(problem([unknown('-$FLAG'), ...words('status')])).toBe(
      'git: -$FLAG is only known when the command runs',
    );
    expect(problem([unknown('$SUB')])).toBe('git $SUB is not a read-only git command');
    expect(problem(words('log', '--', unknown('$REV')))).toBe(
      'git log: an argument is only known when the command runs',
    );
  });

  it('refuses a missing or unknown subcommand', () => {
    expect(problem(words())).toBe('git without a subcommand');
    expect(problem(words('--no-pager'))).toBe('git without a subcommand');
    expect(problem(words('commit', '-m', 'x'))).toBe('git commit is not a read-only git command');
    expect(problem(words('constructor'))).toBe('git constructor is not a read-only git command');
  });

  it('refuses options a subcommand does not list', () => {
    expect(problem(words('log', '--output=x'))).toMatch(/^git log: .*--output/);
  });

  it('lets branch and tag take names only to list them', () => {
    expect(problem(words('branch', 'feature'))).toBe(
      'git branch with a name creates or changes it',
    );
    expect(problem(words('tag', 'v1'))).toBe('git tag with a name creates or changes it');
    expect(problem(words('branch', '--list', 'feat*'))).toBeNull();
    expect(problem(words('tag', '-l', 'v*'))).toBeNull();
    expect(problem(words('branch', '-a'))).toBeNull();
  });

  it('lets remote only list or print a URL', () => {
    expect(problem(words('remote'))).toBeNull();
    expect(problem(words('remote', '-v'))).toBeNull();
    expect(problem(words('remote', 'get-url', 'origin'))).toBeNull();
    expect(problem(words('remote', 'get-url'))).toBe('git remote get-url is not read-only');
    expect(problem(words('remote', 'get-url', 'a', 'b'))).toBe(
      'git remote get-url a b is not read-only',
    );
    expect(problem(words('remote', 'add', 'x', '/y'))).toBe('git remote add x /y is not read-only');
  });
});

describe('gitConfigProblem', () => {
  function repo(config: string, at = dir) {
    mkdirSync(path.join(at, '.git'), { recursive: true });
    writeFileSync(path.join(at, '.git', 'config'), config);
    return at;
  }

  it('finds nothing outside a repository or in a plain config', () => {
    expect(gitConfigProblem(dir)).toBeNull();
    repo('[core]\n\tbare = false\n\trepositoryformatversion = 0\n[user]\n\tname = pager\n');
    expect(gitConfigProblem(dir)).toBeNull();
  });

  it('names each setting that makes git run a program', () => {
    const settings = [
      'fsmonitor',
      'textconv',
      'command',
      'external',
      'program',
      'pager',
      'hooksPath',
      'sshCommand',
      'askPass',
      'editor',
      'clean',
      'smudge',
      'process',
      'showSignature',
      'cacheTextconv',
    ];
    for (const key of settings) {
      repo(`[section]\n\t${key} = ./x.sh\n`);
      expect(gitConfigProblem(dir), key).toBe(
        `the repository's git config (${path.join(dir, '.git', 'config')}) sets "${key} =", which can make git run a program`,
      );
    }
    repo('[core]\nfsmonitor=true\n');
    expect(gitConfigProblem(dir)).toMatch(/sets "fsmonitor="/);
  });

  it('names sections that include files or define programs', () => {
    for (const section of ['include', 'includeIf "gitdir:/x"', 'filter "lfs"', 'pager', 'gpg']) {
      repo(`[core]\n\tbare = false\n  [ ${section}]\n\tpath = x\n`);
      expect(gitConfigProblem(dir), section).toMatch(
        new RegExp(`sets "\\[ ${section.split(' ')[0]}`),
      );
    }
  });

  it('reads a key or a section written on the same line as a section header, as git does', () => {
    const cases: [string, string][] = [
      ['[diff "x"] textconv = ./x.sh\n', '[diff "x"] textconv ='],
      ['[diff "x"]textconv=./x.sh\n', '[diff "x"]textconv='],
      ['[diff "a]b"]\tcommand = ./x.sh\n', '[diff "a]b"]\tcommand ='],
      ['[core] [include] path = other\n', '[core] [include'],
      ['[core][filter "lfs"]\n\tpath = x\n', '[core][filter'],
    ];
    for (const [config, named] of cases) {
      repo(`[core]\n\tbare = false\n${config}`);
      expect(gitConfigProblem(dir), config).toBe(
        `the repository's git config (${path.join(dir, '.git', 'config')}) sets "${named}", which can make git run a program`,
      );
    }
  });

  it('does not mistake longer names or values for those settings', () => {
    repo('[alias]\n\tst = status --pager\n[user]\n\tname = program\n\tpagerx = 1\n[includes]\n');
    expect(gitConfigProblem(dir)).toBeNull();
    repo('[user]\n\tmypager = less\n\tname = "[a] pager = b"\n\temail = [include] x\n');
    expect(gitConfigProblem(dir)).toBeNull();
  });

  it('looks in the repository around a folder deep inside it', () => {
    repo('[core]\n\tfsmonitor = ./x.sh\n');
    const deep = path.join(dir, 'a', 'b');
    mkdirSync(deep, { recursive: true });
    expect(gitConfigProblem(deep)).toMatch(/fsmonitor/);
  });

  it('follows a worktree to its own and the shared config', () => {
    const main = path.join(dir, 'main');
    repo('[core]\n\tbare = false\n', main);
    const own = path.join(main, '.git', 'worktrees', 'wt');
    mkdirSync(own, { recursive: true });
    writeFileSync(path.join(own, 'commondir'), '../..\n');
    const worktree = path.join(dir, 'wt');
    mkdirSync(worktree);
    writeFileSync(path.join(worktree, '.git'), `gitdir: ${own}\n`);
    // Outside the repository's folder, trusted only when it names this .git back.
    expect(gitConfigProblem(worktree)).toBe(
      `the repository's git folder (${own}) lies outside the workspace and does not name ${path.join(worktree, '.git')} back`,
    );
    writeFileSync(path.join(own, 'gitdir'), `${path.join(worktree, '.git')}\n`);
    expect(gitConfigProblem(worktree)).toBeNull();
    writeFileSync(path.join(own, 'gitdir'), path.join(dir, '.git'));
    expect(gitConfigProblem(worktree)).toContain('does not name');
    writeFileSync(path.join(own, 'gitdir'), '../../../../wt/.git');
    expect(gitConfigProblem(worktree)).toBeNull();
    // Inside the workspace as the caller defines it, no back link is needed.
    rmSync(path.join(own, 'gitdir'));
    expect(gitConfigProblem(worktree, (target) => target.startsWith(dir))).toBeNull();
    expect(gitConfigProblem(worktree, (target) => target !== path.join(main, '.git'))).toBe(
      `the repository's git folder (${own}) names a common folder outside the workspace (${path.join(main, '.git')})`,
    );
    writeFileSync(path.join(own, 'gitdir'), `${path.join(worktree, '.git')}\n`);

    writeFileSync(path.join(own, 'config.worktree'), '[core]\n\tpager = less\n');
    expect(gitConfigProblem(worktree)).toContain(`(${path.join(own, 'config.worktree')})`);

    writeFileSync(path.join(main, '.git', 'config'), '[diff "x"]\n\ttextconv = ./x.sh\n');
    expect(gitConfigProblem(worktree)).toContain(`(${path.join(main, '.git', 'config')})`);
  });

  it('asks when core.worktree leads outside the workspace or is written in a form not understood', () => {
    const ws = (target: string) => target === dir || target.startsWith(`${dir}/`);
    const problemWith = (line: string) => {
      repo(`[core]\n\tbare = false\n${line}\n`);
      return gitConfigProblem(dir, ws);
    };
    const config = path.join(dir, '.git', 'config');
    for (const line of ['\tworktree = ..', `\tworktree = ${dir}/sub`, '[core] worktree = ../x'])
      expect(problemWith(line), line).toBeNull();
    expect(problemWith('\tworktree = ../..')).toBe(
      `the repository's git config (${config}) sets core.worktree to ../.., outside the workspace`,
    );
    for (const line of [
      '\tWorkTree=/etc',
      '[core] worktree = /etc',
      '[other]\n\tworktree = /etc',
      '\tworktree = ..\n\tworktree = /etc',
    ])
      expect(problemWith(line), line).toContain('outside the workspace');
    for (const line of [
      '\tworktree =',
      '\tworktree = ""',
      '\tworktree = "/etc"',
      '\tworktree = ..\\',
      '\tworktree = .. # note',
      '\tworktree = ..;note',
    ])
      expect(problemWith(line), line).toBe(
        `the repository's git config (${config}) sets core.worktree in a form not understood`,
      );
    // Without a workspace, only the repository's own folder counts.
    repo('[core]\n\tworktree = ../..\n');
    expect(gitConfigProblem(dir)).toContain('outside the workspace');
    repo('[core]\n\tworktree = ../sub\n');
    expect(gitConfigProblem(dir)).toBeNull();
  });

  it('leaves a repository around the workspace as the person laid it out', () => {
    const main = path.join(dir, 'main');
    repo('[core]\n\tbare = false\n', main);
    const own = path.join(main, '.git', 'worktrees', 'wt');
    mkdirSync(own, { recursive: true });
    writeFileSync(path.join(own, 'commondir'), '../..\n');
    const worktree = path.join(dir, 'wt');
    mkdirSync(path.join(worktree, 'pkg'), { recursive: true });
    writeFileSync(path.join(worktree, '.git'), `gitdir: ${own}\n`);
    const pkg = path.join(worktree, 'pkg');
    const onlyPkg = (target: string) => target === pkg || target.startsWith(`${pkg}/`);
    // The workspace is pkg: the .git above it was not written from inside.
    expect(gitConfigProblem(pkg, onlyPkg)).toBeNull();
    expect(gitConfigProblem(pkg, (target) => target.startsWith(worktree))).toContain(
      'does not name',
    );
  });

  it('asks when a git folder in the workspace shares a common folder outside it', () => {
    const ws = (target: string) => target === dir || target.startsWith(`${dir}/`);
    const outside = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'toolhost-git-common-')));
    try {
      repo('[core]\n\tbare = false\n');
      writeFileSync(path.join(dir, '.git', 'commondir'), outside);
      const named = `the repository's git folder (${path.join(dir, '.git')}) names a common folder outside the workspace (${outside})`;
      expect(gitConfigProblem(dir, ws)).toBe(named);
      // A git folder inside could have been written from inside: no back link counts.
      for (const back of ['', '.', path.join(dir, '.git')]) {
        writeFileSync(path.join(dir, '.git', 'gitdir'), back);
        expect(gitConfigProblem(dir, ws), back).toBe(named);
      }
      writeFileSync(path.join(dir, '.git', 'commondir'), path.join(dir, 'shared'));
      expect(gitConfigProblem(dir, ws)).toBeNull();
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('takes a relative core.worktree from the git folder in use and from the one holding the config', () => {
    const ws = (target: string) => target === dir || target.startsWith(`${dir}/`);
    // The git folder in use (own) is not inside the common one here.
    const own = path.join(dir, 'own');
    const common = path.join(dir, 'deep', 'a', 'b', 'common');
    mkdirSync(own, { recursive: true });
    mkdirSync(common, { recursive: true });
    writeFileSync(path.join(dir, '.git'), `gitdir: ${own}\n`);
    writeFileSync(path.join(own, 'commondir'), common);
    const config = path.join(common, 'config');
    // From the common folder: dir/deep, inside; from own: above dir, outside.
    writeFileSync(config, '[core]\n\tworktree = ../../..\n');
    expect(gitConfigProblem(dir, ws)).toBe(
      `the repository's git config (${config}) sets core.worktree to ../../.., outside the workspace`,
    );
    // From own: dir; from the common folder: dir/deep/a/b/common/x, both inside.
    writeFileSync(config, '[core]worktree = ..\n');
    expect(gitConfigProblem(dir, ws)).toBeNull();
    writeFileSync(config, '[core]worktree = ../..\n');
    expect(gitConfigProblem(dir, ws)).toContain('outside the workspace');
  });

  it('counts each work tree .gitmodules names against the same allowance, and reads only worktree keys', () => {
    repo('[core]\n\tnotworktree = /etc\n');
    const lines = (count: number) =>
      Array.from({ length: count }, (_, i) => `[submodule "s${i}"]\n\tpath = s${i}\n`).join('');
    // 499 work trees and the modules/ folder: 500 looked at, the most allowed.
    writeFileSync(path.join(dir, '.gitmodules'), lines(499));
    expect(gitConfigProblem(dir)).toBeNull();
    writeFileSync(path.join(dir, '.gitmodules'), lines(500));
    expect(gitConfigProblem(dir)).toBe(
      'the repository has more than 500 submodule folders to check',
    );
  });

  it("takes a submodule's core.worktree from its own git folder", () => {
    const ws = (target: string) => target === dir || target.startsWith(`${dir}/`);
    repo('[core]\n\tbare = false\n');
    writeFileSync(path.join(dir, '.gitmodules'), '[submodule "s"]\n\tpath = s\n');
    const modules = path.join(dir, '.git', 'modules', 's');
    mkdirSync(modules, { recursive: true });
    writeFileSync(path.join(modules, 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(path.join(modules, 'config'), '[core]\n\tworktree = ../../../s\n');
    expect(gitConfigProblem(dir, ws)).toBeNull();
    writeFileSync(path.join(modules, 'config'), '[core]\n\tworktree = ../../../../s\n');
    expect(gitConfigProblem(dir, ws)).toContain('outside the workspace');
  });

  it('reads the pointer of a .git file the way git writes it, and loosely', () => {
    const own = path.join(dir, 'gitdir');
    repo('[core]\n\tpager = less\n', own);
    const problemIn = (pointer: string) => {
      writeFileSync(path.join(dir, '.git'), pointer);
      return gitConfigProblem(dir);
    };
    const found = `the repository's git config (${path.join(own, '.git', 'config')}) sets "pager =", which can make git run a program`;
    for (const pointer of [
      `gitdir: ${own}/.git\n`,
      `gitdir: ${own}/.git   \n`,
      `gitdir:${own}/.git\n`,
      `gitdir:  ${own}/.git\r\n`,
      `# written by hand\ngitdir: gitdir/.git\n`,
    ])
      expect(problemIn(pointer), JSON.stringify(pointer)).toBe(found);
    for (const pointer of [`notgitdir: ${own}/.git\n`, 'gitdir:   \n', 'gitdir:\n'])
      expect(problemIn(pointer), JSON.stringify(pointer)).toBe(
        'the repository layout could not be read',
      );
  });

  it("reads every submodule's own config: under modules/, nested, named with slashes, or in the work tree", () => {
    repo('[core]\n\tbare = false\n');
    const gitDir = (folder: string, config = '[core]\n\tbare = false\n') => {
      mkdirSync(folder, { recursive: true });
      writeFileSync(path.join(folder, 'HEAD'), 'ref: refs/heads/main\n');
      writeFileSync(path.join(folder, 'config'), config);
      return path.join(folder, 'config');
    };
    const evil = '[filter "evil"]\n\tclean = ./x.sh\n';
    const expectFound = (config: string) =>
      expect(gitConfigProblem(dir)).toBe(
        `the repository's git config (${config}) sets "clean =", which can make git run a program`,
      );
    const modules = path.join(dir, '.git', 'modules');
    gitDir(path.join(modules, 'clean'));
    expect(gitConfigProblem(dir)).toBeNull();

    const plain = gitDir(path.join(modules, 'lib'), evil);
    expectFound(plain);
    rmSync(path.join(modules, 'lib'), { recursive: true });
    const slashed = gitDir(path.join(modules, 'vendor', 'deep', 'lib'), evil);
    expectFound(slashed);
    rmSync(path.join(modules, 'vendor'), { recursive: true });
    const nested = gitDir(path.join(modules, 'clean', 'modules', 'inner'), evil);
    expectFound(nested);
    rmSync(path.join(modules, 'clean', 'modules'), { recursive: true });
    writeFileSync(path.join(modules, 'clean', 'config.worktree'), '[core]\n\tfsmonitor = ./x.sh\n');
    expect(gitConfigProblem(dir)).toContain(`(${path.join(modules, 'clean', 'config.worktree')})`);
    rmSync(path.join(modules, 'clean', 'config.worktree'));
    expect(gitConfigProblem(dir)).toBeNull();

    // An older layout: the submodule's .git folder in its own work tree, found by .gitmodules,
    // and one more level down through that submodule's .gitmodules.
    writeFileSync(path.join(dir, '.gitmodules'), '[submodule "a"]\n\tpath = libs/a\n');
    const inTree = gitDir(path.join(dir, 'libs', 'a', '.git'));
    expect(gitConfigProblem(dir)).toBeNull();
    writeFileSync(inTree, evil);
    expectFound(inTree);
    writeFileSync(inTree, '[core]\n\tbare = false\n');
    writeFileSync(path.join(dir, 'libs', 'a', '.gitmodules'), '[submodule "b"]\n path = b\n');
    const deeper = gitDir(path.join(dir, 'libs', 'a', 'b', '.git'), evil);
    expectFound(deeper);
    rmSync(path.join(dir, 'libs', 'a', 'b'), { recursive: true });
    expect(gitConfigProblem(dir)).toBeNull();

    // A .git file in the submodule's work tree, naming a git folder kept anywhere.
    rmSync(path.join(dir, 'libs', 'a', '.git'), { recursive: true });
    const elsewhere = gitDir(path.join(dir, 'kept', 'a'), evil);
    writeFileSync(path.join(dir, 'libs', 'a', '.git'), 'gitdir: ../../kept/a\n');
    expectFound(elsewhere);
  });

  it('reads the config of a folder under modules/ without HEAD, and skips .git files without a pointer', () => {
    repo('[core]\n\tbare = false\n');
    writeFileSync(path.join(dir, '.gitmodules'), '[submodule "a"]\n\tpath = a\n');
    mkdirSync(path.join(dir, 'a'));
    writeFileSync(path.join(dir, 'a', '.git'), 'not a pointer\n');
    expect(gitConfigProblem(dir)).toBeNull();
    const odd = path.join(dir, '.git', 'modules', 'odd');
    mkdirSync(odd, { recursive: true });
    writeFileSync(path.join(odd, 'config'), '[core]\n\tpager = less\n');
    expect(gitConfigProblem(dir)).toContain(`(${path.join(odd, 'config')})`);
  });

  it('reads .gitmodules path lines as git writes them, and no other key', () => {
    repo('[core]\n\tbare = false\n');
    const evilGitDir = (folder: string) => {
      mkdirSync(path.join(dir, folder, '.git'), { recursive: true });
      writeFileSync(path.join(dir, folder, '.git', 'config'), '[core]\n\tpager = less\n');
      return path.join(dir, folder, '.git', 'config');
    };
    const config = evilGitDir('plain');
    writeFileSync(path.join(dir, '.gitmodules'), '[submodule "p"]\npath=plain');
    expect(gitConfigProblem(dir)).toContain(`(${config})`);
    writeFileSync(path.join(dir, '.gitmodules'), '[submodule "p"]\n\txpath = plain\n');
    expect(gitConfigProblem(dir)).toBeNull();
  });

  it('asks when a repository has more submodule folders than it looks through', () => {
    repo('[core]\n\tbare = false\n');
    const modules = path.join(dir, '.git', 'modules');
    // The modules folder and 499 in it: 500 looked at, the most allowed.
    for (let index = 0; index < 499; index++)
      mkdirSync(path.join(modules, `m${index}`), { recursive: true });
    // Files beside them are not folders to look into.
    for (let index = 0; index < 50; index++) writeFileSync(path.join(modules, `f${index}`), '');
    expect(gitConfigProblem(dir)).toBeNull();
    mkdirSync(path.join(modules, 'm499'));
    expect(gitConfigProblem(dir)).toBe(
      'the repository has more than 500 submodule folders to check',
    );
  });

  it('never searches a git folder beyond its modules/ (its objects can be many)', () => {
    repo('[core]\n\tbare = false\n');
    const objects = (gitDir: string) => {
      writeFileSync(path.join(gitDir, 'HEAD'), 'ref: refs/heads/main\n');
      // More folders than the search may look at, in each git folder.
      for (let index = 0; index < 520; index++)
        mkdirSync(path.join(gitDir, 'objects', index.toString(16).padStart(3, '0')), {
          recursive: true,
        });
    };
    objects(path.join(dir, '.git'));
    const module = path.join(dir, '.git', 'modules', 'lib');
    mkdirSync(module, { recursive: true });
    objects(module);
    writeFileSync(path.join(dir, '.gitmodules'), '[submodule "t"]\n\tpath = t\n');
    const inTree = path.join(dir, 't', '.git');
    mkdirSync(inTree, { recursive: true });
    objects(inTree);
    expect(gitConfigProblem(dir)).toBeNull();
  });

  it('treats a .git file it cannot read as a problem', () => {
    writeFileSync(path.join(dir, '.git'), 'not a pointer\n');
    expect(gitConfigProblem(dir)).toBe('the repository layout could not be read');
    rmSync(path.join(dir, '.git'));
    mkdirSync(path.join(dir, '.git'));
    mkdirSync(path.join(dir, '.git', 'commondir'));
    expect(gitConfigProblem(dir)).toBe('the repository layout could not be read');
  });
});

describe('readOnlyGitEnvironment', () => {
  const expected = {
    GIT_PAGER: 'cat',
    'core.fsmonitor': 'false',
    'core.pager': 'cat',
    'core.hooksPath': '/dev/null',
    'log.showSignature': 'false',
    'gpg.program': 'false',
    'gpg.ssh.program': 'false',
    'gpg.x509.program': 'false',
    'safe.bareRepository': 'explicit',
    'submodule.recurse': 'false',
  };
  /** The config pairs an environment gives git, as git reads them. */
  function configOf(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
    const out: Record<string, string | undefined> = { GIT_PAGER: env.GIT_PAGER };
    if (env.GIT_ALLOW_PROTOCOL !== '' || env.GIT_NO_LAZY_FETCH !== '1')
      out.transports = 'not switched off';
    const count = Number(env.GIT_CONFIG_COUNT);
    for (let i = 0; i < count; i++)
      out[env[`GIT_CONFIG_KEY_${i}`] ?? `missing key ${i}`] = env[`GIT_CONFIG_VALUE_${i}`];
    return out;
  }

  it('switches off every program git could run from repository config', () => {
    expect(configOf(readOnlyGitEnvironment({}))).toEqual(expected);
  });

  it('adds to config already given through the environment, keeping it', () => {
    const given = { GIT_CONFIG_COUNT: '2', GIT_CONFIG_KEY_0: 'a.b', GIT_CONFIG_VALUE_0: '1' };
    const env = { ...given, GIT_CONFIG_KEY_1: 'c.d', GIT_CONFIG_VALUE_1: '2' };
    const merged = { ...env, ...readOnlyGitEnvironment(env) };
    expect(configOf(merged)).toEqual({ 'a.b': '1', 'c.d': '2', ...expected });
  });

  it('starts from zero when the count it finds is not a number', () => {
    expect(configOf(readOnlyGitEnvironment({ GIT_CONFIG_COUNT: 'lots' }))).toEqual(expected);
  });
});
