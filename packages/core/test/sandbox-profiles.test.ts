/**
 * The two sandbox profiles, tried by effect with the real bwrap, as root and as an
 * unprivileged user (nobody, through setpriv, when the tests run as root): a canary file
 * outside kept uncreated, a secret not printed, a socket server that saw no connection.
 * Each command runs with exactly the arguments and socket filter toolhost builds.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROMPT_FOLDER_ROOTS } from '../src/config/prompt-folders.js';
import type { SandboxPolicy } from '../src/shell/sandbox/policy.js';
import { sandboxStatus } from '../src/shell/sandbox/sandbox.js';
import { SECRET_FILES, VISIBLE_FILES, writeCredentialHome } from './helpers/credentials.js';
import { startServer, type TestServer } from './helpers/http-server.js';
import {
  connectCommand,
  openFolder,
  openUp,
  removeFolder,
  runInProfile,
  type SocketServer,
  sandboxUsers,
  startSocketServer,
  userLabel,
} from './helpers/sandbox-run.js';

const works =
  process.platform === 'linux' &&
  sandboxStatus('deny').available &&
  sandboxStatus('deny', undefined, undefined, 'unasked').available;
if (!works) console.warn('sandbox profile tests skipped: bwrap does not work here');
const describeProfiles = describe.skipIf(!works);

let base: string;
let ws: string;
let home: string;
let outside: string;
let temp: string;
let outsideSocket: SocketServer;
let insideSocket: SocketServer;
let server: TestServer;

beforeAll(async () => {
  base = openFolder('toolhost-profiles-');
  ws = openUp(path.join(base, 'ws'));
  home = openUp(path.join(base, 'home'));
  outside = openUp(path.join(base, 'outside'));
  writeCredentialHome(home);
  temp = openUp(path.join(home, '.toolhost', 'tmp', 'project'));
  openUp(path.join(temp, 'tool-outputs'));
  writeFileSync(path.join(temp, 'tool-outputs', 'saved.txt'), 'saved-output');
  writeFileSync(path.join(ws, 'a.txt'), 'workspace-content\n');
  writeFileSync(path.join(outside, 'secret.txt'), 'OUTSIDE-SECRET\n');
  outsideSocket = await startSocketServer(path.join(outside, 'docker.sock'));
  insideSocket = await startSocketServer(path.join(ws, 'inside.sock'));
  server = await startServer((_req, res) => res.end('reached'));
});
afterAll(async () => {
  await outsideSocket?.close();
  await insideSocket?.close();
  await server?.close();
  if (base) removeFolder(base);
});

const policy = (network: SandboxPolicy['network'] = 'allow'): SandboxPolicy => ({
  workspaceRoots: [ws],
  projectTempDir: temp,
  homeDirs: [home],
  promptFolders: PROMPT_FOLDER_ROOTS,
  network,
});
const tcpCommand = () =>
  `(exec 3<>/dev/tcp/127.0.0.1/${server.port} && printf 'GET /probe HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3) 2>&1 || echo tcp-refused`;

for (const user of sandboxUsers()) {
  const who = userLabel(user);

  describeProfiles(`approved profile, ${who}`, () => {
    const run = (script: string, network: SandboxPolicy['network'] = 'allow') =>
      runInProfile('approved', policy(network), ws, script, user);

    it('has no capability: remounting / writable, unmounting a hidden folder fail', async () => {
      const canary = path.join(outside, 'remount-canary');
      const { output } = await run(
        [
          'mount -o remount,rw / 2>&1',
          `touch ${canary} 2>&1`,
          `umount ${home}/.ssh 2>&1`,
          `cat ${home}/.ssh/id_ed25519 2>&1`,
          'grep -E "^(CapEff|NoNewPrivs)" /proc/self/status',
          'echo end',
        ].join('; '),
      );
      expect(output).toContain('end');
      expect(existsSync(canary)).toBe(false);
      expect(output).toMatch(/CapEff:\s+0000000000000000/);
      expect(output).toMatch(/NoNewPrivs:\s+1/);
      expect(output).not.toContain('SECRET-SSH');
    });

    it('hides every credential location, and leaves the files beside them readable', async () => {
      const files = (names: Record<string, string>) =>
        Object.keys(names)
          .map((file) => path.join(home, file))
          .join(' ');
      const { output } = await run(
        `cat ${files(SECRET_FILES)} 2>/dev/null; grep -r SECRET ${home} 2>/dev/null; cat ${files(VISIBLE_FILES)}`,
      );
      expect(output).not.toContain('SECRET');
      for (const content of Object.values(VISIBLE_FILES)) expect(output).toContain(content);
    });

    it("keeps toolhost's own folders read-only: no link planted among tool outputs", async () => {
      const planted = path.join(temp, 'tool-outputs', 'run_shell_command-cli-call.txt');
      const { output } = await run(
        [
          `ln -s ${outside}/victim.txt ${planted} 2>&1`,
          `ln -s ${outside} ${temp}/background 2>&1`,
          `echo '{}' > ${home}/.toolhost/settings.json 2>&1`,
          `cat ${temp}/tool-outputs/saved.txt`,
        ].join('; '),
      );
      expect(existsSync(planted)).toBe(false);
      expect(existsSync(path.join(temp, 'background'))).toBe(false);
      expect(readFileSync(path.join(home, '.toolhost/settings.json'), 'utf8')).toBe(
        'SECRET-TOOLHOST',
      );
      // Saved outputs stay readable.
      expect(output).toContain('saved-output');
    });

    it('reaches a unix socket outside with the network on, and none without it', async () => {
      const before = outsideSocket.connections();
      const open = await run(connectCommand(outsideSocket.path));
      expect(open.output).toContain('hello from outside');
      expect(outsideSocket.connections()).toBe(before + 1);
      const denied = await run(
        `${connectCommand(outsideSocket.path)}; ${connectCommand(insideSocket.path)}; ${tcpCommand()}`,
        'deny',
      );
      expect(denied.output).toContain('unix socket refused: Permission denied');
      expect(denied.output).toContain('tcp-refused');
      expect(denied.output).not.toContain('hello from outside');
      expect(outsideSocket.connections()).toBe(before + 1);
      expect(insideSocket.connections()).toBe(0);
    });

    it('still writes the workspace and a private /tmp, and reads outside it', async () => {
      const { output } = await run(
        `echo made > ${ws}/approved-${user}.txt && echo tmp > /tmp/x && cat /tmp/x ${outside}/secret.txt`,
      );
      expect(readFileSync(path.join(ws, `approved-${user}.txt`), 'utf8')).toBe('made\n');
      expect(output).toContain('OUTSIDE-SECRET');
    });
  });

  describeProfiles(`unasked profile, ${who}`, () => {
    const run = (script: string) => runInProfile('unasked', policy(), ws, script, user);

    it('shows the workspace, and nothing of the home folder or outside', async () => {
      const { output } = await run(
        [
          `cat ${ws}/a.txt`,
          `cat ${outside}/secret.txt 2>&1`,
          `cat ${home}/notes.txt 2>&1`,
          `echo "home: [$(ls -A ${home})]"`,
          'ls / | tr "\\n" " "',
          `cat ${temp}/tool-outputs/saved.txt`,
          `touch ${temp}/tool-outputs/planted 2>&1`,
          `cat ${home}/.toolhost/settings.json 2>&1`,
          'test -e /var/run || test -e /run || echo no-run',
        ].join('; '),
      );
      expect(output).toContain('workspace-content');
      expect(output).not.toContain('OUTSIDE-SECRET');
      expect(output).not.toContain('visible-notes');
      // Empty but for the way to toolhost's temporary folder.
      expect(output).toContain('home: [.toolhost]');
      // toolhost's saved outputs are there to read, nothing else of its folder.
      expect(output).toContain('saved-output');
      expect(existsSync(path.join(temp, 'tool-outputs', 'planted'))).toBe(false);
      expect(output).not.toContain('SECRET-TOOLHOST');
      expect(output).toContain('no-run');
    });

    it('cannot write the workspace, not even as root after remounting; /tmp is private', async () => {
      const marker = `toolhost-unasked-${process.pid}-${user}`;
      const { output } = await run(
        [
          `touch ${ws}/created 2>&1`,
          `mount -o remount,rw ${ws} 2>&1`,
          `mount -o remount,rw / 2>&1`,
          `echo changed > ${ws}/a.txt 2>&1`,
          `touch ${outside}/created 2>&1`,
          `echo x > /tmp/${marker} && echo tmp-writable`,
          'grep -E "^(CapEff|NoNewPrivs)" /proc/self/status',
        ].join('; '),
      );
      expect(existsSync(path.join(ws, 'created'))).toBe(false);
      expect(existsSync(path.join(outside, 'created'))).toBe(false);
      expect(readFileSync(path.join(ws, 'a.txt'), 'utf8')).toBe('workspace-content\n');
      expect(output).toContain('tmp-writable');
      expect(existsSync(`/tmp/${marker}`)).toBe(false);
      expect(output).toMatch(/CapEff:\s+0000000000000000/);
      expect(output).toMatch(/NoNewPrivs:\s+1/);
    });

    it('has no network and no unix socket, not even one inside the workspace', async () => {
      const requests = server.requests.length;
      const { output } = await run(
        `${connectCommand(insideSocket.path)}; ${connectCommand(outsideSocket.path)}; ${tcpCommand()}`,
      );
      expect(output).toContain('unix socket refused: Permission denied');
      expect(output).toContain('tcp-refused');
      expect(output).not.toContain('hello from outside');
      expect(insideSocket.connections()).toBe(0);
      expect(server.requests.length).toBe(requests);
    });

    it('sees its own processes only', async () => {
      const { output } = await run(
        `test -e /proc/${process.pid} && echo parent-visible; ls /proc | grep -c '^[0-9]'`,
      );
      expect(output).not.toContain('parent-visible');
      expect(Number(output.trim())).toBeLessThan(10);
    });
  });
}
