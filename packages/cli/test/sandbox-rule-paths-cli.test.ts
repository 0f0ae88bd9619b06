/**
 * The person's Read and Edit deny rules held by the kernel for commands, through the built
 * `toolhost` command, as root and as an unprivileged user (nobody, through setpriv, when the
 * tests run as root): a covered secret is not printed by a command that ran, however it
 * reads it (a glob, a link planted inside the workspace, a copy of its folder); a covered
 * file is unchanged after an approved command writes it; `toolhost doctor` lists them; and
 * with the sandbox off a command that could reach them asks, even in yolo mode.
 */
import { chownSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandboxStatus } from '@toolhost/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openFolder,
  openUp,
  removeFolder,
  type SandboxUser,
  sandboxUsers,
  userLabel,
} from '../../core/test/helpers/sandbox-run.js';
import { runCliAs } from './helpers/cli-as-user.js';

const works =
  process.platform === 'linux' &&
  sandboxStatus('allow').available &&
  sandboxStatus('deny', undefined, undefined, 'unasked').available;
if (!works) console.warn('sandbox rule path command-line tests skipped: bwrap does not work here');

const DENY = ['Read(./secrets/**)', 'Read(.env)', 'Read(./keys/**)', 'Edit(./conf/locked.txt)'];

let base: string;
beforeAll(() => {
  base = openFolder('toolhost-rule-paths-cli-');
});
afterAll(() => {
  if (base) removeFolder(base);
});

/** A project with secrets, a locked file and a planted link, owned by `user`. */
function project(user: SandboxUser, name: string, shell: Record<string, unknown> = {}) {
  const root = openUp(path.join(base, `${name}-${user}`, 'ws'));
  const home = openUp(path.join(base, `${name}-${user}`, 'home'));
  const files: Record<string, string> = {
    'secrets/x.txt': 'CLI-SECRET-X\n',
    '.env': 'CLI-SECRET-ENV\n',
    'conf/locked.txt': 'ORIGINAL\n',
    'vault/key.txt': 'CLI-SECRET-KEY\n',
    'a.txt': 'workspace-content\n',
    '.toolhost/settings.json': JSON.stringify({
      permissions: { deny: DENY },
      tools: { shell },
    }),
  };
  for (const [file, content] of Object.entries(files)) {
    openUp(path.dirname(path.join(root, file)));
    writeFileSync(path.join(root, file), content);
  }
  symlinkSync(path.join(root, 'secrets', 'x.txt'), path.join(root, 'innocent.txt'));
  // A rule written through a link: what it leads to is hidden.
  symlinkSync(path.join(root, 'vault'), path.join(root, 'keys'));
  // The project's own settings count only in a trusted folder.
  openUp(path.join(home, '.toolhost'));
  writeFileSync(
    path.join(home, '.toolhost', 'trustedFolders.json'),
    JSON.stringify({ [root]: 'TRUST_FOLDER' }),
  );
  if (user === 'nobody') chownTree(path.dirname(root));
  return { root, home };
}

function chownTree(dir: string) {
  chownSync(dir, 65534, 65534);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) chownTree(full);
    else if (!entry.isSymbolicLink()) chownSync(full, 65534, 65534);
  }
}

/** `toolhost ...args` as `user` in the project; its standard output and error together. */
const cli = (user: SandboxUser, where: { root: string; home: string }, args: string[]) =>
  runCliAs(user, where, args, { stderr: true });

/** `peek.sh` in the project, running `lines` and printing their errors too. */
function script(root: string, lines: string[], user: SandboxUser) {
  const file = path.join(root, 'peek.sh');
  writeFileSync(file, `${lines.map((line) => `${line} 2>&1`).join('\n')}\n`);
  if (user === 'nobody') chownSync(file, 65534, 65534);
}

const shellCall = (command: string, ...flags: string[]) => [
  'call',
  'run_shell_command',
  JSON.stringify({ command, is_background: false }),
  ...flags,
];

for (const user of sandboxUsers()) {
  describe.skipIf(!works)(`deny rules held by the kernel, ${userLabel(user)}`, () => {
    it('no command that runs prints a covered secret, and an Edit-denied file stays unchanged', async () => {
      const where = project(user, 'held');
      // A script the command analysis cannot see into: only the kernel stands in the way.
      script(
        where.root,
        [
          'cat secrets/x.txt',
          'cat secrets/*',
          'cat innocent.txt',
          'cat .env',
          'cat keys/key.txt vault/key.txt',
          `cp -r . /tmp/copy && grep -r 'CLI-SEC''RET' /tmp/copy`,
          'ln -s secrets/x.txt fresh && cat fresh',
          'echo x > conf/locked.txt',
          'mv conf conf-away',
          'cat a.txt',
        ],
        user,
      );
      const output = await cli(user, where, shellCall('sh peek.sh', '--approval-mode', 'yolo'));
      expect(output).toContain('workspace-content');
      expect(output).not.toContain('CLI-SECRET');
      expect(readFileSync(path.join(where.root, 'conf', 'locked.txt'), 'utf8')).toBe('ORIGINAL\n');
      expect(readdirSync(where.root)).not.toContain('conf-away');
    }, 60_000);

    it('toolhost doctor lists what is hidden and what is read-only', async () => {
      const where = project(user, 'doctor');
      const output = await cli(user, where, ['doctor']);
      expect(output).toContain('every command runs with them mounted over (bwrap)');
      const hidden = output.split('hidden from commands (Read deny):\n')[1] ?? '';
      expect(hidden).toContain('  secrets/: Read(./secrets/**)\n');
      expect(hidden).toContain('  .env: Read(.env)\n');
      expect(hidden).toContain(`  keys/ (really ${where.root}/vault): Read(./keys/**)\n`);
      expect(output).toContain(
        'read-only for commands (Edit deny):\n  conf/locked.txt: Edit(./conf/locked.txt)',
      );
      expect(output).toContain("git's object store for commands: not hidden");
    }, 60_000);

    it('with the sandbox off, a command that could reach covered paths asks even in yolo mode', async () => {
      const where = project(user, 'off', { sandbox: 'off' });
      script(where.root, ['cat secrets/x.txt', 'touch canary'], user);
      const output = await cli(user, where, shellCall('sh peek.sh', '--approval-mode', 'yolo'));
      expect(output).toContain('no sandbox hides or protects what your deny rules');
      expect(output).not.toContain('CLI-SECRET');
      expect(readdirSync(where.root)).not.toContain('canary');
      const doctor = await cli(user, where, ['doctor']);
      expect(doctor).toContain(
        'no bwrap sandbox runs commands here, so a command that could read or change them asks',
      );
    }, 60_000);
  });
}
