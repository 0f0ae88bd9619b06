/**
 * The installed command run as a sandbox test's user: as this process's user, or as nobody
 * through setpriv (when the tests run as root), in a project with its own home and no
 * system settings, with PATH the only other variable. Bounded by CLI_TIMEOUT_MS; nothing
 * to clean up (the test owns the folders).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { AS_NOBODY, type SandboxUser } from '../../../core/test/helpers/sandbox-run.js';
import { CLI, CLI_TIMEOUT_MS } from '../run-cli.js';

/** `toolhost ...args` as `user` in `where`; its standard output (and error, with `stderr`). */
export function runCliAs(
  user: SandboxUser,
  where: { root: string; home: string },
  args: string[],
  options: { stderr?: boolean } = {},
): Promise<string> {
  const [file, argv] =
    user === 'nobody'
      ? ['setpriv', [...AS_NOBODY, process.execPath, CLI, ...args]]
      : [process.execPath, [CLI, ...args]];
  return new Promise<string>((resolve, reject) => {
    const child = spawn(file, argv, {
      cwd: where.root,
      env: {
        PATH: process.env.PATH,
        HOME: where.home,
        TOOLHOST_SYSTEM_SETTINGS_PATH: path.join(where.home, 'no-system-settings.json'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: CLI_TIMEOUT_MS,
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    if (options.stderr) child.stderr.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', () => resolve(out));
  });
}
