import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from '../../test/helpers/temp-workspace.js';
import { Config } from '../config/config.js';
import { loadMemory } from './load-memory.js';

let dirs: TempDirs;
let secret: string;

function write(file: string, text: string) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

beforeEach(() => {
  dirs = makeTempDirs();
  secret = write(path.join(dirs.base, 'outside', 'secret.txt'), 'OUTSIDE-SECRET');
});
afterEach(() => dirs.cleanup());

const load = (cwd = dirs.root) =>
  loadMemory(
    Config.load({
      root: dirs.root,
      homeDir: dirs.home,
      env: {},
      systemSettingsPath: path.join(dirs.base, 'none.json'),
    }).config,
    { cwd },
  );

describe('loadMemory', () => {
  it("leaves out a project's AGENTS.md that is a link leading outside the workspace", () => {
    symlinkSync(secret, path.join(dirs.root, 'AGENTS.md'));
    const memory = load();
    expect(memory.text).not.toContain('OUTSIDE-SECRET');
    expect(memory.outside).toEqual([path.join(dirs.root, 'AGENTS.md')]);
  });

  it('leaves out memory below a folder that is a link leading out', () => {
    symlinkSync(path.dirname(secret), path.join(dirs.root, 'docs'));
    write(path.join(dirs.base, 'outside', 'AGENTS.md'), 'OUTSIDE-MEMORY');
    const memory = load(path.join(dirs.root, 'docs'));
    expect(memory.text).not.toContain('OUTSIDE-MEMORY');
    expect(memory.outside).toEqual([path.join(dirs.root, 'docs', 'AGENTS.md')]);
  });

  it("reads a link that stays inside the workspace, and the person's own memory file", () => {
    write(path.join(dirs.root, 'docs', 'memory.md'), 'PROJECT-MEMORY');
    symlinkSync(path.join('docs', 'memory.md'), path.join(dirs.root, 'AGENTS.md'));
    write(path.join(dirs.home, '.toolhost', 'AGENTS.md'), 'PERSON-MEMORY');
    const memory = load();
    expect(memory.text).toContain('PROJECT-MEMORY');
    expect(memory.text).toContain('PERSON-MEMORY');
    expect(memory.outside).toEqual([]);
  });

  it('reads context.fileName entries as names only: a path in settings reads nothing', () => {
    write(
      path.join(dirs.home, '.toolhost', 'settings.json'),
      JSON.stringify({
        context: { fileName: ['../outside/secret.txt', 'mcp-oauth/srv.json', 'NOTES.md'] },
      }),
    );
    write(path.join(dirs.home, '.toolhost', 'mcp-oauth', 'srv.json'), 'OAUTH-TOKEN');
    write(path.join(dirs.root, 'NOTES.md'), 'NOTES');
    const memory = load();
    expect(memory.text).toContain('NOTES');
    expect(memory.text).not.toContain('OUTSIDE-SECRET');
    expect(memory.text).not.toContain('OAUTH-TOKEN');
  });

  it('falls back to AGENTS.md and QWEN.md when every configured name is a path', () => {
    const config = new Config({
      roots: [dirs.root],
      homeDir: dirs.home,
      settings: { context: { fileName: ['../outside/secret.txt'] } },
    });
    expect(config.getContextFileNames()).toEqual(['AGENTS.md', 'QWEN.md']);
    expect(loadMemory(config, { cwd: dirs.root }).text).not.toContain('OUTSIDE-SECRET');
  });

  it("reads QWEN.md beside AGENTS.md by default, and Qwen Code's ~/.qwen/QWEN.md below ~/.toolhost's", () => {
    write(path.join(dirs.home, '.qwen', 'QWEN.md'), 'QWEN-GLOBAL');
    write(path.join(dirs.home, '.toolhost', 'AGENTS.md'), 'TOOLHOST-GLOBAL');
    write(path.join(dirs.root, 'AGENTS.md'), 'PROJECT-AGENTS');
    write(path.join(dirs.root, 'QWEN.md'), 'PROJECT-QWEN');
    write(path.join(dirs.root, 'src', 'QWEN.md'), 'SRC-QWEN');
    const memory = load(path.join(dirs.root, 'src'));
    expect(memory.files).toEqual([
      path.join(dirs.home, '.qwen', 'QWEN.md'),
      path.join(dirs.home, '.toolhost', 'AGENTS.md'),
      path.join(dirs.root, 'AGENTS.md'),
      path.join(dirs.root, 'QWEN.md'),
      path.join(dirs.root, 'src', 'QWEN.md'),
    ]);
  });

  it('context.includeDirectories adds workspace roots; loadFromIncludeDirectories reads their memory', () => {
    const shared = path.join(dirs.base, 'shared');
    write(path.join(shared, 'QWEN.md'), 'SHARED-MEMORY');
    const settingsFile = path.join(dirs.root, '.qwen', 'settings.json');
    const settings = (load: boolean) =>
      write(
        settingsFile,
        JSON.stringify({
          context: { includeDirectories: [shared, 'missing'], loadFromIncludeDirectories: load },
        }),
      );
    const open = () =>
      Config.load({
        root: dirs.root,
        homeDir: dirs.home,
        env: {},
        systemSettingsPath: path.join(dirs.base, 'none.json'),
      });
    settings(false);
    // The person trusts the project: its settings apply in full.
    write(
      path.join(dirs.home, '.toolhost', 'trustedFolders.json'),
      JSON.stringify({ [dirs.root]: 'TRUST_FOLDER' }),
    );
    const first = open();
    expect(first.config.workspace.roots).toEqual([dirs.root, shared]);
    expect(first.settings.warnings).toEqual([
      {
        source: settingsFile,
        key: 'context.includeDirectories',
        message: `"missing" is not a folder (${path.join(dirs.root, 'missing')}); it was left out of the workspace.`,
      },
    ]);
    expect(loadMemory(first.config, { cwd: dirs.root }).text).not.toContain('SHARED-MEMORY');
    settings(true);
    expect(loadMemory(open().config, { cwd: dirs.root }).text).toContain('SHARED-MEMORY');
  });

  it('brings in @path imports of a project QWEN.md, never from outside the workspace', () => {
    write(path.join(dirs.root, 'README.md'), 'README-TEXT');
    write(path.join(dirs.root, 'docs', 'style.md'), 'STYLE-TEXT, and back to @../QWEN.md');
    write(path.join(dirs.root, 'code.md'), 'CODE-TEXT');
    write(
      path.join(dirs.root, 'QWEN.md'),
      [
        'See @README.md for the overview.',
        '- Style: @docs/style.md',
        'Mail me@example.com, not `@code.md`.',
        '```',
        '@code.md',
        '```',
        `Secret: @../outside/secret.txt and @${secret}`,
      ].join('\n'),
    );
    const memory = load();
    expect(memory.text).toContain('README-TEXT');
    expect(memory.text).toContain('STYLE-TEXT, and back to @../QWEN.md');
    expect(memory.text).not.toContain('CODE-TEXT');
    expect(memory.text).toContain('me@example.com');
    expect(memory.text).not.toContain('OUTSIDE-SECRET');
    expect(memory.outside).toEqual([secret]);
  });

  it("lets the person's own memory file import their own files", () => {
    write(path.join(dirs.home, '.qwen', 'prefs.md'), 'PERSON-PREFS');
    write(path.join(dirs.home, '.qwen', 'QWEN.md'), 'My preferences: @prefs.md');
    expect(load().text).toContain('PERSON-PREFS');
  });
});
