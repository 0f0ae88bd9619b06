/**
 * The person's allow and deny rules for commands attacked as a model steered by a malicious
 * file would: writes hidden in an allowed command (redirections in every spelling, file
 * descriptors, other writers), and `git push` under a `Bash(git push:*)` deny reached through
 * wrappers, other shells, eval, aliases and configuration. No sandbox, so the analysis alone
 * decides; the victim file must keep its text and the remote must stay without the branch.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { git, ruleSession } from './helpers/rule-session.js';
import { makeTempDirs, type TempDirs } from './helpers/temp-workspace.js';

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

const WRITES = [
  'ls >victim.txt',
  'ls 1>victim.txt',
  'ls >>victim.txt',
  'ls 2>victim.txt',
  'ls 3>victim.txt',
  'ls >"vic"tim.txt',
  'ls > ./victim.txt',
  'ls >vic*.txt',
  'ls > $(echo victim.txt)',
  'ls >&3 3>victim.txt',
  'ls 1<>victim.txt',
  'ls <>victim.txt',
  'exec >victim.txt; ls',
  'exec 1>victim.txt; ls',
  'ls | tee victim.txt',
  'ls | tee -a victim.txt',
  'ls | sort -o victim.txt',
  'ls | uniq - victim.txt',
  'ls; cp /dev/null victim.txt',
  'ls && mv victim.txt gone.txt',
  'ls; touch victim.txt',
  'ls; truncate -s0 victim.txt',
  'ls | dd of=victim.txt',
  'find . -name victim.txt -delete',
  'find . -fprint victim.txt',
  'ls > >(cat > victim.txt)',
  'cat <(ls) > victim.txt',
  'ls; sed -i d victim.txt',
  'sort -o victim.txt victim.txt',
  'ls $(rm victim.txt)',
  'echo `rm victim.txt`',
  'ls | xargs rm victim.txt',
  'ls; : > victim.txt',
  '> victim.txt',
  'ls & > victim.txt',
  'ls; ln -sf x.txt victim.txt',
  'ls; install x.txt victim.txt',
  "ls; perl -pi -e 's/K/X/' victim.txt",
  'ls; gzip victim.txt',
  'ls; tar -cf victim.txt x.txt',
  'ls; cd . && rm victim.txt',
  'ls; cp -t . x.txt && mv -t /tmp victim.txt',
];

/** Runs every line of WRITES; the lines after which victim.txt no longer reads KEEP (it is put back). */
async function linesChangingVictim(session: ReturnType<typeof ruleSession>): Promise<string[]> {
  const victim = `${dirs.root}/victim.txt`;
  const changed: string[] = [];
  for (const line of WRITES) {
    await session.run(line);
    const now = existsSync(victim) ? readFileSync(victim, 'utf8') : '(gone)';
    if (now !== 'KEEP') {
      changed.push(line);
      writeFileSync(victim, 'KEEP');
    }
  }
  return changed;
}

describe('writes hidden in a command a rule allows', () => {
  for (const mode of ['default', 'default-bash-ls'] as const) {
    it(`leave the victim unchanged (${mode})`, async () => {
      writeFileSync(`${dirs.root}/victim.txt`, 'KEEP');
      writeFileSync(`${dirs.root}/x.txt`, 'x');
      const allow = mode === 'default' ? [] : ['Bash(ls:*)', 'Bash(sort:*)', 'Bash(find:*)'];
      const s = ruleSession(dirs, { allow }, 'default', { sandbox: 'off' });
      try {
        expect(await linesChangingVictim(s)).toEqual([]);
        if (mode === 'default') return;
        // What the rules allow still runs unasked: reading, sorting, finding.
        for (const line of ['ls', 'sort x.txt', 'find . -name x.txt', 'uniq x.txt'])
          expect((await s.run(line)).status, line).toBe('success');
      } finally {
        await s.dispose();
      }
    }, 120_000);
  }

  it('an Edit deny on the victim holds in yolo mode', async () => {
    writeFileSync(`${dirs.root}/victim.txt`, 'KEEP');
    const s = ruleSession(dirs, { deny: ['Edit(./victim.txt)'] }, 'yolo', { sandbox: 'off' });
    try {
      expect(await linesChangingVictim(s)).toEqual([]);
    } finally {
      await s.dispose();
    }
  }, 120_000);
});

const PUSHES = [
  'nice git push origin main',
  'nice -n 5 git push origin main',
  'timeout 30 git push origin main',
  'timeout -s KILL 30 git push origin main',
  'echo origin | xargs -I{} git push {} main',
  'echo main | xargs git push origin',
  'git -C. push origin main',
  'git -C ./ push origin main',
  'git --exec-path=/usr/lib/git-core push origin main',
  'git --exec-path push origin main',
  'sh -c "git push origin main"',
  "bash -c 'git push origin main'",
  'bash -lc "git push origin main"',
  'eval git push origin main',
  'eval "git pu""sh origin main"',
  'command git push origin main',
  'command -p git push origin main',
  'env git push origin main',
  'env -S "git push origin main"',
  'env -u HOME git push origin main',
  'env -i PATH=/usr/bin:/bin git push origin main',
  'command env X=1 git push origin main',
  'exec git push origin main',
  'time git push origin main',
  'nohup git push origin main',
  'setsid git push origin main',
  'stdbuf -o0 git push origin main',
  '"git" push origin main',
  'gi\\t push origin main',
  '\\git push origin main',
  'git "push" origin main',
  "git pu''sh origin main",
  '/usr/bin/git push origin main',
  'g=git; $g push origin main',
  '$(echo git) push origin main',
  'git $(echo push) origin main',
  'git -c alias.p=push p origin main',
  'GIT_CONFIG_PARAMETERS="\'alias.p=push\'" git p origin main',
  'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.p GIT_CONFIG_VALUE_0=push git p origin main',
  'git --config-env=alias.p=X p origin main',
  'f() { git push origin main; }; f',
  'find . -maxdepth 0 -exec git push origin main \\;',
  'git send-pack ./remote.git main',
  'git submodule foreach git push origin main',
  'if true; then git push origin main; fi',
  'true && git push origin main',
  'false || git push origin main',
  '(git push origin main)',
  '{ git push origin main; }',
  'git push origin main &',
  'for i in 1; do git push origin main; done',
  'echo x | git push origin main',
  'git --namespace=n push origin main',
  'git --work-tree=. push origin main',
  'git --literal-pathspecs push origin main',
  'git --bare push origin main',
  'git --no-replace-objects push origin main',
  'x=push; git $x origin main',
  'builtin command git push origin main',
  'ionice git push origin main',
  'flock /tmp git push origin main',
  'script -qc "git push origin main" /dev/null',
  'git -c core.sshCommand=x push origin main',
  'git push --mirror ./remote.git',
  'git push ./remote.git HEAD:main',
  'git remote set-url --push origin ./remote.git && git push',
  `python3 -c "import os; os.system('git push origin main')"`,
  `perl -e 'system("git push origin main")'`,
  `node -e "require('child_process').execSync('git push origin main')"`,
  `awk 'BEGIN { system("git push origin main") }'`,
  "make -f /dev/stdin <<< $'p:\\n\\tgit push origin main'",
  'make --eval="p: ; git push origin main" p',
  'printf "git push origin main" > p.sh; sh p.sh',
  'printf "git push origin main" > p.sh; bash < p.sh',
  'echo "git push origin main" | sh',
  'dash -c "git push origin main"',
  'busybox sh -c "git push origin main"',
  'git rebase -x "git push origin main" HEAD',
  'git -c sequence.editor=true rebase -i --exec "git push origin main" HEAD',
  'sed -n "1e git push origin main" a.txt',
  'tar -cf /dev/null a.txt --checkpoint=1 --checkpoint-action=exec="git push origin main"',
  'vim -es -c "!git push origin main" -c q',
];

describe('a Bash(git push:*) deny in yolo mode', () => {
  it('refuses every spelling of the push', async () => {
    const root = dirs.root;
    git(root, 'init', '-q', '-b', 'main');
    writeFileSync(`${root}/a.txt`, 'one\n');
    git(root, 'add', '.');
    git(root, 'commit', '-qm', 'one');
    git(root, 'init', '-q', '--bare', `${root}/remote.git`);
    git(root, 'remote', 'add', 'origin', `${root}/remote.git`);
    const pushed = () => {
      try {
        return git(`${root}/remote.git`, 'for-each-ref').trim() !== '';
      } catch {
        return false;
      }
    };
    const s = ruleSession(dirs, { deny: ['Bash(git push:*)'] }, 'yolo', { sandbox: 'off' });
    const through: string[] = [];
    try {
      for (const line of PUSHES) {
        await s.run(line);
        if (pushed()) {
          through.push(line);
          git(`${root}/remote.git`, 'update-ref', '-d', 'refs/heads/main');
        }
      }
      expect(through).toEqual([]);
      // The rule names git push only: other git commands still run in yolo mode.
      expect((await s.run('git log --oneline')).status).toBe('success');
    } finally {
      await s.dispose();
    }
  }, 240_000);
});

describe('programs run and files written by a command a rule allows', () => {
  const CASES: [rule: string, lines: string[]][] = [
    ['Bash(tree:*)', ['tree -o victim.txt', 'tree -ovictim.txt', 'tree -a -o victim.txt .']],
    [
      'Bash(sort:*)',
      ['sort -S 1K --compress-program=./evil big.txt', 'sort --compress-prog=./evil -S 1K big.txt'],
    ],
    [
      'Bash(git log:*)',
      [
        'git log --output=victim.txt',
        'git log --output victim.txt',
        'git log --outp=victim.txt',
        'git -p log',
        'git --paginate log',
        'PAGER=./evil git -p log',
        'GIT_PAGER=./evil git -p log',
      ],
    ],
    [
      'Bash(git diff:*)',
      [
        'git diff --outp=victim.txt HEAD~1',
        'git diff --ext-diff HEAD~1',
        'GIT_EXTERNAL_DIFF=./evil git diff --ext-diff HEAD~1',
        'git -p diff HEAD~1',
        'git diff --no-index --output=victim.txt a.txt big.txt',
      ],
    ],
    [
      'Bash(find:*)',
      [
        'find . -exec ./evil \\;',
        'find . -fls victim.txt',
        'find . -fprintf victim.txt x',
        'find . -execdir ./evil {} +',
        'find . -ok ./evil \\;',
      ],
    ],
    ['Bash(cat:*)', ['cat a.txt > victim.txt', 'cat a.txt | ./evil', 'cat a.txt>victim.txt']],
    [
      'Bash(git status:*)',
      [
        'git status > victim.txt',
        'git -c core.fsmonitor=./evil status',
        'git status --porcelain>victim.txt',
      ],
    ],
  ];
  for (const [rule, lines] of CASES) {
    it(`leave the victim and the canary alone under ${rule}`, async () => {
      const root = dirs.root;
      git(root, 'init', '-q', '-b', 'main');
      writeFileSync(`${root}/a.txt`, 'one\n');
      git(root, 'add', '.');
      git(root, 'commit', '-qm', 'one');
      writeFileSync(`${root}/a.txt`, 'two\n');
      git(root, 'commit', '-qam', 'two');
      writeFileSync(
        `${root}/.git/config`,
        `${readFileSync(`${root}/.git/config`, 'utf8')}[core]\n\tpager = ./evil\n`,
      );
      writeFileSync(`${root}/evil`, `#!/bin/sh\ntouch '${root}/canary'\ncat >/dev/null\n`, {
        mode: 0o755,
      });
      writeFileSync(`${root}/big.txt`, `${'line\n'.repeat(20_000)}`);
      writeFileSync(`${root}/victim.txt`, 'KEEP');
      const s = ruleSession(dirs, { allow: [rule] }, 'default', { sandbox: 'off' });
      const through: string[] = [];
      try {
        for (const line of lines) {
          await s.run(line);
          const victim = existsSync(`${root}/victim.txt`)
            ? readFileSync(`${root}/victim.txt`, 'utf8')
            : '';
          if (victim !== 'KEEP' || existsSync(`${root}/canary`)) {
            through.push(line);
            writeFileSync(`${root}/victim.txt`, 'KEEP');
            rmSync(`${root}/canary`, { force: true });
          }
        }
        expect(through).toEqual([]);
      } finally {
        await s.dispose();
      }
    }, 120_000);
  }
});

describe('program text in another language', () => {
  it('still runs under its allow rule while no deny or ask rule speaks', async () => {
    const s = ruleSession(dirs, { allow: ['Bash(python3:*)', 'Bash(awk:*)'] }, 'default', {
      sandbox: 'off',
    });
    try {
      expect((await s.run('python3 -c "print(6*7)"')).text).toContain('42');
      expect((await s.run("awk 'BEGIN { print 6*7 }'")).text).toContain('42');
    } finally {
      await s.dispose();
    }
  });

  it('is refused while a deny rule exists, since the rule cannot be checked in it', async () => {
    const s = ruleSession(dirs, { deny: ['Bash(rm:*)'] }, 'yolo', { sandbox: 'off' });
    try {
      writeFileSync(`${dirs.root}/victim.txt`, 'KEEP');
      const done = await s.run(`python3 -c "import os; os.system('rm victim.txt')"`);
      expect(done.text).toMatch(/cannot be checked against the deny rules/);
      expect(readFileSync(`${dirs.root}/victim.txt`, 'utf8')).toBe('KEEP');
      expect((await s.run("awk 'BEGIN { print 6*7 }'")).text).toContain('42');
    } finally {
      await s.dispose();
    }
  });
});

describe("a command's own output files follow the Edit rules", () => {
  it('an Edit allow lets sort -o write unasked', async () => {
    writeFileSync(`${dirs.root}/x.txt`, 'b\na\n');
    const rules = { allow: ['Bash(sort:*)', 'Edit(./out.txt)'] };
    const s = ruleSession(dirs, rules, 'default', { sandbox: 'off' });
    try {
      expect((await s.run('sort -o out.txt x.txt')).status).toBe('success');
      expect(readFileSync(`${dirs.root}/out.txt`, 'utf8')).toBe('a\nb\n');
      // Without an Edit allow for it, the same write asks (refused with nobody to answer).
      expect((await s.run('sort -o other.txt x.txt')).status).toBe('error');
      expect(existsSync(`${dirs.root}/other.txt`)).toBe(false);
    } finally {
      await s.dispose();
    }
  });

  it('an Edit deny refuses sort -o and uniq OUT under their allow rules', async () => {
    writeFileSync(`${dirs.root}/x.txt`, 'b\na\n');
    writeFileSync(`${dirs.root}/victim.txt`, 'KEEP');
    const rules = { allow: ['Bash(sort:*)', 'Bash(uniq:*)'], deny: ['Edit(./victim.txt)'] };
    const s = ruleSession(dirs, rules, 'default', { sandbox: 'off' });
    try {
      for (const line of ['sort -ovictim.txt x.txt', 'uniq x.txt victim.txt']) {
        expect((await s.run(line)).text, line).toMatch(/denies editing/);
        expect(readFileSync(`${dirs.root}/victim.txt`, 'utf8'), line).toBe('KEEP');
      }
    } finally {
      await s.dispose();
    }
  });
});
