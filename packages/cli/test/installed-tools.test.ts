/**
 * Every built-in tool, called once through the installed command (`toolhost call`), with
 * real files, a real shell and web servers on 127.0.0.1: a chunk, a package or an export
 * that only the shipped layout gets wrong fails here. The list comes from the installed
 * command itself, so a tool added without a case here fails the first test.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../core/test/helpers/http-server.js';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { runCliAsync } from './run-cli.js';

let dirs: TempDirs;
let page: TestServer;
let search: TestServer;

beforeAll(async () => {
  dirs = makeTempDirs({ rootName: 'project' });
  page = await startServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<html><body><h1>Plovers</h1><p>The plover nests on shingle.</p></body></html>');
  });
  search = await startServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        results: [
          { title: 'Plover facts', url: 'https://example.org/plover', content: 'Shingle.' },
        ],
      }),
    );
  });
  mkdirSync(path.join(dirs.home, '.toolhost'), { recursive: true });
  writeFileSync(
    path.join(dirs.home, '.toolhost', 'settings.json'),
    JSON.stringify({
      tools: { webFetch: { allowedHosts: ['127.0.0.1'] } },
      webSearch: { provider: 'searxng', baseUrl: search.url },
    }),
  );
  mkdirSync(path.join(dirs.root, 'src'));
  writeFileSync(path.join(dirs.root, 'src', 'math.js'), 'export const add = (a, b) => a + b;\n');
  writeFileSync(path.join(dirs.root, 'notes.md'), 'the plover is a bird\n');
});
afterAll(async () => {
  await page.close();
  await search.close();
  dirs.cleanup();
});

/** Each tool's call, what its answer to the model must contain, and the flags it needs. */
const CASES: Record<string, () => { args: object; expect: string | RegExp; flags?: string[] }> = {
  list_directory: () => ({ args: { path: dirs.root }, expect: '[DIR] src' }),
  read_file: () => ({
    args: { absolute_path: path.join(dirs.root, 'notes.md') },
    expect: 'the plover is a bird',
  }),
  write_file: () => ({
    args: { file_path: path.join(dirs.root, 'out', 'new.txt'), content: 'written\n' },
    expect: /new\.txt/,
    flags: ['--yes'],
  }),
  edit: () => ({
    args: {
      file_path: path.join(dirs.root, 'src', 'math.js'),
      old_string: 'a + b',
      new_string: 'b + a',
    },
    expect: /math\.js/,
    flags: ['--yes'],
  }),
  grep_search: () => ({ args: { pattern: 'plover', path: dirs.root }, expect: 'notes.md' }),
  glob: () => ({ args: { pattern: '**/*.js', path: dirs.root }, expect: 'math.js' }),
  read_many_files: () => ({ args: { paths: ['notes.md'] }, expect: 'the plover is a bird' }),
  run_shell_command: () => ({
    args: { command: 'echo shell-ran && pwd', is_background: false },
    expect: 'shell-ran',
    flags: ['--yes'],
  }),
  web_fetch: () => ({
    args: { url: `${page.url}/plovers`, prompt: 'Where does the plover nest?' },
    expect: 'The plover nests on shingle.',
    flags: ['--yes'],
  }),
  web_search: () => ({ args: { query: 'plover' }, expect: 'Plover facts' }),
  save_memory: () => ({
    args: { fact: 'likes plovers' },
    expect: 'likes plovers',
    flags: ['--yes'],
  }),
  todo_write: () => ({
    args: { todos: [{ id: '1', content: 'watch plovers', status: 'pending' }] },
    expect: 'watch plovers',
  }),
  exit_plan_mode: () => ({
    args: { plan: 'Watch the plovers.' },
    expect: 'approved',
    flags: ['--yes', '--approval-mode', 'plan'],
  }),
};

const call = (args: string[]) => runCliAsync(args, { cwd: dirs.root, home: dirs.home });

describe('each built-in tool through the installed command', { timeout: 60_000 }, () => {
  it('has a case here for every tool the installed command offers', async () => {
    const listed = await call(['tools', '--json']);
    expect(listed.code).toBe(0);
    const names = (JSON.parse(listed.stdout) as { name: string }[]).map((tool) => tool.name);
    expect(names).toContain('web_search');
    expect(names.filter((name) => !(name in CASES))).toEqual([]);
  });

  it.each(Object.keys(CASES))('%s', async (name) => {
    const example = CASES[name]!();
    const result = await call([
      'call',
      '--json',
      ...(example.flags ?? []),
      name,
      JSON.stringify(example.args),
    ]);
    expect(result.stderr).not.toMatch(/\n\s+at |internal error|is not a (constructor|function)/);
    expect(result.code, result.stderr).toBe(0);
    const answer = JSON.parse(result.stdout) as { status: string; llmContent?: unknown };
    expect(answer.status).toBe('success');
    expect(JSON.stringify(answer)).toMatch(example.expect);
  });

  it('leaves the files the calls changed as they said', () => {
    expect(readFileSync(path.join(dirs.root, 'out', 'new.txt'), 'utf8')).toBe('written\n');
    expect(readFileSync(path.join(dirs.root, 'src', 'math.js'), 'utf8')).toContain('b + a');
  });
});
