import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorkspace, type TempWorkspace } from '../../test/helpers/temp-workspace.js';
import { LsTool } from './ls.js';
import { ToolErrorType } from './tools.js';

let ws: TempWorkspace;
let tool: LsTool;
const signal = new AbortController().signal;

beforeEach(() => {
  ws = makeWorkspace();
  tool = new LsTool(ws.config);
});
afterEach(() => ws.cleanup());

describe('list_directory', () => {
  it('lists folders first, then files, each by name', async () => {
    ws.write('b.txt', '');
    ws.write('A.txt', '');
    ws.write('a.txt', '');
    ws.mkdir('zeta');
    ws.mkdir('alpha');
    const result = await tool.execute({ path: ws.root }, signal);
    expect(result.error).toBeUndefined();
    expect(result.llmContent).toBe(
      `Folder ${ws.root}:\n[DIR] alpha\n[DIR] zeta\nA.txt\na.txt\nb.txt\n\n(2 folders, 3 files)`,
    );
  });

  it('marks a symlink to a folder as a folder', async () => {
    ws.mkdir('real');
    symlinkSync(ws.p('real'), ws.p('link'));
    const result = await tool.execute({ path: ws.root }, signal);
    expect(result.llmContent).toContain('[DIR] link');
  });

  it('leaves out entries matching the ignore patterns and counts them', async () => {
    ws.write('a.log', '');
    ws.write('b.ts', '');
    ws.mkdir('node_modules');
    const result = await tool.execute({ path: ws.root, ignore: ['*.log', 'node_modules'] }, signal);
    expect(result.llmContent).toContain('b.ts');
    expect(result.llmContent).not.toContain('a.log');
    expect(result.llmContent).not.toContain('node_modules');
    expect(result.llmContent).toContain('2 hidden by the ignore patterns');
  });

  it('respects .gitignore in a git repository and .toolhostignore, reporting counts', async () => {
    mkdirSync(ws.p('.git'));
    ws.write('.gitignore', '*.log\n');
    ws.write('.toolhostignore', 'secret.txt\n');
    ws.write('a.log', '');
    ws.write('secret.txt', '');
    ws.write('keep.ts', '');
    const result = await tool.execute({ path: ws.root }, signal);
    const text = String(result.llmContent);
    expect(text).toContain('keep.ts');
    expect(text).not.toContain('a.log');
    expect(text).not.toContain('secret.txt');
    expect(text).not.toContain('[DIR] .git');
    expect(text).toContain(".git (git's own data) hidden, 1 hidden by .gitignore");
    expect(text).toContain('1 hidden by .toolhostignore/.qwenignore');
  });

  it('shows ignored entries when filtering is turned off', async () => {
    mkdirSync(ws.p('.git'));
    ws.write('.gitignore', '*.log\n');
    ws.write('.toolhostignore', 'secret.txt\n');
    ws.write('a.log', '');
    ws.write('secret.txt', '');
    const result = await tool.execute(
      {
        path: ws.root,
        file_filtering_options: { respect_git_ignore: false, respect_qwen_ignore: false },
      },
      signal,
    );
    expect(result.llmContent).toContain('a.log');
    expect(result.llmContent).toContain('secret.txt');
  });

  it('reports an empty folder as such', async () => {
    const dir = ws.mkdir('empty');
    const result = await tool.execute({ path: dir }, signal);
    expect(result.llmContent).toBe(`Folder ${dir} is empty.`);
  });

  it('says when everything was hidden', async () => {
    ws.write('only.log', '');
    const result = await tool.execute({ path: ws.root, ignore: ['*.log'] }, signal);
    expect(result.llmContent).toBe(
      `Folder ${ws.root} has no entries to show (1 hidden by the ignore patterns).`,
    );
  });

  it('refuses a file with the right type', async () => {
    const file = ws.write('f.txt', 'x');
    const result = await tool.execute({ path: file }, signal);
    expect(result.error?.type).toBe(ToolErrorType.PATH_IS_NOT_A_DIRECTORY);
    expect(result.error?.message).toContain('read_file');
  });

  it('refuses a missing folder', async () => {
    const result = await tool.execute({ path: ws.p('nope') }, signal);
    expect(result.error?.type).toBe(ToolErrorType.FILE_NOT_FOUND);
  });

  it('refuses a relative path at validation, suggesting the absolute one', () => {
    expect(tool.validateToolParams({ path: 'src' })).toBe(
      `path: src is not an absolute path; send the full path, e.g. ${path.join(ws.root, 'src')}.`,
    );
  });

  it('refuses a folder outside the workspace', async () => {
    const result = await tool.execute({ path: ws.base }, signal);
    expect(result.error?.type).toBe(ToolErrorType.PATH_NOT_IN_WORKSPACE);
  });

  it('refuses a symlink that leads out of the workspace', async () => {
    symlinkSync(ws.home, ws.p('escape'));
    const result = await tool.execute({ path: ws.p('escape') }, signal);
    expect(result.error?.type).toBe(ToolErrorType.PATH_NOT_IN_WORKSPACE);
    expect(result.error?.message).toContain('symbolic link');
  });
});
