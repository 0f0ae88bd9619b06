/** Runs the built `toolhost` command as a person or script would, in a given folder. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/index.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  options: { cwd: string; home: string; input?: string; env?: NodeJS.ProcessEnv },
): CliResult {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    input: options.input ?? '',
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: options.home,
      TOOLHOST_SYSTEM_SETTINGS_PATH: path.join(options.home, 'no-system-settings.json'),
      ...options.env,
    },
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
