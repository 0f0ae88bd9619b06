/**
 * Qwen Code's subagent fields by their effect on a real run (scripted model, real files):
 * maxTurns stops the subagent, approvalMode lets it write unasked in a trusted project,
 * never past a plan session, and model names the model its requests go to.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../src/agent/agent-events.js';
import { createAgent } from '../src/agent/create-agent.js';
import { loadSubagents } from '../src/agent/subagents/subagent-files.js';
import { Config } from '../src/config/config.js';
import type { ApprovalMode, Settings } from '../src/contract/settings-types.js';
import { createToolRegistry } from '../src/tools/builtin.js';
import { scriptedEndpoint } from './helpers/agent-fixture.js';
import { type ModelServer, type Script, startModelServer } from './helpers/model-server.js';
import { makeTempDirs, type TempDirs } from './helpers/temp-workspace.js';

let dirs: TempDirs | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  dirs?.cleanup();
  server = undefined;
  dirs = undefined;
});

const writer = (fields: string) => `---
name: writer
description: Writes files.
${fields}
---
You write files.
`;

/** A project with `.qwen/agents/writer.md`; the session's mode and trust as given. */
function project(fields: string, mode: ApprovalMode, projectTrusted: boolean) {
  dirs = makeTempDirs();
  const config = new Config({
    roots: [dirs.root],
    homeDir: dirs.home,
    approvalMode: mode,
    projectTrusted,
  });
  mkdirSync(`${dirs.root}/.qwen/agents`, { recursive: true });
  writeFileSync(`${dirs.root}/.qwen/agents/writer.md`, writer(fields));
  return config;
}

const isSubagent = (body: { messages: { content?: unknown }[] }) =>
  String(body.messages[0]?.content ?? '').includes('running as a subagent');

/** Main agent: one task call for the writer; the writer: keeps writing the canary. */
const delegate =
  (canary: string): Script =>
  (request) => {
    if (isSubagent(request.body))
      return { toolCalls: [{ name: 'write_file', args: { file_path: canary, content: 'x' } }] };
    return request.body.messages.length === 2
      ? {
          toolCalls: [
            {
              name: 'task',
              args: { description: 'write', prompt: 'write it', subagent_type: 'writer' },
            },
          ],
        }
      : { text: 'ok' };
  };

async function run(config: Config, canary: string) {
  server = await startModelServer(delegate(canary));
  const events: AgentEvent[] = [];
  const agent = createAgent({
    config,
    registry: createToolRegistry(config),
    endpoint: scriptedEndpoint(server, 'main-model'),
    onEvent: (event) => events.push(event),
  });
  await agent.loop.run('delegate', new AbortController().signal);
  const subagentRequests = server.requests.filter((request) => isSubagent(request.body));
  return { events, subagentRequests };
}

describe('subagent file fields', { timeout: 60_000 }, () => {
  it('maxTurns stops the subagent after that many model requests; model and color reach it', async () => {
    const config = project('maxTurns: 2\nmodel: sub-model\ncolor: cyan', 'yolo', true);
    const canary = `${config.targetDir}/canary.txt`;
    const { events, subagentRequests } = await run(config, canary);
    expect(subagentRequests).toHaveLength(2);
    expect(subagentRequests.map((request) => request.body.model)).toEqual([
      'sub-model',
      'sub-model',
    ]);
    const subagentEvent = events.find((event) => event.type === 'subagent');
    expect(subagentEvent).toMatchObject({ subagent: 'writer', color: 'cyan' });
  });

  it('approvalMode: yolo writes unasked in a trusted project', async () => {
    const config = project('approvalMode: yolo\nmaxTurns: 2', 'default', true);
    const canary = `${config.targetDir}/canary.txt`;
    await run(config, canary);
    expect(readFileSync(canary, 'utf8')).toBe('x');
  });

  it('approvalMode: yolo does nothing in a plan session, nor in an untrusted project', async () => {
    for (const [mode, trusted] of [
      ['plan', true],
      ['default', false],
    ] as const) {
      const config = project('approvalMode: yolo\nmaxTurns: 2', mode, trusted);
      const canary = `${config.targetDir}/canary.txt`;
      await run(config, canary);
      expect(existsSync(canary), `${mode}, trusted ${trusted}`).toBe(false);
      await server?.close();
      dirs?.cleanup();
    }
  });

  it("Claude Code's permissionMode maps; unknown, unsupported and bad fields are named", () => {
    const config = project(
      'permissionMode: acceptEdits\ncolor: mauve\nhooks: {}\nmood: cheerful\nmaxTurns: 0',
      'default',
      true,
    );
    const { definitions, warnings } = loadSubagents(config);
    const definition = definitions.find((d) => d.name === 'writer')!;
    expect(definition.approvalMode).toBe('auto-edit');
    expect(definition.color).toBeUndefined();
    expect(definition.maxTurns).toBeUndefined();
    expect(definition.fromProject).toBe(true);
    const file = `${config.targetDir}/.qwen/agents/writer.md`;
    expect(warnings).toEqual([
      `${file}: "maxTurns" must be a whole number of 1 or more; got 0.`,
      `${file}: "color" must be one of red, blue, green, yellow, purple, orange, pink, cyan; got "mauve".`,
      `${file}: "hooks" is not supported by toolhost and was ignored.`,
      `${file}: "mood" is not a field of subagent files and was ignored (known: name, description, tools, model, approvalMode, maxTurns, color).`,
    ]);
  });

  it('model.maxSubagentDepth (Qwen Code setting) 0 offers no task tool; unset offers it', () => {
    dirs = makeTempDirs();
    const endpoint = {
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: 'k',
      model: 'main-model',
      contextWindow: 32_000,
      timeoutMs: 10_000,
      maxRetries: 0,
    };
    const withDepth = (settings: Settings) => {
      const config = new Config({ roots: [dirs!.root], homeDir: dirs!.home, settings });
      const registry = createToolRegistry(config);
      createAgent({ config, registry, endpoint });
      return registry.getTool('task');
    };
    expect(withDepth({ model: { maxSubagentDepth: 0 } })).toBeUndefined();
    expect(withDepth({})).toBeDefined();
  });
});
