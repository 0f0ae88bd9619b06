/**
 * Programs that write through the files they are given (`touch f`, `cp x .env`, `sed -i`,
 * `rm -r`, `tar -x`, `git checkout -- f`...) follow the person's Edit rules, in yolo mode
 * too: an Edit deny rule refuses them, an Edit ask rule asks (and with nobody to answer,
 * refuses), and without any Edit rule the same lines run unasked. Proven by effect with
 * the sandbox off, so that the analysis alone decides: the covered file is not created,
 * not changed, not removed, not moved; the controls show each line does write it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { git, ruleSession } from './helpers/rule-session.js';
import { makeTempDirs, type TempDirs } from './helpers/temp-workspace.js';

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

const SECRET = 'notes/secret.txt';

/** Lines that create notes/secret.txt where it does not exist. */
const CREATES = [
  'touch notes/secret.txt',
  'touch -am -- notes/secret.txt',
  'cd notes && touch secret.txt',
  'cd notes; cd ..; touch notes/secret.txt',
  'cd notes && echo hi > secret.txt',
  'nice touch notes/secret.txt',
  "bash -c 'touch notes/secret.txt'",
  'mkdir -p notes/secret.txt',
  'cp x.txt notes/secret.txt',
  'cp src/secret.txt notes/',
  'cp -t notes src/secret.txt',
  'cp --target-directory=notes src/secret.txt',
  'cp -rv src/* notes',
  'cp src/s* notes/',
  'mv src/secret.txt notes',
  'ln -s ../x.txt notes/secret.txt',
  'ln x.txt notes/secret.txt',
  'cd notes && ln -s ../src/secret.txt',
  'install -m 644 x.txt notes/secret.txt',
  'install -D x.txt notes/secret.txt',
  'echo hi | tee notes/secret.txt',
  'echo hi | tee -a x.txt notes/secret.txt',
  'truncate -s 10 notes/secret.txt',
  'dd if=x.txt of=notes/secret.txt',
  'gunzip src/one.gz && mv src/one notes/secret.txt',
  'gunzip -k notes/secret.txt.gz',
  'tar -xf a.tar -C notes',
  'tar xf a.tar -C notes',
  'cd notes && tar -x -f ../a.tar',
  'unzip -o a.zip -d notes',
  'patch -p0 < new.diff',
  'echo notes/secret.txt | xargs touch',
];

/** Lines that change, remove or move notes/secret.txt where it holds KEEP. */
const CHANGES = [
  'rm notes/secret.txt',
  'rm -f -- notes/secret.txt',
  'rm -rf notes',
  'rm -r ./notes/',
  'rm notes/*',
  'rm notes/sec*.txt',
  'cd notes && rm secret.txt',
  'unlink notes/secret.txt',
  'shred -u notes/secret.txt',
  'mv notes/secret.txt gone.txt',
  'mv notes gone',
  'mv -t src notes/secret.txt',
  'cp x.txt notes/secret.txt',
  'cp -f x.txt notes/s*t',
  'ln -sf ../x.txt notes/secret.txt',
  'install x.txt notes/secret.txt',
  'truncate -s0 notes/secret.txt',
  'dd if=x.txt of=notes/secret.txt conv=notrunc',
  'echo x | tee notes/secret.txt',
  'sed -i d notes/secret.txt',
  'sed -i.bak s/K/X/ notes/secret.txt',
  'sed -ni /X/p notes/secret.txt',
  'sed --in-place=.b -e s/K/X/ notes/secret.txt',
  'sed -e s/K/X/ -i notes/secret.txt',
  "perl -pi -e 's/K/X/' notes/secret.txt",
  "perl -i -pe 's/K/X/' notes/secret.txt",
  'chmod 000 notes/secret.txt',
  'chmod -w notes/secret.txt',
  'chmod -R a-w notes',
  'chmod --reference=ro.txt notes/secret.txt',
  'gzip -f notes/secret.txt',
  'tar -cf notes/secret.txt x.txt',
  'tar cf notes/secret.txt x.txt',
  'tar --create --file=notes/secret.txt x.txt',
  'git checkout -- notes/secret.txt',
  'git checkout HEAD notes/secret.txt',
  'git restore notes/secret.txt',
  'git rm -qf notes/secret.txt',
  'git mv notes/secret.txt moved.txt',
  'git stash push -q -- notes/secret.txt',
  'echo notes/secret.txt | xargs rm',
  'find notes -name secret.txt -exec rm {} \\;',
];

/** The workspace: sources for the lines above, a repository with the secret committed. */
function prepare(root: string, secret: 'absent' | 'present') {
  for (const dir of ['notes', 'src']) mkdirSync(`${root}/${dir}`, { recursive: true });
  writeFileSync(`${root}/x.txt`, 'x\n');
  writeFileSync(`${root}/ro.txt`, 'ro\n', { mode: 0o444 });
  writeFileSync(`${root}/src/secret.txt`, 'from src\n');
  if (!existsSync(`${root}/.git`)) {
    git(root, 'init', '-q', '-b', 'main');
    git(root, 'config', 'user.name', 'T');
    git(root, 'config', 'user.email', 't@example.com');
    writeFileSync(`${root}/${SECRET}`, 'OLD\n');
    git(root, 'add', SECRET);
    git(root, 'commit', '-qm', 'one');
  }
  rmSync(`${root}/${SECRET}`, { force: true, recursive: true });
  for (const stray of ['gone.txt', 'gone', 'moved.txt', 'src/one', 'src/one.gz'])
    rmSync(`${root}/${stray}`, { force: true, recursive: true });
  const tmp = `${root}/../staging`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp);
  writeFileSync(`${tmp}/secret.txt`, 'from archive\n');
  execFileSync('tar', ['-cf', `${root}/a.tar`, '-C', tmp, 'secret.txt']);
  execFileSync('zip', ['-qj', `${root}/a.zip`, `${tmp}/secret.txt`]);
  execFileSync('gzip', ['-kf', `${tmp}/secret.txt`]);
  writeFileSync(`${root}/notes/secret.txt.gz`, readFileSync(`${tmp}/secret.txt.gz`));
  writeFileSync(`${root}/src/one.gz`, readFileSync(`${tmp}/secret.txt.gz`));
  writeFileSync(
    `${root}/new.diff`,
    '--- /dev/null\n+++ notes/secret.txt\n@@ -0,0 +1 @@\n+from patch\n',
  );
  if (secret === 'present') {
    git(root, 'reset', '-q', '--hard', 'HEAD'); // tracked and committed as OLD again
    writeFileSync(`${root}/${SECRET}`, 'KEEP\n');
  } else git(root, 'rm', '-q', '--cached', '--ignore-unmatch', SECRET);
}

/** What the line did to notes/secret.txt, or null when it left it as prepared. */
function effect(root: string, secret: 'absent' | 'present'): string | null {
  const file = `${root}/${SECRET}`;
  if (secret === 'absent') return existsSync(file) ? 'created' : null;
  if (!existsSync(file)) return 'removed';
  if (!statSync(file).isFile()) return 'replaced';
  if ((statSync(file).mode & 0o222) === 0) return 'mode changed';
  return readFileSync(file, 'utf8') === 'KEEP\n' ? null : 'changed';
}

/** Runs every line in a fresh state; returns those whose effect differs from `want`. */
async function tryLines(
  permissions: Parameters<typeof ruleSession>[1],
  lines: string[],
  secret: 'absent' | 'present',
  want: 'kept' | 'written',
  check: (line: string, done: { status: string; text: string }) => void = () => {},
) {
  const s = ruleSession(dirs, permissions, 'yolo', { sandbox: 'off' });
  const wrong: string[] = [];
  try {
    for (const line of lines) {
      prepare(dirs.root, secret);
      const done = await s.run(line);
      const did = effect(dirs.root, secret);
      if ((did === null) !== (want === 'kept')) wrong.push(`${line}: ${did ?? 'nothing'}`);
      if (want === 'kept') check(line, done);
    }
  } finally {
    await s.dispose();
  }
  return wrong;
}

describe('programs that write the files they are given, in yolo mode', () => {
  for (const [secret, lines] of [
    ['absent', CREATES],
    ['present', CHANGES],
  ] as const) {
    const verb = secret === 'absent' ? 'create' : 'change';
    it(`do not ${verb} a file an Edit deny rule covers`, async () => {
      const wrong = await tryLines(
        { deny: [`Edit(./${SECRET})`] },
        lines,
        secret,
        'kept',
        (line, done) => expect(done.text, line).toMatch(/refused|denies editing|deny rules/),
      );
      expect(wrong).toEqual([]);
    }, 180_000);

    it(`do not ${verb} a file an Edit ask rule covers (nobody to answer: refused)`, async () => {
      const wrong = await tryLines(
        { ask: [`Edit(./${SECRET})`] },
        lines,
        secret,
        'kept',
        (line, done) => expect(done.status, line).toBe('error'),
      );
      expect(wrong).toEqual([]);
    }, 180_000);

    it(`still ${verb} it unasked without Edit rules`, async () => {
      const wrong = await tryLines({ deny: ['Read(./other.txt)'] }, lines, secret, 'written');
      expect(wrong).toEqual([]);
    }, 180_000);
  }
});

describe('an allow rule for the program', () => {
  it('Bash(cp:*) does not let cp overwrite or create a file an Edit deny rule covers', async () => {
    writeFileSync(`${dirs.root}/x.txt`, 'x\n');
    const s = ruleSession(dirs, { allow: ['Bash(cp:*)'], deny: ['Edit(.env)'] }, 'default', {
      sandbox: 'off',
    });
    try {
      // What the rule allows still runs unasked.
      expect((await s.run('cp x.txt y.txt')).status).toBe('success');
      expect(readFileSync(`${dirs.root}/y.txt`, 'utf8')).toBe('x\n');
      const missing = await s.run('cp x.txt .env');
      expect(missing.status).toBe('error');
      expect(missing.text).toContain('Edit(.env)');
      expect(existsSync(`${dirs.root}/.env`)).toBe(false);
      writeFileSync(`${dirs.root}/.env`, 'SECRET=1\n');
      expect((await s.run('cp x.txt .env')).status).toBe('error');
      expect((await s.run('cp -t . sub/.env')).status).toBe('error');
      expect(readFileSync(`${dirs.root}/.env`, 'utf8')).toBe('SECRET=1\n');
    } finally {
      await s.dispose();
    }
  });
});
