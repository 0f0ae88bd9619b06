/**
 * toolhost used outside its clone, as the README says: both packages packed with `npm pack`,
 * installed into a fresh project (from the npm cache where it can: `npm ci` filled it, so
 * this needs no network), then the installed
 * `toolhost` command and the README's library example run there.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    encoding: 'utf8',
    // Below beforeAll's 600 s: a stuck npm fails with a message instead of blocking the run.
    timeout: 540_000,
    // Not the settings of the `npm test` that runs this (npm_config_*, npm_lifecycle_*).
    env: {
      ...Object.fromEntries(
        Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')),
      ),
      npm_config_update_notifier: 'false',
    },
  });

let base: string;
let project: string;

/** The library example of README.md, which is plain JavaScript apart from its fence. */
function readmeExample(): string {
  const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const start = readme.indexOf('<!-- readme-example: library');
  const match = /```ts\n([\s\S]*?)```/.exec(readme.slice(start));
  if (start === -1 || !match?.[1]) throw new Error('README.md has no library example');
  return match[1];
}

beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'toolhost-packed-')));
  project = path.join(base, 'project');
  mkdirSync(project);
  // Packed as built by `npm test` (which builds first); no scripts run at pack or install.
  const packed = JSON.parse(
    npm(
      [
        'pack',
        '--json',
        '--ignore-scripts',
        '--pack-destination',
        base,
        '-w',
        'packages/core',
        '-w',
        'packages/cli',
      ],
      REPO,
    ),
  ) as { filename: string }[];
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'uses-toolhost', private: true, type: 'module' }),
  );
  npm(
    [
      'install',
      '--prefer-offline',
      '--ignore-scripts',
      ...packed.map((entry) => path.join(base, path.basename(entry.filename))),
    ],
    project,
  );
}, 600_000);
// Removing the installed project (thousands of files) is slow on a busy machine.
afterAll(() => rmSync(base, { recursive: true, force: true }), 300_000);

describe('toolhost installed from packed tarballs into another project', () => {
  it('puts a working toolhost command in node_modules/.bin', () => {
    const output = execFileSync(
      path.join(project, 'node_modules', '.bin', 'toolhost'),
      ['tools', '--json'],
      {
        cwd: project,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: base },
        timeout: 25_000,
      },
    );
    const names = (JSON.parse(output) as { name: string }[]).map((d) => d.name);
    expect(names).toEqual(expect.arrayContaining(['read_file', 'list_directory']));
  });

  it("runs the README's library example against the installed @toolhost/core", () => {
    writeFileSync(path.join(project, 'example.mjs'), readmeExample());
    const output = execFileSync(process.execPath, ['example.mjs'], {
      cwd: project,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: base },
      timeout: 25_000,
    });
    const lines = output.trim().split('\n');
    expect(lines[0]).toContain('read_file');
    expect(lines[2]).toBe('success');
    expect(lines[3]).toBe('"list_directory"');
  });
});
