/**
 * A repository inside another one: its ignore rules start at its own root, as git's do.
 * Real repositories (git init), checked against `git check-ignore` and through every tool
 * and engine that walks files: list_directory, glob (ripgrep and the JavaScript walker) and
 * grep_search (ripgrep, git grep and JavaScript).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GlobTool } from '../src/tools/glob.js';
import { GrepTool } from '../src/tools/grep.js';
import type { GrepEngineName } from '../src/tools/grep-engines.js';
import { LsTool } from '../src/tools/ls.js';
import type { ListingEngine } from '../src/utils/file-listing.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

const signal = new AbortController().signal;
let ws: TempWorkspace;

function write(dir: string, relative: string, text: string) {
  mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
  writeFileSync(path.join(dir, relative), text);
}
const gitInit = (dir: string) => execFileSync('git', ['init', '-q', dir]);

beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

/** The example: the outer repository ignores `.cache/`, the inner one lives in it. */
function nestedExample(): string {
  gitInit(ws.root);
  write(ws.root, '.gitignore', '.cache/\n');
  const inner = ws.p('.cache', 'c', 'big');
  mkdirSync(inner, { recursive: true });
  gitInit(inner);
  write(inner, 'a.txt', 'needle in a\n');
  write(inner, 'src/b.ts', 'export const b = "needle";\n');
  return inner;
}

const listing = async (dir: string) =>
  (await new LsTool(ws.config).execute({ path: dir }, signal)).llmContent as string;
const globbed = async (engine: ListingEngine, dir: string) =>
  (await new GlobTool(ws.config, { engine }).execute({ pattern: '**/*', path: dir }, signal))
    .llmContent as string;
const grepped = async (engine: GrepEngineName, dir: string) =>
  (await new GrepTool(ws.config, { engine }).execute({ pattern: 'needle', path: dir }, signal))
    .llmContent as string;

describe('a repository inside an ignored folder of another', () => {
  it('is not ignored inside itself, as git check-ignore says', async () => {
    const inner = nestedExample();
    const check = spawnSync('git', ['check-ignore', 'a.txt', 'src/b.ts'], { cwd: inner });
    expect(check.status).toBe(1); // git: nothing ignored

    const listed = await listing(inner);
    expect(listed).toContain('[DIR] src');
    expect(listed).toContain('a.txt');
    expect(listed).not.toContain('hidden by .gitignore');
  });

  it.each(['ripgrep', 'javascript'] as ListingEngine[])(
    'glob (%s) finds its files',
    async (engine) => {
      const inner = nestedExample();
      const found = await globbed(engine, inner);
      expect(found).toContain(path.join(inner, 'a.txt'));
      expect(found).toContain(path.join(inner, 'src', 'b.ts'));
    },
  );

  it.each(['ripgrep', 'git', 'javascript'] as GrepEngineName[])(
    'grep_search (%s) searches its files',
    async (engine) => {
      const inner = nestedExample();
      const found = await grepped(engine, inner);
      expect(found).toContain('a.txt');
      expect(found).toContain('b.ts');
    },
  );

  it('is still hidden when the outer repository is listed', async () => {
    nestedExample();
    expect(await listing(ws.p('.cache'))).toContain(
      'has no entries to show (1 hidden by .gitignore)',
    );
  });
});

describe('a home folder that is a dotfiles repository ignoring everything', () => {
  it('does not empty the projects inside it that are repositories of their own', async () => {
    gitInit(ws.root);
    write(ws.root, '.gitignore', '*\n');
    const project = ws.p('code', 'app');
    mkdirSync(project, { recursive: true });
    gitInit(project);
    write(project, 'main.ts', 'const needle = 1;\n');

    expect(await listing(project)).toContain('main.ts');
    for (const engine of ['ripgrep', 'git', 'javascript'] as GrepEngineName[]) {
      expect(await grepped(engine, project)).toContain('main.ts');
    }
    expect(await globbed('javascript', project)).toContain(path.join(project, 'main.ts'));
  });
});

describe('the .git folder', () => {
  it("is reported as git's own data, not as hidden by a .gitignore that does not exist", async () => {
    gitInit(ws.root);
    write(ws.root, 'a.txt', 'a\n');
    const listed = await listing(ws.root);
    expect(listed).toContain(".git (git's own data) hidden");
    expect(listed).not.toContain('.gitignore');
  });
});
