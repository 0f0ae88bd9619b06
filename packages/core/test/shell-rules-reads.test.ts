/**
 * Read deny rules against what shell commands really read: glob arguments as bash expands
 * them, and the repository content git prints (`rev:path`, `:path`, pathspecs, `log -p`,
 * `blame`, `grep`, `archive`, `cat-file`). Proven by the secret's absence from everything
 * the call sent back, beside a public file the same command form does print.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, ruleSession } from './helpers/rule-session.js';
import { makeTempDirs, type TempDirs } from './helpers/temp-workspace.js';

const SECRET = 'SECRET-7734';
const PUBLIC = 'PUBLIC-1201';

describe('glob arguments are expanded before Read deny rules are applied', () => {
  let dirs: TempDirs;
  beforeAll(() => {
    dirs = makeTempDirs();
    mkdirSync(`${dirs.root}/secrets`);
    mkdirSync(`${dirs.root}/public`);
    writeFileSync(`${dirs.root}/secrets/x.txt`, SECRET);
    writeFileSync(`${dirs.root}/secrets/y.txt`, PUBLIC);
    writeFileSync(`${dirs.root}/public/a.txt`, PUBLIC);
    writeFileSync(`${dirs.root}/.env`, SECRET);
    writeFileSync(`${dirs.root}/key.pem`, SECRET);
    writeFileSync(`${dirs.root}/notes.md`, PUBLIC);
  });
  afterAll(() => dirs.cleanup());

  const CASES: [rule: string, attempts: string[]][] = [
    [
      'Read(./secrets/x.txt)',
      [
        'cat secrets/*',
        'cat secrets/?.txt',
        'cat secrets/[x].txt',
        'cat s*/x.txt',
        'cat */*',
        'cat secrets/{x,y}.txt',
        'head secrets/*.txt',
        'grep -r S secrets/*',
      ],
    ],
    ['Read(.env)', ['cat .e*', 'cat .[e]nv', 'cat ./.e*', 'cat .{env,x}', 'cat .??v']],
    ['Read(*.pem)', ['cat ./*', 'cat *', 'cat k*', 'cat ~+/*.pem']],
  ];
  for (const [rule, attempts] of CASES) {
    for (const mode of ['default', 'yolo'] as const) {
      it(`${rule} holds against ${attempts.length} glob forms in ${mode} mode`, async () => {
        const s = ruleSession(dirs, { deny: [rule] }, mode);
        try {
          for (const line of attempts) {
            const done = await s.run(line);
            expect(done.text, line).not.toContain(SECRET);
            expect(done.text, line).toMatch(/Read deny rule/);
          }
          // The same forms on public files run and print.
          expect((await s.run('cat public/*')).text).toContain(PUBLIC);
          expect((await s.run('cat no-such-*')).text).toContain('No such file');
        } finally {
          await s.dispose();
        }
      });
    }
  }

  it('relative names after cd are taken from the folder cd moves to', async () => {
    const s = ruleSession(dirs, {
      deny: ['Read(./secrets/x.txt)'],
      allow: ['Bash(cd:*)', 'Bash(cat:*)'],
    });
    try {
      for (const line of [
        'cd public && cat ../secrets/x.txt',
        'cd secrets; cat x.txt',
        '(cd public); cd ../ws/secrets 2>/dev/null || cd secrets; cat x.txt',
        'd=secrets; cd "$d"; cat x.txt',
      ]) {
        const done = await s.run(line);
        expect(done.text, line).not.toContain(SECRET);
        expect(done.status, line).toBe('error');
      }
      expect((await s.run('cd public && cat a.txt')).text).toContain(PUBLIC);
    } finally {
      await s.dispose();
    }
  });

  it('a glob whose dotfiles bash leaves out is judged as bash expands it', async () => {
    const s = ruleSession(dirs, { deny: ['Read(.env)'] });
    try {
      // A pattern naming the file is no read of it; a pattern file is.
      expect((await s.run('grep -c .env notes.md')).status).toBe('success');
      expect((await s.run('grep -f .env notes.md')).status).toBe('error');
      // `*` does not match `.env`, so this prints only the public files.
      const done = await s.run('cat n*');
      expect(done.text).toContain(PUBLIC);
    } finally {
      await s.dispose();
    }
  });
});

describe("git's blob-printing forms are checked against Read deny rules", () => {
  let dirs: TempDirs;
  beforeAll(() => {
    dirs = makeTempDirs();
    const root = dirs.root;
    git(root, 'init', '-q', '-b', 'main');
    mkdirSync(`${root}/secrets`);
    writeFileSync(`${root}/secrets/x.txt`, `${SECRET}\n`);
    writeFileSync(`${root}/public.txt`, `${PUBLIC}\n`);
    git(root, 'add', '.');
    git(root, 'commit', '-qm', 'one');
    writeFileSync(`${root}/secrets/x.txt`, `${SECRET} two\n`);
    writeFileSync(`${root}/public.txt`, `${PUBLIC} two\n`);
    git(root, 'commit', '-qam', 'two');
  });
  afterAll(() => dirs.cleanup());

  /** [line, names a covered file]: a line that only could print one asks, and runs in yolo. */
  const ATTEMPTS: [string, boolean][] = [
    ['git show HEAD:secrets/x.txt', true],
    ['git show :secrets/x.txt', true],
    ['git show :0:secrets/x.txt', true],
    ['git show HEAD~1:./secrets/x.txt', true],
    ['git show HEAD -- secrets/x.txt', true],
    ['git show HEAD', false],
    ['git show', false],
    ['git log -p -- secrets', true],
    ['git log -p', false],
    ['git log --patch --oneline', false],
    ['git log -L1,1:secrets/x.txt', true],
    ['git blame secrets/x.txt', true],
    ['git annotate secrets/x.txt', true],
    ['git grep SECRET', false],
    ['git grep -e SECRET -- secrets', true],
    ['git archive HEAD', false],
    ['git cat-file -p HEAD:secrets/x.txt', true],
    ['git cat-file blob HEAD:secrets/x.txt', true],
    ['git diff HEAD~1', false],
    ['git diff HEAD~1 -- secrets/x.txt', true],
    ['git diff HEAD~1 HEAD', false],
    ["git diff HEAD~1 -- ':(top)secrets'", true],
    ["git diff HEAD~1 -- ':/secrets'", true],
    ["git log -p -- ':(glob)**/x.txt'", false],
    ["git log -p -- ':(icase)SECRETS'", false],
    ["git log -p -- 'secr*'", false],
    ['git --icase-pathspecs log -p -- SECRETS', false],
    ['git -C secrets log -p -- x.txt', true],
    ['git --no-pager show HEAD:secrets/x.txt', true],
    ['git format-patch -1 --stdout', false],
  ];

  for (const [mode, allow] of [
    ['default', []],
    ['default', ['Bash(git:*)']],
    ['yolo', []],
  ] as const) {
    const under = allow.length ? ' under Bash(git:*)' : '';
    it(`Read(./secrets/**) holds in ${mode} mode${under}`, async () => {
      const s = ruleSession(dirs, { deny: ['Read(./secrets/**)'], allow: [...allow] }, mode);
      try {
        for (const [line, names] of ATTEMPTS) {
          if (mode === 'yolo' && !names) continue;
          const done = await s.run(line);
          expect(done.text, line).not.toContain(SECRET);
          expect(done.status, line).toBe('error');
        }
        // Forms that name only public files run and print them.
        expect((await s.run('git show HEAD:public.txt')).text).toContain(PUBLIC);
        expect((await s.run('git log -p -- public.txt')).text).toContain(PUBLIC);
        expect((await s.run('git log --oneline')).text).toContain('two');
      } finally {
        await s.dispose();
      }
    });
  }

  it('runs content forms unasked when the covered file is not tracked', async () => {
    const s = ruleSession(dirs, { deny: ['Read(.env)'] });
    try {
      writeFileSync(`${dirs.root}/.env`, SECRET);
      expect((await s.run('git show HEAD')).text).toContain(PUBLIC);
    } finally {
      await s.dispose();
    }
  });
});
