/**
 * Qwen Code's settings files read as a Qwen Code user has them (~/.qwen/settings.json and
 * <project>/.qwen/settings.json, real files): layered below toolhost's own, its names
 * mapped, its unsupported keys named once per file, and its project file cut like
 * toolhost's in a folder the person has not trusted.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from '../../test/helpers/temp-workspace.js';
import { formatSettingsWarning, loadSettings } from './settings.js';

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs({ rootName: 'project' });
});
afterEach(() => dirs.cleanup());

function write(file: string, value: unknown) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
  return file;
}
const qwenUser = (value: unknown) => write(path.join(dirs.home, '.qwen', 'settings.json'), value);
const qwenProject = (value: unknown) =>
  write(path.join(dirs.root, '.qwen', 'settings.json'), value);
const ownUser = (value: unknown) =>
  write(path.join(dirs.home, '.toolhost', 'settings.json'), value);
const ownProject = (value: unknown) =>
  write(path.join(dirs.root, '.toolhost', 'settings.json'), value);
const load = (projectTrusted = true) =>
  loadSettings({
    workspaceRoot: dirs.root,
    homeDir: dirs.home,
    systemSettingsPath: path.join(dirs.base, 'no-system.json'),
    env: {},
    projectTrusted,
  });

describe("Qwen Code's settings files", () => {
  it("maps Qwen Code's names onto toolhost's, silently", () => {
    qwenUser({
      $version: 3,
      tools: {
        shell: { defaultTimeoutMs: 300_000 },
        truncateToolOutputThreshold: 40_000,
        truncateToolOutputLines: 500,
        toolSearch: { enabled: false },
      },
      general: { defaultFileEncoding: 'utf-8-bom' },
      model: { name: 'qwen3-coder-plus', generationConfig: { timeout: 90_000, maxRetries: 2 } },
      security: { auth: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-qwen' } },
      context: { fileFiltering: { respectGitIgnore: false }, includeDirectories: [] },
    });
    const loaded = load();
    expect(loaded.warnings).toEqual([]);
    expect(loaded.merged).toEqual({
      tools: {
        shell: { defaultTimeout: 300_000 },
        truncateOutputThreshold: 40_000,
        truncateOutputLines: 500,
        deferLoading: false,
      },
      files: { defaultEncoding: 'utf-8-bom' },
      model: {
        name: 'qwen3-coder-plus',
        timeout: 90_000,
        maxRetries: 2,
        baseUrl: 'http://127.0.0.1:9/v1',
        apiKey: 'sk-qwen',
      },
      context: { fileFiltering: { respectGitIgnore: false }, includeDirectories: [] },
    });
    expect(loaded.files.map((file) => [file.scope, file.origin, file.exists])).toEqual([
      ['user', 'qwen', true],
      ['user', 'toolhost', false],
      ['project', 'qwen', false],
      ['project', 'toolhost', false],
      ['system', 'toolhost', false],
    ]);
  });

  it("reads each Qwen Code file just below toolhost's file of the same scope", () => {
    qwenUser({ model: { name: 'qwen-user', maxSessionTurns: 5 }, tools: { approvalMode: 'plan' } });
    ownUser({ model: { name: 'toolhost-user' } });
    qwenProject({ model: { maxSessionTurns: 7 }, tools: { approvalMode: 'auto-edit' } });
    ownProject({ tools: { approvalMode: 'default' } });
    const { merged } = load();
    expect(merged.model).toEqual({ name: 'toolhost-user', maxSessionTurns: 7 });
    expect(merged.tools?.approvalMode).toBe('default');
  });

  it('names the Qwen Code keys toolhost does not support in one warning per file', () => {
    const file = qwenUser({
      ui: { theme: 'GitHub Light', showLineNumbers: true },
      general: { vimMode: true, preferredEditor: 'vim' },
      tools: { sandbox: 'docker', shell: { showColor: true } },
      mcpServers: { fake: { command: 'node', type: 'stdio' } },
      context: { fileFiltering: { enableFuzzySearch: false } },
    });
    const loaded = load();
    expect(loaded.warnings.map(formatSettingsWarning)).toEqual([
      `${file}: ui.showLineNumbers, tools.sandbox, tools.shell.showColor, mcpServers.fake.type, context.fileFiltering.enableFuzzySearch: are Qwen Code settings toolhost does not support, so they have no effect here (the README's "Qwen Code compatibility" section lists what maps and what differs).`,
    ]);
    // vimMode and the theme are toolhost's too (a Qwen Code theme as its background).
    expect(loaded.merged).toEqual({
      general: { vimMode: true, preferredEditor: 'vim' },
      ui: { theme: 'light' },
      mcpServers: { fake: { command: 'node' } },
    });
  });

  it("names a Qwen Code key as written when its value is wrong, or when toolhost's name is set too", () => {
    const file = qwenUser({
      tools: {
        shell: { defaultTimeoutMs: 0, defaultTimeout: 5000 },
        truncateToolOutputThreshold: -1,
      },
    });
    const warnings = load().warnings.map(formatSettingsWarning);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toBe(
      `${file}: tools.shell.defaultTimeoutMs: is Qwen Code's name of tools.shell.defaultTimeout, which is also set; tools.shell.defaultTimeout was used.`,
    );
    expect(warnings[1]).toMatch(
      new RegExp(
        `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: tools.truncateToolOutputThreshold: must be >= 1000`,
      ),
    );
  });

  it("cuts an untrusted project's .qwen/settings.json like toolhost's own, naming the keys as written", () => {
    const file = qwenProject({
      tools: { approvalMode: 'yolo', shell: { defaultTimeoutMs: 200_000 } },
      security: { auth: { baseUrl: 'http://127.0.0.1:9/v1' } },
      context: { includeDirectories: ['/etc'], loadFromIncludeDirectories: true },
    });
    const loaded = load(false);
    expect(loaded.merged).toEqual({ tools: { shell: { defaultTimeout: 200_000 } } });
    expect(loaded.untrustedProject).toEqual({
      file,
      keys: [
        'tools.approvalMode',
        'context.includeDirectories',
        'context.loadFromIncludeDirectories',
        'security.auth.baseUrl',
      ],
    });
    const warning = loaded.warnings.map(formatSettingsWarning).join('\n');
    expect(warning).toContain(`${file}: tools.approvalMode, `);
    expect(warning).toContain('given the tools folders outside the project');
    expect(warning).toContain(
      'sent requests, and your keys, to other endpoints (security.auth.baseUrl)',
    );
    expect(load(true).merged.tools?.approvalMode).toBe('yolo');
  });
});
