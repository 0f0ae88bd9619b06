// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${...} is the extension formats' own variable syntax under test.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from '../../test/helpers/temp-workspace.js';
import { loadSettings } from '../config/settings.js';
import { setEnablement } from './enablement.js';
import { loadExtensions } from './extensions.js';

let dirs: TempDirs;
let userDir: string;
beforeEach(() => {
  dirs = makeTempDirs();
  userDir = path.join(dirs.home, '.toolhost');
});
afterEach(() => dirs.cleanup());

function write(file: string, content: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
}

function installed(name: string, files: Record<string, unknown>): string {
  const folder = path.join(userDir, 'extensions', name);
  for (const [relative, content] of Object.entries(files))
    write(path.join(folder, relative), content);
  return folder;
}

describe('extensions as their owners define them', () => {
  it("puts in Gemini CLI's variables and the extension's .env, and never its own trust", () => {
    const folder = installed('gem', {
      'gemini-extension.json': {
        name: 'gem',
        version: '1.0.0',
        mcpServers: {
          srv: {
            command: 'node',
            args: ['${extensionPath}${/}s.js', '${pathSeparator}', '${unknown}'],
            cwd: '${workspacePath}',
            env: { OWN: 'x' },
            trust: true,
          },
        },
      },
      '.env': 'API_KEY="k-1"\nexport OTHER=two\n',
    });
    const [extension] = loadExtensions(userDir, dirs.root).active;
    const server = extension?.contributions.mcpServers.srv;
    expect(server).toEqual({
      command: 'node',
      args: [`${folder}${path.sep}s.js`, path.sep, '${unknown}'],
      cwd: dirs.root,
      env: { API_KEY: 'k-1', OTHER: 'two', OWN: 'x' },
    });
    // The default context file of a Gemini CLI extension, only when it exists.
    expect(extension?.contributions.contextFiles).toEqual([]);
    write(path.join(folder, 'GEMINI.md'), 'context');
    expect(loadExtensions(userDir, dirs.root).active[0]?.contributions.contextFiles).toEqual([
      path.join(folder, 'GEMINI.md'),
    ]);
  });

  it("reads a Claude Code plugin's .mcp.json (type http) and hooks.json with ${CLAUDE_PLUGIN_ROOT}", () => {
    const folder = installed('plug', {
      '.claude-plugin/plugin.json': { name: 'plug' },
      '.mcp.json': { mcpServers: { web: { type: 'http', url: 'https://example.test/mcp' } } },
      'hooks/hooks.json': {
        hooks: {
          PostToolUse: [
            {
              matcher: 'Write',
              hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/fmt.sh' }],
            },
            { hooks: [{ type: 'prompt', prompt: 'not run' }] },
          ],
          Unheard: [{ hooks: [{ type: 'command', command: 'x' }] }],
        },
      },
    });
    const loaded = loadExtensions(userDir, dirs.root);
    const contributions = loaded.active[0]?.contributions;
    expect(contributions?.mcpServers.web).toEqual({
      httpUrl: 'https://example.test/mcp',
      env: { CLAUDE_PLUGIN_ROOT: folder },
    });
    expect(contributions?.hooks).toEqual({
      PostToolUse: [
        {
          matcher: 'Write',
          hooks: [{ type: 'command', command: `${folder}/fmt.sh`, name: 'plug (extension)' }],
        },
      ],
    });
    expect(loaded.warnings.join('\n')).toContain('hook event "Unheard" is not one toolhost runs');
  });

  it('sits below the settings files: hooks add up, exclusions add up, a settings server wins', () => {
    installed('gem', {
      'gemini-extension.json': {
        name: 'gem',
        mcpServers: { shared: { command: 'ext' }, own: { command: 'ext-own' } },
        excludeTools: ['glob'],
      },
      'hooks/hooks.json': {
        hooks: { Stop: [{ hooks: [{ type: 'command', command: 'ext-stop' }] }] },
      },
    });
    write(path.join(userDir, 'settings.json'), {
      mcpServers: { shared: { command: 'mine' } },
      tools: { exclude: ['grep_search'] },
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'my-stop' }] }] },
    });
    const settings = loadSettings({ workspaceRoot: dirs.root, homeDir: dirs.home, env: {} });
    expect(settings.merged.mcpServers).toEqual({
      shared: { command: 'mine' },
      own: { command: 'ext-own' },
    });
    expect(settings.merged.tools?.exclude?.sort()).toEqual(['glob', 'grep_search']);
    expect(
      settings.merged.hooks?.Stop?.flatMap((group) => group.hooks.map((hook) => hook.command)),
    ).toEqual(['ext-stop', 'my-stop']);
    expect(settings.warnings.map((warning) => warning.message).join('\n')).toContain(
      'MCP server "shared" of extension "gem" is not used: your settings define a server of that name',
    );
  });

  it('is on unless turned off; the nearest workspace choice wins over the person-wide one', async () => {
    installed('gem', {
      'qwen-extension.json': { name: 'gem', mcpServers: { s: { command: 'x' } } },
    });
    const inner = path.join(dirs.root, 'sub');
    mkdirSync(inner);
    const on = (folder: string) => loadExtensions(userDir, folder).active.length === 1;
    expect(on(dirs.root)).toBe(true);
    await setEnablement(userDir, 'gem', false, 'user', dirs.root);
    expect(on(dirs.root)).toBe(false);
    await setEnablement(userDir, 'gem', true, 'workspace', dirs.root);
    expect(on(dirs.root)).toBe(true);
    expect(on(inner)).toBe(true);
    await setEnablement(userDir, 'gem', false, 'workspace', inner);
    expect(on(inner)).toBe(false);
    expect(on(dirs.base)).toBe(false);
    // Off: nothing of it reaches the settings.
    expect(
      loadSettings({ workspaceRoot: inner, homeDir: dirs.home, env: {} }).merged.mcpServers,
    ).toBeUndefined();
  });

  it('names an extension that cannot be used, and skips folder names that are not extensions', () => {
    installed('broken', { 'gemini-extension.json': '{ not json' });
    installed('.hidden', { 'gemini-extension.json': { name: 'hidden' } });
    const loaded = loadExtensions(userDir, dirs.root);
    expect(loaded.all.map((extension) => extension.name)).toEqual(['broken']);
    expect(loaded.warnings.join('\n')).toMatch(
      /extension "broken" cannot be used: .*is not valid JSON/,
    );
  });
});
