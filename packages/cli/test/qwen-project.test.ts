/**
 * A project set up for Qwen Code 0.24 (fixtures/qwen-project: .qwen/settings.json,
 * QWEN.md, .qwen/agents/writer.md) run headless with the scripted model: its memory
 * reaches the prompt, its settings' unsupported keys are named once, its subagent file's
 * fields apply, and that file's `approvalMode: yolo` lets the subagent write unasked only
 * once the folder is trusted.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EVERYTHING } from '../../core/test/helpers/mcp-servers.js';
import { startModelServer } from '../../core/test/helpers/model-server.js';
import { modelProject } from './helpers/model-project.js';
import { runCli, runCliAsync } from './run-cli.js';

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/qwen-project');

let root: string;
let home: string;
const project = modelProject((dirs) => {
  ({ root, home } = dirs);
  cpSync(FIXTURE, root, { recursive: true });
});

/** The main agent hands the writing to the writer subagent, which writes the canary. */
async function delegateTheWrite(canary: string) {
  project.server = await startModelServer([
    {
      toolCalls: [
        {
          id: 'call_task',
          name: 'task',
          args: { description: 'write it', prompt: 'write the file', subagent_type: 'writer' },
        },
      ],
    },
    { toolCalls: [{ name: 'write_file', args: { file_path: canary, content: 'written\n' } }] },
    { text: 'Done writing.' },
    { text: 'The writer is done.' },
  ]);
  return runCliAsync(['-p', 'write the canary'], {
    cwd: root,
    home,
    env: {
      OPENAI_BASE_URL: project.server.baseUrl,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_MODEL: 'scripted-model',
    },
  });
}

describe('a Qwen Code project under toolhost -p', { timeout: 180_000 }, () => {
  it('untrusted: QWEN.md is read, the settings and agent file problems named, and approvalMode: yolo does not loosen', async () => {
    const canary = path.join(root, 'canary.txt');
    const result = await delegateTheWrite(canary);
    expect(result.code).toBe(0);
    // The subagent's write needed a yes nobody could give: the file's yolo did not apply.
    expect(existsSync(canary)).toBe(false);
    expect(result.stderr).toContain(
      "asks for approval mode yolo, which a project's file may not give before you trust the folder",
    );
    const systemPrompt = String(project.server!.requests[0]!.body.messages[0]!.content);
    expect(systemPrompt).toContain('QWEN-MEMORY');
    const settingsFile = path.join(root, '.qwen', 'settings.json');
    const unsupported = result.stderr
      .split('\n')
      .filter((line) => line.includes(settingsFile) && line.includes('Qwen Code setting'));
    expect(unsupported).toHaveLength(1);
    expect(unsupported[0]).toContain('context.fileFiltering.enableFuzzySearch');
    // vimMode and the theme ("GitHub": a dark one) are toolhost's settings too.
    expect(unsupported[0]).not.toMatch(/\bui\b|vimMode/);
    expect(result.stderr).not.toContain('ui.theme');
    expect(unsupported[0]).not.toContain('$version');
    // The mapped keys are accepted without a word.
    expect(result.stderr).not.toContain('defaultTimeoutMs');
    expect(result.stderr).not.toContain('truncateToolOutputThreshold');
    expect(result.stderr).toContain(
      `${path.join(root, '.qwen', 'agents', 'writer.md')}: "mood" is not a field of subagent files`,
    );
    // maxTurns: 5 and the subagent's own tools reached the subagent's run.
    const subagentRequest = project.server!.requests[1]!.body;
    expect(subagentRequest.tools?.map((tool) => tool.function.name).sort()).toEqual([
      'read_file',
      'write_file',
    ]);
  });

  it('trusted: the same agent file writes without asking', async () => {
    expect(runCli(['trust'], { cwd: root, home }).code).toBe(0);
    const canary = path.join(root, 'canary.txt');
    const result = await delegateTheWrite(canary);
    expect(result.code).toBe(0);
    expect(readFileSync(canary, 'utf8')).toBe('written\n');
  });

  it("~/.qwen/settings.json's model.maxSessionTurns and maxToolCalls limit the run; flags still win", async () => {
    // The project's own .qwen/settings.json (maxSessionTurns 20) would be above the user's.
    rmSync(path.join(root, '.qwen', 'settings.json'));
    mkdirSync(path.join(home, '.qwen'), { recursive: true });
    writeFileSync(
      path.join(home, '.qwen', 'settings.json'),
      JSON.stringify({ model: { maxSessionTurns: 2 } }),
    );
    project.server = await startModelServer((_request, index) => ({
      toolCalls: [{ name: 'glob', args: { pattern: `*.${index}` } }],
    }));
    const env = {
      OPENAI_BASE_URL: project.server.baseUrl,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_MODEL: 'scripted-model',
    };
    const run = (...flags: string[]) =>
      runCliAsync(['-p', 'go', ...flags], { cwd: root, home, env });
    let result = await run();
    expect(result.code).toBe(53);
    expect(project.server.requests).toHaveLength(2);
    result = await run('--max-session-turns', '3');
    expect(result.code).toBe(53);
    expect(project.server.requests).toHaveLength(5);
    writeFileSync(
      path.join(home, '.qwen', 'settings.json'),
      JSON.stringify({ model: { maxSessionTurns: -1, maxToolCalls: 1 } }),
    );
    result = await run();
    expect(result.code).toBe(55);
    expect(result.stderr).toMatch(/tool-call budget/);
  });

  it("~/.qwen/settings.json's MCP servers start, and call takes Qwen Code's mcp__server__tool", () => {
    mkdirSync(path.join(home, '.qwen'), { recursive: true });
    writeFileSync(
      path.join(home, '.qwen', 'settings.json'),
      JSON.stringify({
        mcpServers: {
          everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], trust: true },
        },
      }),
    );
    const result = runCli(['call', 'mcp__everything__echo', JSON.stringify({ message: 'hi' })], {
      cwd: root,
      home,
    });
    expect(result.stderr).not.toContain('does not exist');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Echo: hi');
  });
});
