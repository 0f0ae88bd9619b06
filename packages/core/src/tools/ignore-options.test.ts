/**
 * context.fileFiltering (Qwen Code's settings) as the defaults of the listing and search
 * tools, by what the tools return in a real git repository.
 */
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorkspace, type TempWorkspace } from '../../test/helpers/temp-workspace.js';
import type { Settings } from '../contract/settings-types.js';
import { GlobTool } from './glob.js';
import { GrepTool } from './grep.js';
import { LsTool } from './ls.js';

let ws: TempWorkspace | undefined;
afterEach(() => ws?.cleanup());
const signal = new AbortController().signal;

/** A repository with a git-ignored file, a file .aiignore leaves out and one in .rules. */
function repository(settings: Settings) {
  ws = makeWorkspace({ settings });
  execFileSync('git', ['init', '-q'], { cwd: ws.root });
  ws.write('.gitignore', 'build.txt\n');
  ws.write('.aiignore', 'secret.txt\n');
  ws.write('.rules', 'custom.txt\n');
  for (const name of ['build.txt', 'secret.txt', 'custom.txt', 'kept.txt'])
    ws.write(name, 'needle\n');
  return ws;
}

const listed = async (workspace: TempWorkspace) =>
  String((await new LsTool(workspace.config).execute({ path: workspace.root }, signal)).llmContent);
const globbed = async (workspace: TempWorkspace) =>
  String((await new GlobTool(workspace.config).execute({ pattern: '*.txt' }, signal)).llmContent);
const grepped = async (workspace: TempWorkspace) =>
  String((await new GrepTool(workspace.config).execute({ pattern: 'needle' }, signal)).llmContent);

describe('context.fileFiltering', () => {
  it('by default leaves out what .gitignore and .aiignore exclude (Qwen Code reads .aiignore too)', async () => {
    const workspace = repository({});
    for (const text of [
      await listed(workspace),
      await globbed(workspace),
      await grepped(workspace),
    ]) {
      expect(text).toContain('kept.txt');
      expect(text).toContain('custom.txt');
      expect(text).not.toContain('build.txt');
      expect(text).not.toContain('secret.txt');
    }
  });

  it('respectGitIgnore false, respectQwenIgnore false and customIgnoreFiles change what the tools see', async () => {
    const noGit = repository({ context: { fileFiltering: { respectGitIgnore: false } } });
    for (const text of [await listed(noGit), await globbed(noGit), await grepped(noGit)]) {
      expect(text).toContain('build.txt');
      expect(text).not.toContain('secret.txt');
    }
    noGit.cleanup();
    const noQwen = repository({ context: { fileFiltering: { respectQwenIgnore: false } } });
    for (const text of [await listed(noQwen), await globbed(noQwen), await grepped(noQwen)]) {
      expect(text).toContain('secret.txt');
      expect(text).not.toContain('build.txt');
    }
    noQwen.cleanup();
    const custom = repository({ context: { fileFiltering: { customIgnoreFiles: ['.rules'] } } });
    for (const text of [await listed(custom), await globbed(custom), await grepped(custom)]) {
      expect(text).toContain('secret.txt');
      expect(text).not.toContain('custom.txt');
    }
  });

  it('a model that asks for ignored files still gets them', async () => {
    const workspace = repository({});
    const result = await new GlobTool(workspace.config).execute(
      { pattern: '*.txt', respect_git_ignore: false, respect_qwen_ignore: false },
      signal,
    );
    expect(String(result.llmContent)).toContain('secret.txt');
    expect(String(result.llmContent)).toContain('build.txt');
  });
});
