/**
 * toolhost used outside its clone, as the README says: both packages packed with `npm pack`,
 * installed into a fresh project (from the npm cache where it can: `npm ci` filled it, so
 * this needs no network), then the project-local `toolhost` command (a shell command and a
 * web page through it) and the README's library example run there. The rest of the CLI
 * suite runs the global install of the same tarballs (setup/installed-command.ts).
 */
import { execFile, execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../core/test/helpers/http-server.js';
import { docExample } from './helpers/doc-examples.js';
import { npm, packBoth } from './setup/installed-command.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

let base: string;
let project: string;
let tarballs: string[];

/** The library example of README.md, which is plain JavaScript apart from its fence. */
const readmeExample = () => docExample('library').code;

beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'toolhost-packed-')));
  project = path.join(base, 'project');
  mkdirSync(project);
  // Packed as built by `npm test` (which builds first); no scripts run at pack or install.
  tarballs = packBoth(base);
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'uses-toolhost', private: true, type: 'module' }),
  );
  npm(['install', '--prefer-offline', '--ignore-scripts', ...tarballs], project);
}, 600_000);
// Removing the installed project (thousands of files) is slow on a busy machine.
afterAll(() => rmSync(base, { recursive: true, force: true }), 300_000);

describe('toolhost installed from packed tarballs into another project', () => {
  it('ships nothing that names the machine it was built on, and no source maps', () => {
    const unpacked = path.join(base, 'unpacked');
    const files: string[] = [];
    for (const tarball of tarballs) {
      const into = path.join(unpacked, path.basename(tarball));
      mkdirSync(into, { recursive: true });
      execFileSync('tar', ['-xzf', tarball, '-C', into]);
      files.push(
        ...readdirSync(into, { recursive: true, encoding: 'utf8' }).map((name) =>
          path.join(into, name),
        ),
      );
    }
    const shipped = files.filter((file) => statSync(file).isFile());
    expect(shipped.length).toBeGreaterThan(100);
    expect(shipped.filter((file) => file.endsWith('.map'))).toEqual([]);
    const naming = shipped.filter((file) => readFileSync(file, 'latin1').includes(REPO));
    expect(naming.map((file) => path.relative(unpacked, file))).toEqual([]);
  });

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

  it('runs a shell command and fetches a page from node_modules/.bin', async () => {
    const page = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<p>served to the local install</p>');
    });
    try {
      const run = (args: string[]) =>
        promisify(execFile)(path.join(project, 'node_modules', '.bin', 'toolhost'), args, {
          cwd: project,
          encoding: 'utf8',
          env: { PATH: process.env.PATH, HOME: base },
          timeout: 25_000,
        });
      const shell = await run([
        'call',
        '--yes',
        'run_shell_command',
        JSON.stringify({ command: 'echo local-shell-$((6*7))', is_background: false }),
      ]);
      expect(shell.stdout).toContain('local-shell-42');
      mkdirSync(path.join(base, '.toolhost'), { recursive: true });
      writeFileSync(
        path.join(base, '.toolhost', 'settings.json'),
        JSON.stringify({ tools: { webFetch: { allowedHosts: ['127.0.0.1'] } } }),
      );
      const fetched = await run([
        'call',
        '--yes',
        'web_fetch',
        JSON.stringify({ url: page.url, prompt: 'what does it say?' }),
      ]);
      expect(fetched.stdout).toContain('served to the local install');
    } finally {
      await page.close();
    }
  });

  it('finds the ripgrep binary that the installed @vscode/ripgrep itself names', () => {
    // The project's layout (packages hoisted into its node_modules), not the clone's.
    const script = `
      import { createRequire } from 'node:module';
      import { fileURLToPath, pathToFileURL } from 'node:url';
      const core = fileURLToPath(import.meta.resolve('@toolhost/core'));
      const wrapper = createRequire(core).resolve('@vscode/ripgrep');
      const { ripgrepPath } = await import('@toolhost/core');
      const { rgPath } = await import(pathToFileURL(wrapper).href);
      console.log(JSON.stringify({ ours: ripgrepPath(), theirs: rgPath }));`;
    writeFileSync(path.join(project, 'ripgrep-path.mjs'), script);
    const { ours, theirs } = JSON.parse(
      execFileSync(process.execPath, ['ripgrep-path.mjs'], {
        cwd: project,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: base },
        timeout: 25_000,
      }),
    ) as { ours: string | null; theirs: string };
    expect(ours).toBe(theirs);
    expect(ours?.startsWith(path.join(project, 'node_modules'))).toBe(true);
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
