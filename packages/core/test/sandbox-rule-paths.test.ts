/**
 * Read and Edit deny rules enforced by the kernel, by effect with the real bwrap, as root
 * and as an unprivileged user: a secret a Read deny rule covers is not printed by any
 * command in either profile (cat, a glob, a link planted before or during the command, a
 * copy of its folder, another language, git reading the file); a file an Edit deny rule
 * covers stays unchanged in an approved command however it is written to or moved; and
 * nothing is left in the workspace by the mounts.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROMPT_FOLDER_ROOTS } from '../src/config/prompt-folders.js';
import { pathRules, resolveCoveredPaths } from '../src/permissions/covered-paths.js';
import { rulesFromSettings } from '../src/permissions/permission-rules.js';
import type { SandboxPolicy } from '../src/shell/sandbox/policy.js';
import type { ProfileName } from '../src/shell/sandbox/profiles/profiles.js';
import { sandboxStatus } from '../src/shell/sandbox/sandbox.js';
import { waitUntil } from './helpers/processes.js';
import {
  openFolder,
  openUp,
  removeFolder,
  runInProfile,
  type SandboxUser,
  sandboxUsers,
  userLabel,
} from './helpers/sandbox-run.js';

const works =
  process.platform === 'linux' &&
  sandboxStatus('allow').available &&
  sandboxStatus('deny', undefined, undefined, 'unasked').available;
if (!works) console.warn('sandbox rule path tests skipped: bwrap does not work here');

const DENY = [
  'Read(./secrets/**)',
  'Read(.env)',
  'Read(**/*.pem)',
  'Read(./notes/private.txt)',
  'Read(./missing/**)',
  'Read(.npmrc)',
  'Edit(./conf/locked.txt)',
  'Edit(./frozen)',
];

let base: string;
beforeAll(() => {
  base = openFolder('toolhost-rule-paths-');
});
afterAll(() => {
  if (base) removeFolder(base);
});

/** A workspace (owned by anyone) with secrets, a locked file, and a link planted earlier. */
function workspace(name: string, user: SandboxUser) {
  const root = openUp(path.join(base, name, 'ws'));
  const home = openUp(path.join(base, name, 'home'));
  const temp = openUp(path.join(base, name, 'temp'));
  const files: Record<string, string> = {
    'secrets/x.txt': 'RULE-SECRET-X\n',
    'secrets/deep/y.txt': 'RULE-SECRET-Y\n',
    '.env': 'RULE-SECRET-ENV\n',
    'sub/.env': 'RULE-SECRET-SUBENV\n',
    'certs/a/key.pem': 'RULE-SECRET-PEM\n',
    'notes/private.txt': 'RULE-SECRET-NOTE\n',
    'notes/public.txt': 'public-note\n',
    'conf/locked.txt': 'ORIGINAL\n',
    'conf/open.txt': 'open\n',
    'frozen/inner.txt': 'FROZEN\n',
    'a.txt': 'workspace-content\n',
  };
  for (const [file, content] of Object.entries(files)) {
    const full = path.join(root, file);
    openUp(path.dirname(full));
    writeFileSync(full, content);
    chmodSync(full, 0o666);
  }
  // Planted by an earlier command: a link inside the workspace to the secret.
  symlinkSync(path.join(root, 'secrets', 'x.txt'), path.join(root, 'innocent.txt'));
  symlinkSync('notes', path.join(root, 'notes-link'));
  gitInit(root, user);
  return { root, home, temp };
}

function policyFor(where: { root: string; home: string; temp: string }): SandboxPolicy {
  const rules = pathRules(rulesFromSettings({ permissions: { deny: DENY } }), {
    projectRoot: where.root,
    homeDir: where.home,
  });
  return {
    workspaceRoots: [where.root],
    projectTempDir: where.temp,
    homeDirs: [where.home],
    promptFolders: PROMPT_FOLDER_ROOTS,
    network: 'allow',
    covered: resolveCoveredPaths(rules),
  };
}

/** Every path under `dir`, for comparing before and after a command. */
function listing(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).sort();
}

const READS = [
  'cat secrets/x.txt',
  'cat secrets/*',
  'cat secrets/deep/y.txt',
  'cat .env sub/.env',
  'cat certs/a/key.pem',
  'cat innocent.txt',
  'cat notes/private.txt notes-link/private.txt',
  'cat notes/public.txt a.txt',
  'grep -r RULE-SECRET . ',
  `python3 -c "print(open('secrets/x.txt').read())"`,
  `perl -e 'open F, ".env"; print <F>'`,
  'git --no-pager show HEAD:secrets/x.txt',
  'git --no-pager diff --no-index /dev/null secrets/x.txt',
  'cp -r . /tmp/copy && grep -r RULE-SECRET /tmp/copy',
  'tar cf - . | tar tvf - | grep -c . ',
];

for (const user of sandboxUsers()) {
  const who = userLabel(user);
  for (const profile of ['unasked', 'approved'] as ProfileName[]) {
    describe.skipIf(!works)(`Read deny rules in the ${profile} profile, ${who}`, () => {
      it('hide the secret from every way of reading it', async () => {
        const where = workspace(`${profile}-read-${user}`, user);
        const planted =
          profile === 'approved'
            ? [
                'ln -s secrets/x.txt fresh-link && cat fresh-link',
                'ln -s secrets fresh && cat fresh/x.txt',
              ]
            : [];
        const policy = policyFor(where);
        const before = listing(where.root);
        const { output } = await run(profile, policy, where.root, [...READS, ...planted], user);
        expect(output).not.toContain('RULE-SECRET');
        // The command did run, and saw what no rule covers.
        expect(output).toContain('workspace-content');
        expect(output).toContain('public-note');
        // Nothing left in the workspace by the mounts (the planted links aside); the empty
        // prompt folders the profile makes are given back once the sandbox's mounts are gone.
        const added = () =>
          listing(where.root).filter((file) => !before.includes(file) && !file.startsWith('fresh'));
        await waitUntil(() => added().length === 0, 10_000);
        expect(added()).toEqual([]);
        expect(existsSync(path.join(where.root, 'missing'))).toBe(false);
        expect(existsSync(path.join(where.root, '.npmrc'))).toBe(false);
      }, 60_000);
    });
  }

  describe.skipIf(!works)(
    `Edit deny rules (and pinned folders) in the approved profile, ${who}`,
    () => {
      it('keep the covered file unchanged and in place, the rest writable', async () => {
        const where = workspace(`edit-${user}`, user);
        const locked = path.join(where.root, 'conf', 'locked.txt');
        const { output } = await run(
          'approved',
          policyFor(where),
          where.root,
          [
            'echo x > conf/locked.txt',
            'echo x >> conf/locked.txt',
            'rm -f conf/locked.txt',
            'mv conf/locked.txt conf/moved.txt',
            'mv conf conf-away',
            'mv frozen frozen-away',
            'mv notes notes-away',
            'echo x > frozen/inner.txt',
            'touch frozen/new.txt',
            'echo changed > conf/open.txt && echo open-written',
            'echo changed > a.txt && echo a-written',
          ],
          user,
        );
        expect(readFileSync(locked, 'utf8')).toBe('ORIGINAL\n');
        expect(readFileSync(path.join(where.root, 'frozen', 'inner.txt'), 'utf8')).toBe('FROZEN\n');
        expect(existsSync(path.join(where.root, 'frozen', 'new.txt'))).toBe(false);
        expect(existsSync(path.join(where.root, 'conf-away'))).toBe(false);
        expect(existsSync(path.join(where.root, 'frozen-away'))).toBe(false);
        // Nor can a folder above a hidden file be renamed, which would take it out of its rule.
        expect(existsSync(path.join(where.root, 'notes-away'))).toBe(false);
        expect(output).toContain('open-written');
        expect(output).toContain('a-written');
        expect(readFileSync(path.join(where.root, 'conf', 'open.txt'), 'utf8')).toBe('changed\n');
      }, 60_000);
    },
  );

  describe.skipIf(!works)(`covered paths that vanish before the command, ${who}`, () => {
    it('leave no empty stand-in behind in the workspace', async () => {
      const where = workspace(`vanish-${user}`, user);
      const policy = policyFor(where);
      // Removed after the walk, before bwrap starts: bwrap makes a mount point there.
      rmSync(path.join(where.root, '.env'));
      const { output } = await run('approved', policy, where.root, ['cat a.txt'], user);
      expect(output).toContain('workspace-content');
      expect(await waitUntil(() => !existsSync(path.join(where.root, '.env')), 10_000)).toBe(true);
      // The same for a hidden folder.
      const again = policyFor(where);
      rmSync(path.join(where.root, 'secrets'), { recursive: true });
      const second = await run('approved', again, where.root, ['cat a.txt'], user);
      expect(second.output).toContain('workspace-content');
      expect(await waitUntil(() => !existsSync(path.join(where.root, 'secrets')), 10_000)).toBe(
        true,
      );
    }, 60_000);
  });
}

async function run(
  profile: ProfileName,
  policy: SandboxPolicy,
  cwd: string,
  lines: string[],
  user: SandboxUser,
) {
  return runInProfile(profile, policy, cwd, lines.map((line) => `${line} 2>&1`).join('; '), user);
}

/** A repository whose history does not hold the secret (the object store is not hidden). */
function gitInit(root: string, user: SandboxUser) {
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'safe.directory=*', ...args], { cwd: root, stdio: 'ignore' });
  git('init', '-q');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'x');
  if (user === 'nobody') execFileSync('chmod', ['-R', 'a+rwX', path.join(root, '.git')]);
}
