/**
 * The command the CLI tests run is the one a person installs: vitest's global setup packs
 * both packages with `npm pack` and installs the tarballs into a fresh global prefix with
 * `npm install --global`, exactly as the README says, then hands the installed command's
 * path to the tests (run-cli.ts reads it). Its launcher, its dist/, its dependencies as npm
 * lays them out for a global install: all of it is what the tests exercise.
 *
 * A developer may set TOOLHOST_TEST_CLI=dist for a fast loop against the clone's build;
 * under CI that is refused, so CI always tests what ships.
 *
 * The install is kept in the temporary folder under a name made of the tarballs' digest, so
 * a second run of unchanged packages reuses it; any change to what is packed installs anew.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

declare module 'vitest' {
  export interface ProvidedContext {
    /** The `toolhost` command the CLI tests run (an installed bin link, or the clone's launcher). */
    toolhostCommand: string;
  }
}

/** npm without the settings of the `npm test` that runs the suite (npm_config_*, npm_lifecycle_*). */
export function npm(args: string[], cwd: string): string {
  return execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    encoding: 'utf8',
    timeout: 540_000,
    env: {
      ...Object.fromEntries(
        Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')),
      ),
      npm_config_update_notifier: 'false',
    },
  });
}

/** Packs both packages as built (no scripts run) into `destination`; returns the tarballs. */
export function packBoth(destination: string): string[] {
  const packed = JSON.parse(
    npm(
      [
        'pack',
        '--json',
        '--ignore-scripts',
        '--pack-destination',
        destination,
        '-w',
        'packages/core',
        '-w',
        'packages/cli',
      ],
      REPO,
    ),
  ) as { filename: string }[];
  return packed.map((entry) => path.join(destination, path.basename(entry.filename)));
}

function installGlobally(): string {
  const staging = mkdtempSync(path.join(os.tmpdir(), 'toolhost-install-'));
  const tarballs = packBoth(staging);
  const digest = createHash('sha256');
  for (const tarball of tarballs) digest.update(readFileSync(tarball));
  const prefix = path.join(os.tmpdir(), `toolhost-installed-${digest.digest('hex').slice(0, 16)}`);
  const command = path.join(prefix, 'bin', 'toolhost');
  if (existsSync(path.join(prefix, '.complete'))) {
    rmSync(staging, { recursive: true, force: true });
    return command;
  }
  const fresh = path.join(staging, 'prefix');
  // As the README says (from the npm cache that `npm ci` filled, where it can).
  npm(['install', '--global', '--prefer-offline', '--prefix', fresh, ...tarballs], staging);
  writeFileSync(path.join(fresh, '.complete'), '');
  rmSync(prefix, { recursive: true, force: true });
  // npm's global links are relative, so the finished prefix can move into place whole.
  renameSync(fresh, prefix);
  rmSync(staging, { recursive: true, force: true });
  return command;
}

export default function setup(project: TestProject): void {
  if (process.env.TOOLHOST_TEST_CLI === 'dist') {
    if (process.env.CI)
      throw new Error('TOOLHOST_TEST_CLI=dist is for local loops; CI tests the installed command.');
    project.provide('toolhostCommand', path.join(REPO, 'packages', 'cli', 'bin', 'toolhost.js'));
    return;
  }
  project.provide('toolhostCommand', installGlobally());
}
