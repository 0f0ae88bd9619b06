/**
 * Runs a shell script inside one of the sandbox profiles with the real bwrap, as this
 * process's user or as `nobody` (through setpriv, when this process is root), with the
 * very arguments and socket filter toolhost would use; and a unix socket server that
 * records who connected.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { bwrapLaunch, findBwrap } from '../../src/shell/sandbox/bwrap.js';
import type { SandboxPolicy } from '../../src/shell/sandbox/policy.js';
import type { ProfileName } from '../../src/shell/sandbox/profiles/profiles.js';
import { feedFd3, shellStdio } from '../../src/shell/shell-execution.js';

/** Who runs bwrap: this process's user, or `nobody` started from root. */
export type SandboxUser = 'self' | 'nobody';

/** setpriv's options that run a program as nobody. */
export const AS_NOBODY = ['--reuid=nobody', '--regid=nogroup', '--clear-groups'];

/**
 * The users to try here: root and nobody when this process is root (and bwrap works for
 * nobody: it needs user namespaces), else itself.
 */
export function sandboxUsers(): SandboxUser[] {
  if (process.getuid?.() !== 0) return ['self'];
  const bwrap = findBwrap();
  const probe = bwrap
    ? spawnSync('setpriv', [...AS_NOBODY, bwrap, '--ro-bind', '/', '/', '--unshare-pid', 'true'])
    : null;
  if (probe?.status === 0) return ['self', 'nobody'];
  console.warn('sandbox tests as nobody skipped: setpriv or bwrap does not work for nobody here');
  return ['self'];
}

/** How a user is named in a test's title. */
export function userLabel(user: SandboxUser): string {
  if (user === 'nobody') return 'as nobody';
  return process.getuid?.() === 0 ? 'as root' : 'as an unprivileged user';
}

export interface ProfileRun {
  output: string;
  code: number | null;
}

export async function runInProfile(
  profile: ProfileName,
  policy: SandboxPolicy,
  cwd: string,
  script: string,
  user: SandboxUser,
): Promise<ProfileRun> {
  const bwrap = findBwrap();
  if (!bwrap) throw new Error('bwrap is not installed');
  const launch = bwrapLaunch(policy, cwd, profile);
  const command = [...launch.args, '/bin/sh', '-c', script];
  const [file, args] =
    user === 'nobody' ? ['setpriv', [...AS_NOBODY, bwrap, ...command]] : [bwrap, command];
  const shell = { file, args: () => args, ...(launch.seccomp ? { fd3: launch.seccomp } : {}) };
  try {
    return await new Promise<ProfileRun>((resolve, reject) => {
      const child = spawn(file, args, { stdio: shellStdio(shell, ['ignore', 'pipe', 'pipe']) });
      feedFd3(shell, child);
      let output = '';
      child.stdout?.on('data', (chunk) => (output += chunk));
      child.stderr?.on('data', (chunk) => (output += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ output, code }));
    });
  } finally {
    launch.release();
  }
}

/**
 * A folder outside /tmp (which both profiles replace) that `nobody` may enter, and make
 * files in: so that only the sandbox keeps a command from it.
 */
export function openFolder(prefix: string): string {
  const dir = realpathSync(mkdtempSync(path.join('/var/tmp', prefix)));
  chmodSync(dir, 0o777);
  return dir;
}

/** Makes `dir` (and its parents up to `base`) enterable and writable by anyone. */
export function openUp(dir: string): string {
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o777);
  return dir;
}

export function removeFolder(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export interface SocketServer {
  path: string;
  /** How many connections it accepted. */
  connections(): number;
  close(): Promise<void>;
}

/** A unix socket server at `file` that anyone may connect to, counting connections. */
export async function startSocketServer(file: string): Promise<SocketServer> {
  let count = 0;
  const server = net.createServer((socket) => {
    count++;
    socket.end('hello from outside\n');
  });
  await new Promise<void>((resolve) => server.listen(file, resolve));
  chmodSync(file, 0o777);
  return {
    path: file,
    connections: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A shell line that connects to a unix socket and prints what came back (perl is in every Debian). */
export function connectCommand(socket: string): string {
  return `perl -MIO::Socket::UNIX -e '$s = IO::Socket::UNIX->new(Peer => shift) or die "unix socket refused: $!\\n"; print <$s>' ${socket}`;
}
