import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from '../../test/helpers/temp-workspace.js';
import { formatSettingsWarning, loadSettings } from './settings.js';

let dirs: TempDirs;
let home: string;
let project: string;
let systemFile: string;

function write(file: string, text: string) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}
const userFile = () => path.join(home, '.toolhost', 'settings.json');
const projectFile = () => path.join(project, '.toolhost', 'settings.json');
const load = (env: NodeJS.ProcessEnv = {}, overrides = {}, projectTrusted = true) =>
  loadSettings({
    workspaceRoot: project,
    homeDir: home,
    systemSettingsPath: systemFile,
    env,
    overrides,
    projectTrusted,
  });

beforeEach(() => {
  dirs = makeTempDirs({ rootName: 'project' });
  ({ home, root: project } = dirs);
  systemFile = path.join(dirs.base, 'etc', 'settings.json');
});
afterEach(() => dirs.cleanup());

describe('loadSettings', () => {
  it('returns empty settings and no warnings when no file exists', () => {
    const loaded = load();
    expect(loaded.merged).toEqual({});
    expect(loaded.warnings).toEqual([]);
    expect(loaded.files.map((f) => f.exists)).toEqual([false, false, false, false, false]);
  });

  it('layers user < project < system < environment < flags', () => {
    write(
      userFile(),
      JSON.stringify({
        tools: { approvalMode: 'plan', allowed: ['a'] },
        general: { preferredEditor: 'vim' },
      }),
    );
    write(projectFile(), JSON.stringify({ tools: { approvalMode: 'auto-edit', allowed: ['b'] } }));
    expect(load().merged).toEqual({
      tools: { approvalMode: 'auto-edit', allowed: ['b'] },
      general: { preferredEditor: 'vim' },
    });
    write(systemFile, JSON.stringify({ tools: { approvalMode: 'default' } }));
    expect(load().merged.tools?.approvalMode).toBe('default');
    expect(load({ TOOLHOST_APPROVAL_MODE: 'yolo' }).merged.tools?.approvalMode).toBe('yolo');
    const withFlag = load({ TOOLHOST_APPROVAL_MODE: 'yolo' }, { tools: { approvalMode: 'plan' } });
    expect(withFlag.merged.tools?.approvalMode).toBe('plan');
  });

  it('adds up exclusions across layers instead of replacing them', () => {
    write(userFile(), JSON.stringify({ tools: { exclude: ['run_shell_command'] } }));
    write(projectFile(), JSON.stringify({ tools: { exclude: ['web_fetch'] } }));
    expect(load().merged.tools?.exclude).toEqual(['run_shell_command', 'web_fetch']);
  });

  it('reads the system file from TOOLHOST_SYSTEM_SETTINGS_PATH', () => {
    const other = path.join(path.dirname(systemFile), 'other.json');
    write(other, JSON.stringify({ tools: { core: ['read_file'] } }));
    const loaded = loadSettings({
      workspaceRoot: project,
      homeDir: home,
      env: { TOOLHOST_SYSTEM_SETTINGS_PATH: other },
    });
    expect(loaded.merged.tools?.core).toEqual(['read_file']);
  });

  it('accepts the flat older names', () => {
    write(
      projectFile(),
      JSON.stringify({
        coreTools: ['read_file'],
        allowedTools: ['ls'],
        excludeTools: ['edit'],
        toolDiscoveryCommand: 'discover',
        toolCallCommand: 'call',
        mcpServerCommand: 'srv',
        contextFileName: ['QWEN.md', 'AGENTS.md'],
      }),
    );
    const { merged, warnings } = load();
    expect(warnings).toEqual([]);
    expect(merged.tools).toEqual({
      core: ['read_file'],
      allowed: ['ls'],
      exclude: ['edit'],
      discoveryCommand: 'discover',
      callCommand: 'call',
    });
    expect(merged.mcp?.serverCommand).toBe('srv');
    expect(merged.context?.fileName).toEqual(['QWEN.md', 'AGENTS.md']);
  });

  it('prefers the nested key when both forms are in one file, and says so', () => {
    write(projectFile(), JSON.stringify({ coreTools: ['a'], tools: { core: ['b'] } }));
    const { merged, warnings } = load();
    expect(merged.tools?.core).toEqual(['b']);
    expect(warnings[0]?.key).toBe('coreTools');
  });

  // biome-ignore lint/suspicious/noTemplateCurlyInString: the test name quotes the settings syntax.
  it('expands $VAR and ${VAR} from the environment', () => {
    write(
      projectFile(),
      JSON.stringify({
        mcpServers: {
          s: {
            command: 'srv',
            env: { TOKEN: '$MY_TOKEN' },
            // biome-ignore lint/suspicious/noTemplateCurlyInString: ${VAR} is the settings syntax under test.
            headers: { Authorization: 'Bearer ${MY_TOKEN}' },
          },
        },
      }),
    );
    const { merged } = load({ MY_TOKEN: 'abc' });
    expect(merged.mcpServers?.s?.env).toEqual({ TOKEN: 'abc' });
    expect(merged.mcpServers?.s?.headers).toEqual({ Authorization: 'Bearer abc' });
  });

  it('warns about a variable that is not set and keeps the text', () => {
    write(projectFile(), JSON.stringify({ model: { apiKey: '$NOPE' } }));
    const { merged, warnings } = load();
    expect(merged.model?.apiKey).toBe('$NOPE');
    expect(formatSettingsWarning(warnings[0]!)).toBe(
      `${projectFile()}: model.apiKey: refers to $NOPE, which is not set in the environment; it was left as written.`,
    );
  });

  it('allows comments and trailing commas', () => {
    write(
      projectFile(),
      '{\n  // why: keep it safe\n  "tools": { "exclude": ["edit",], /* block */ },\n}\n',
    );
    const { merged, warnings } = load();
    expect(warnings).toEqual([]);
    expect(merged.tools?.exclude).toEqual(['edit']);
  });

  it('warns about an unknown key with the file, the key and a suggestion, and keeps the rest', () => {
    write(projectFile(), JSON.stringify({ tools: { alowed: ['x'], exclude: ['y'] } }));
    const { merged, warnings } = load();
    expect(merged.tools).toEqual({ exclude: ['y'] });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ source: projectFile(), key: 'tools.alowed' });
    expect(warnings[0]?.message).toContain('Did you mean "allowed"?');
  });

  it('warns about an unknown key inside an MCP server entry', () => {
    write(projectFile(), JSON.stringify({ mcpServers: { fs: { comand: 'x' } } }));
    const { warnings } = load();
    expect(warnings[0]?.key).toBe('mcpServers.fs.comand');
    expect(warnings[0]?.message).toContain('"command"');
  });

  it('warns about an ill-typed key and drops only that key', () => {
    write(
      userFile(),
      JSON.stringify({ tools: { allowed: 'read_file', approvalMode: 'sometimes', core: ['ls'] } }),
    );
    const { merged, warnings } = load();
    expect(merged.tools).toEqual({ core: ['ls'] });
    const byKey = Object.fromEntries(warnings.map((w) => [w.key, w.message]));
    expect(byKey['tools.allowed']).toMatch(/must be array/);
    expect(byKey['tools.approvalMode']).toMatch(
      /must be one of "plan", "default", "auto-edit", "yolo"/,
    );
    expect(warnings.every((w) => w.source === userFile())).toBe(true);
  });

  it('reports invalid JSON with its position and ignores that file only', () => {
    write(userFile(), JSON.stringify({ tools: { core: ['read_file'] } }));
    write(projectFile(), '{\n  "tools": { "core": [ }\n}');
    const { merged, warnings } = load();
    expect(merged.tools?.core).toEqual(['read_file']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.source).toBe(projectFile());
    expect(warnings[0]?.message).toMatch(/not valid JSON \(\w+ at line 2, column \d+\)/);
  });

  it('rejects a file that is not an object', () => {
    write(projectFile(), '[1, 2]');
    expect(load().warnings[0]?.message).toMatch(/must contain a JSON object/);
  });

  it('takes the model endpoint from the OPENAI_ variables', () => {
    const { merged } = load({
      OPENAI_BASE_URL: 'http://127.0.0.1:1/v1',
      OPENAI_API_KEY: 'k',
      OPENAI_MODEL: 'qwen',
    });
    expect(merged.model).toEqual({
      baseUrl: 'http://127.0.0.1:1/v1',
      apiKey: 'k',
      name: 'qwen',
      provider: 'openai',
    });
  });

  it('warns about an unknown approval mode in the environment', () => {
    const { merged, warnings } = load({ TOOLHOST_APPROVAL_MODE: 'always' });
    expect(merged.tools?.approvalMode).toBeUndefined();
    expect(warnings[0]).toMatchObject({ source: 'environment', key: 'TOOLHOST_APPROVAL_MODE' });
  });

  it('validates flags like any other layer', () => {
    const { warnings } = load({}, { tools: { approvalMode: 'never' } });
    expect(warnings[0]).toMatchObject({ source: 'command line', key: 'tools.approvalMode' });
  });

  it('reads one file once when the project is the home folder', () => {
    project = home;
    write(userFile(), JSON.stringify({ tools: { exclude: ['a'] } }));
    const { files, merged } = load();
    expect(files.filter((f) => f.exists)).toHaveLength(1);
    expect(merged.tools?.exclude).toEqual(['a']);
  });

  it("leaves out a project file's loosening settings in an untrusted folder, in one warning that names the file, the keys and toolhost trust", () => {
    write(
      projectFile(),
      JSON.stringify({
        mcpServers: { s: { command: 'srv' } },
        tools: { discoveryCommand: 'd', callCommand: 'c', allowed: ['x'], exclude: ['y'] },
        mcp: { serverCommand: 'm' },
      }),
    );
    const { merged, warnings, untrustedProject } = load({}, {}, false);
    expect(merged).toEqual({ tools: { exclude: ['y'] } });
    const keys = ['mcpServers', 'tools.discoveryCommand', 'tools.callCommand', 'tools.allowed'];
    expect(untrustedProject).toEqual({ file: projectFile(), keys: [...keys, 'mcp.serverCommand'] });
    expect(warnings).toHaveLength(1);
    expect(formatSettingsWarning(warnings[0]!)).toBe(
      `${projectFile()}: ${untrustedProject!.keys.join(', ')}: ignored, because ${project} is not a trusted folder: until you trust it, a project's settings may only make toolhost stricter, and these would have started programs (mcpServers, tools.discoveryCommand, tools.callCommand, mcp.serverCommand); let calls run without asking (tools.allowed). If you trust this project, run "toolhost trust" in it.`,
    );
    // Trusted, the same file applies in full.
    expect(load({}, {}, true).merged.tools?.allowed).toEqual(['x']);
  });

  it("keeps the person's own MCP servers in an untrusted folder", () => {
    write(userFile(), JSON.stringify({ mcpServers: { mine: { command: 'srv' } } }));
    expect(load({}, {}, false).merged.mcpServers).toEqual({ mine: { command: 'srv' } });
  });

  it('lets the user or system settings turn folder trust off, but not the project', () => {
    write(
      projectFile(),
      JSON.stringify({
        mcpServers: { s: { command: 'srv' } },
        security: { folderTrust: { enabled: false } },
      }),
    );
    expect(load({}, {}, false).merged.mcpServers).toBeUndefined();
    write(userFile(), JSON.stringify({ security: { folderTrust: { enabled: false } } }));
    expect(load({}, {}, false).merged.mcpServers).toEqual({ s: { command: 'srv' } });
  });
});
