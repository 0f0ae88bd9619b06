import { describe, expect, it } from 'vitest';
import type { Settings } from '../contract/settings-types.js';
import { cutUntrustedProject, untrustedProjectMessage } from './untrusted-project.js';

/** What stays of `project` next to `person`, and the keys dropped. */
function cut(project: Record<string, unknown>, person: Settings = {}) {
  const layer = structuredClone(project);
  const dropped = cutUntrustedProject(layer, person);
  return { kept: layer, dropped: dropped.map((setting) => `${setting.key}: ${setting.effect}`) };
}

describe('cutUntrustedProject', () => {
  it.each([
    [{ tools: { approvalMode: 'yolo' } }, 'tools.approvalMode: approvals'],
    [{ tools: { approvalMode: 'auto-edit' } }, 'tools.approvalMode: approvals'],
    [{ approvalMode: 'yolo' }, 'approvalMode: approvals'],
    [{ tools: { allowed: ['run_shell_command'] } }, 'tools.allowed: approvals'],
    [{ allowedTools: ['write_file'] }, 'allowedTools: approvals'],
    [{ tools: { core: ['read_file'] } }, undefined],
    [{ permissions: { allow: ['Bash(git diff:*)'] } }, 'permissions.allow: approvals'],
    [{ permissions: { allow: ['Edit'] } }, 'permissions.allow: approvals'],
    [{ permissions: { deny: ['Bash(rm:*)', 'Read(./secrets/**)'] } }, undefined],
    [{ permissions: { ask: ['Bash(git push:*)'] } }, undefined],
    [{ tools: { core: ['run_shell_command(touch)'] } }, 'tools.core: approvals'],
    [{ coreTools: ['read_file', 'run_shell_command(rm -rf)'] }, 'coreTools: approvals'],
    [{ tools: { shell: { sandbox: 'off' } } }, 'tools.shell.sandbox: sandbox'],
    [{ tools: { shell: { allowEnv: ['DEPLOY_API_KEY'] } } }, 'tools.shell.allowEnv: environment'],
    [
      { tools: { shell: { keepBackgroundProcesses: true } } },
      'tools.shell.keepBackgroundProcesses: programs',
    ],
    [
      { tools: { webFetch: { allowedHosts: ['127.0.0.1'] } } },
      'tools.webFetch.allowedHosts: hosts',
    ],
    [{ webSearch: { baseUrl: 'http://127.0.0.1:9' } }, 'webSearch.baseUrl: endpoints'],
    [{ webSearch: { provider: 'tavily' } }, 'webSearch.provider: endpoints'],
    [{ model: { baseUrl: 'http://127.0.0.1:9/v1' } }, 'model.baseUrl: endpoints'],
    [{ model: { apiKey: 'theirs' } }, 'model.apiKey: endpoints'],
    [{ context: { fileName: 'NOTES.md' } }, 'context.fileName: prompt files'],
    [{ contextFileName: ['AGENTS.md', 'secret.txt'] }, 'contextFileName: prompt files'],
    [{ general: { preferredEditor: 'evil' } }, 'general.preferredEditor: programs'],
    [{ mcpServers: { s: { command: 'x' } } }, 'mcpServers: programs'],
    [{ mcp: { allowed: ['s'] } }, undefined],
    [{ security: { folderTrust: { enabled: false } } }, 'security.folderTrust.enabled: trust'],
    [{ model: { name: '$OPENAI_API_KEY' } }, 'model.name: environment'],
    [{ tools: { exclude: ['{$SECRET}'] } }, 'tools.exclude: environment'],
  ])('drops what loosens toolhost next to default settings: %j', (project, expected) => {
    const { dropped } = cut(project);
    expect(dropped).toEqual(expected ? [expected] : []);
  });

  it('keeps what is stricter than, or the same as, the defaults', () => {
    const project = {
      $schema: 'x',
      general: { checkpointing: { enabled: false, maxFileSize: 4096 } },
      checkpointing: { onFailure: 'continue' },
      tools: {
        approvalMode: 'plan',
        exclude: ['run_shell_command'],
        core: ['read_file'],
        truncateOutputThreshold: 10,
        shell: { sandbox: 'on', network: 'deny', keepBackgroundProcesses: false, allowEnv: [] },
        webFetch: { allowedHosts: [] },
      },
      context: { fileName: 'AGENTS.md' },
      model: { name: 'qwen3', contextWindow: 8000, timeout: 5, maxRetries: 1 },
      files: { legacyEncoding: 'gbk' },
      security: { folderTrust: { enabled: true } },
    };
    expect(cut(project)).toEqual({ kept: project, dropped: [] });
    expect(
      cut({ tools: { approvalMode: 'default', shell: { network: 'allow' } } }).dropped,
    ).toEqual([]);
  });

  it("judges against the person's own settings: no looser than theirs stays", () => {
    const person: Settings = {
      tools: {
        approvalMode: 'yolo',
        allowed: ['run_shell_command(git)', 'write_file'],
        core: ['read_file', 'grep_search'],
        shell: { sandbox: 'off' },
      },
      model: { baseUrl: 'https://mine.example/v1' },
      context: { fileName: ['AGENTS.md', 'QWEN.md'] },
    };
    expect(
      cut(
        {
          tools: {
            approvalMode: 'auto-edit',
            allowed: ['write_file'],
            core: ['read_file'],
            shell: { sandbox: 'auto' },
          },
          model: { baseUrl: 'https://mine.example/v1' },
          context: { fileName: 'QWEN.md' },
        },
        person,
      ).dropped,
    ).toEqual([]);
    expect(
      cut(
        {
          tools: { allowed: ['run_shell_command'], core: ['read_file', 'run_shell_command'] },
          model: { baseUrl: 'https://theirs.example/v1' },
        },
        person,
      ).dropped,
    ).toEqual(['tools.allowed: approvals', 'tools.core: approvals', 'model.baseUrl: endpoints']);
    // The person on "on": the project's "auto" would loosen it.
    expect(
      cut({ tools: { shell: { sandbox: 'auto' } } }, { tools: { shell: { sandbox: 'on' } } })
        .dropped,
    ).toEqual(['tools.shell.sandbox: sandbox']);
  });

  it('drops a key it does not know (fail closed) and leaves no empty groups behind', () => {
    const { kept, dropped } = cut({ tools: { futureKey: true, shell: { sandbox: 'off' } } });
    expect(dropped).toEqual(['tools.futureKey: unclassified', 'tools.shell.sandbox: sandbox']);
    expect(kept).toEqual({});
  });

  it('says in one message what the keys would have done and how to trust the folder', () => {
    expect(
      untrustedProjectMessage('/work/repo', [
        { key: 'approvalMode', effect: 'approvals' },
        { key: 'tools.shell.sandbox', effect: 'sandbox' },
        { key: 'tools.allowed', effect: 'approvals' },
      ]),
    ).toBe(
      `ignored, because /work/repo is not a trusted folder: until you trust it, a project's settings may only make toolhost stricter, and these would have let calls run without asking (approvalMode, tools.allowed); weakened the sandbox (tools.shell.sandbox). If you trust this project, run "toolhost trust" in it.`,
    );
  });
});
