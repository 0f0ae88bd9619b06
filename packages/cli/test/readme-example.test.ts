/**
 * The library example in README.md is compiled with the project's TypeScript settings and
 * run against the built package, so the README cannot drift from the API.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docExample, REPO } from './helpers/doc-examples.js';

const extractExample = () => docExample('library').code;

let buildDir: string;
let workspace: string;

beforeAll(() => {
  // Inside the repository so that '@toolhost/core' resolves as it does for a user.
  buildDir = mkdtempSync(path.join(REPO, '.toolhost-test-readme-'));
  workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'toolhost-readme-ws-')));
  mkdirSync(path.join(workspace, 'src'));
  writeFileSync(path.join(workspace, 'notes.md'), 'notes');
});
afterAll(() => {
  rmSync(buildDir, { recursive: true, force: true });
  rmSync(workspace, { recursive: true, force: true });
});

describe('README library example', () => {
  // The compiler alone can take a minute on a loaded machine; each step has its own timeout
  // below the test's, so a stuck one fails with a message.
  it('compiles under strict settings and runs', { timeout: 120_000 }, () => {
    writeFileSync(path.join(buildDir, 'example.ts'), extractExample());
    writeFileSync(
      path.join(buildDir, 'tsconfig.json'),
      JSON.stringify({
        extends: '../tsconfig.base.json',
        compilerOptions: {
          composite: false,
          declaration: false,
          declarationMap: false,
          outDir: 'out',
          rootDir: '.',
        },
        include: ['example.ts'],
      }),
    );
    const tsc = path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
    execFileSync(process.execPath, [tsc, '-p', path.join(buildDir, 'tsconfig.json')], {
      encoding: 'utf8',
      timeout: 90_000,
    });
    const output = execFileSync(process.execPath, [path.join(buildDir, 'out', 'example.js')], {
      cwd: workspace,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: workspace },
      timeout: 20_000,
    });
    const lines = output.trim().split('\n');
    expect(lines[0]).toContain('list_directory');
    expect(lines[0]).toContain('read_file');
    expect(lines[1]).toMatch(/^\d+ OpenAI tools$/);
    expect(lines[2]).toBe('success');
    expect(lines[3]).toBe('"list_directory"');
  });
});
