/**
 * The two sandbox profiles through the built `toolhost` command, run as root and as an
 * unprivileged user (nobody, through setpriv, when the tests run as root), by effect: a
 * read-only line runs unasked and sees the workspace only; an allowed one has no
 * capability and, without network, reaches no unix socket (a server outside counts
 * connections); with the sandbox off, a read-only line asks.
 */
import { chownSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandboxStatus } from '@toolhost/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectCommand,
  openFolder,
  openUp,
  removeFolder,
  type SandboxUser,
  type SocketServer,
  sandboxUsers,
  startSocketServer,
  userLabel,
} from '../../core/test/helpers/sandbox-run.js';
import { runCliAs } from './helpers/cli-as-user.js';

const works =
  process.platform === 'linux' &&
  sandboxStatus('deny').available &&
  sandboxStatus('deny', undefined, undefined, 'unasked').available;
if (!works) console.warn('sandbox profile command-line tests skipped: bwrap does not work here');

let base: string;
let outside: string;
let server: SocketServer;
beforeAll(async () => {
  base = openFolder('toolhost-profiles-cli-');
  outside = openUp(path.join(base, 'outside'));
  writeFileSync(path.join(outside, 'secret.txt'), 'OUTSIDE-SECRET\n');
  mkdirSync(path.join(outside, 'sub'));
  server = await startSocketServer(path.join(outside, 'docker.sock'));
});
afterAll(async () => {
  await server?.close();
  if (base) removeFolder(base);
});

/** A project and a home folder owned by `user`, with user settings `settings`. */
function project(user: SandboxUser, name: string, settings: unknown) {
  const root = openUp(path.join(base, `${name}-${user}`, 'ws'));
  const home = openUp(path.join(base, `${name}-${user}`, 'home'));
  writeFileSync(path.join(root, 'a.txt'), 'workspace-content\n');
  writeFileSync(path.join(home, 'notes.txt'), 'HOME-NOTES\n');
  symlinkSync(path.join(outside, 'sub'), path.join(root, 'link'));
  mkdirSync(path.join(home, '.toolhost'));
  writeFileSync(path.join(home, '.toolhost', 'settings.json'), JSON.stringify(settings));
  if (user === 'nobody')
    for (const dir of [root, home, path.join(home, '.toolhost')]) chownSync(dir, 65534, 65534);
  return { root, home };
}

/** `toolhost call run_shell_command` as `user`; the JSON result's text and status. */
async function call(
  user: SandboxUser,
  where: { root: string; home: string },
  command: string,
  yes = false,
): Promise<{ text: string; status: string }> {
  const args = [
    'call',
    'run_shell_command',
    JSON.stringify({ command, is_background: false }),
    '--json',
    ...(yes ? ['--yes'] : []),
  ];
  const stdout = await runCliAs(user, where, args);
  const result = JSON.parse(stdout) as { llmContent: string; status: string };
  return { text: result.llmContent, status: result.status };
}

for (const user of sandboxUsers()) {
  describe.skipIf(!works)(`sandbox profiles from the command line, ${userLabel(user)}`, () => {
    it('runs a read-only line unasked, seeing the workspace and nothing outside even where parsing is fooled', async () => {
      const where = project(user, 'unasked', {});
      const plain = await call(user, where, 'cat a.txt');
      expect(plain).toMatchObject({ status: 'success' });
      expect(plain.text).toContain('workspace-content');
      // Fooled parsing or not, nothing from outside or the home folder comes back.
      const fooled = await call(user, where, 'cat link/../secret.txt');
      expect(fooled.text).not.toContain('OUTSIDE-SECRET');
    }, 60_000);

    it('runs an allowed line without capabilities, and without network reaches no unix socket', async () => {
      const where = project(user, 'approved', { tools: { shell: { network: 'deny' } } });
      const before = server.connections();
      const { text } = await call(
        user,
        where,
        `grep CapEff /proc/self/status; ${connectCommand(server.path)}; touch made.txt && echo wrote`,
        true,
      );
      expect(text).toMatch(/CapEff:\s+0000000000000000/);
      expect(text).toContain('unix socket refused: Permission denied');
      expect(text).toContain('wrote');
      expect(server.connections()).toBe(before);
    }, 60_000);

    it('asks for a read-only line with the sandbox off, unless the own settings opt into parsing alone', async () => {
      const off = project(user, 'off', { tools: { shell: { sandbox: 'off' } } });
      const asked = await call(user, off, 'cat a.txt');
      expect(asked.status).not.toBe('success');
      expect(asked.text).not.toContain('workspace-content');
      const parseOnly = project(user, 'parse-only', {
        tools: { shell: { sandbox: 'off', parseOnlyAutoApproval: true } },
      });
      const ran = await call(user, parseOnly, 'cat a.txt');
      expect(ran).toMatchObject({ status: 'success' });
      expect(ran.text).toContain('workspace-content');
    }, 60_000);
  });
}
