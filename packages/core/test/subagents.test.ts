import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../src/agent/agent-events.js';
import { createAgent } from '../src/agent/create-agent.js';
import { loadSubagents } from '../src/agent/subagents/subagent-files.js';
import { createToolRegistry } from '../src/tools/builtin.js';
import { ToolConfirmationOutcome } from '../src/tools/tools.js';
import { agentFixture, scriptedEndpoint } from './helpers/agent-fixture.js';
import { type RecordedRequest, type Script, startModelServer } from './helpers/model-server.js';
import { makeWorkspace } from './helpers/temp-workspace.js';

const fx = agentFixture();
afterEach(() => {
  vi.unstubAllEnvs();
});

const REVIEWER = `---
name: reviewer
description: Reviews code for bugs.
tools: read_file, Grep
---
You review code. Report bugs with file and line.
`;
const FINDER = `---
name: finder
description: Finds files.
tools:
  - Glob
  - LS
model: sonnet
---
You find files.
`;

function setup() {
  fx.ws = makeWorkspace();
  fx.ws.write('.toolhost/agents/reviewer.md', REVIEWER);
  fx.ws.write('.claude/agents/finder.md', FINDER);
  fx.ws.write('.qwen/agents/broken.md', '---\nname: [unclosed\n---\nbody\n');
  fx.ws.write('.toolhost/agents/nameless.md', '---\ndescription: no name\n---\nbody\n');
  mkdirSync(path.join(fx.ws.home, '.toolhost', 'agents'), { recursive: true });
  writeFileSync(
    path.join(fx.ws.home, '.toolhost', 'agents', 'reviewer.md'),
    REVIEWER.replace('Reviews code for bugs.', 'The user-level reviewer (shadowed).'),
  );
  return fx.ws;
}

const systemOf = (request: RecordedRequest) => String(request.body.messages[0]?.content ?? '');
const toolNames = (request: RecordedRequest) =>
  (request.body.tools ?? []).map((t) => t.function.name);

/** The main agent hands a write to general-purpose, whose one call writes `content` to `target`. */
const delegatedWrite =
  (target: string, content: string): Script =>
  (request) => {
    if (systemOf(request).includes('running as a subagent')) {
      return request.body.messages.length === 2
        ? { toolCalls: [{ name: 'write_file', args: { file_path: target, content } }] }
        : { text: 'Wrote it.' };
    }
    return request.body.messages.length === 2
      ? {
          toolCalls: [
            {
              name: 'task',
              args: { description: 'write', prompt: 'write it', subagent_type: 'general-purpose' },
            },
          ],
        }
      : { text: 'ok' };
  };

async function session(
  script: Script,
  maxSubagentDepth?: number,
  onConfirmationRequest?: Parameters<typeof createAgent>[0]['onConfirmationRequest'],
  editProposal?: Parameters<typeof createAgent>[0]['editProposal'],
) {
  const workspace = fx.ws ?? setup();
  fx.server = await startModelServer(script);
  const registry = createToolRegistry(workspace.config);
  const events: AgentEvent[] = [];
  const warnings: string[] = [];
  const agent = createAgent({
    config: workspace.config,
    registry,
    endpoint: scriptedEndpoint(fx.server, 'main-model'),
    onEvent: (event) => events.push(event),
    onWarning: (warning) => warnings.push(warning),
    ...(maxSubagentDepth !== undefined ? { maxSubagentDepth } : {}),
    ...(onConfirmationRequest ? { onConfirmationRequest } : {}),
    ...(editProposal ? { editProposal } : {}),
  });
  return { agent, registry, events, warnings };
}

describe('subagent files', () => {
  it('reads .toolhost, .qwen and .claude agents, project before user, and warns about bad files', () => {
    const workspace = setup();
    const { definitions, warnings } = loadSubagents(workspace.config);
    expect(definitions.map((d) => d.name)).toEqual(['reviewer', 'finder', 'general-purpose']);
    expect(definitions[0]).toMatchObject({
      description: 'Reviews code for bugs.',
      tools: ['read_file', 'Grep'],
    });
    expect(definitions[1]).toMatchObject({ tools: ['Glob', 'LS'] });
    expect(definitions[1]!.model).toBeUndefined(); // a Claude alias means "the parent's model"
    expect(warnings).toHaveLength(2);
    expect(warnings.find((w) => w.includes('broken.md'))).toMatch(/not valid YAML/);
    expect(warnings.find((w) => w.includes('nameless.md'))).toMatch(/needs a "name"/);
  });
});

describe('task', () => {
  it('runs two subagents side by side, each with only its tools, and returns their answers', async () => {
    let release: () => void = () => {};
    const bothStarted = new Promise<void>((resolve) => {
      release = resolve;
    });
    let subagentRequests = 0;
    const { agent, events, registry } = await session(async (request, index) => {
      const system = systemOf(request);
      if (system.includes('You review code')) {
        subagentRequests++;
        if (subagentRequests === 2) release();
        await bothStarted; // held until the other subagent asks too: proves they overlap
        return { text: 'No bugs in main.ts.', usage: { prompt_tokens: 10, completion_tokens: 5 } };
      }
      if (system.includes('You find files')) {
        subagentRequests++;
        if (subagentRequests === 2) release();
        await bothStarted;
        return { text: 'Found 3 files.', usage: { prompt_tokens: 20, completion_tokens: 7 } };
      }
      if (index === 0) {
        return {
          toolCalls: [
            {
              id: 't1',
              name: 'task',
              args: {
                description: 'review main',
                prompt: 'Review main.ts',
                subagent_type: 'reviewer',
              },
            },
            {
              id: 't2',
              name: 'task',
              args: {
                description: 'find files',
                prompt: 'Find the ts files',
                subagent_type: 'finder',
              },
            },
          ],
          usage: { prompt_tokens: 100, completion_tokens: 10 },
        };
      }
      return { text: 'Review done, 3 files.', usage: { prompt_tokens: 200, completion_tokens: 6 } };
    });
    const taskSchema = registry.getTool('task')!.schema.parametersJsonSchema as {
      properties: { subagent_type: { enum: string[] } };
    };
    expect(taskSchema.properties.subagent_type.enum).toEqual([
      'reviewer',
      'finder',
      'general-purpose',
    ]);

    const result = await agent.loop.run('review and find', new AbortController().signal);
    expect(result.status).toBe('success');
    const reviewerRequest = fx.server!.requests.find((r) =>
      systemOf(r).includes('You review code'),
    )!;
    expect(toolNames(reviewerRequest).sort()).toEqual(['grep_search', 'read_file']);
    expect(reviewerRequest.body.messages[1]).toMatchObject({
      role: 'user',
      content: 'Review main.ts',
    });
    expect(systemOf(reviewerRequest)).toContain(fx.ws!.root); // the environment
    const finderRequest = fx.server!.requests.find((r) => systemOf(r).includes('You find files'))!;
    expect(toolNames(finderRequest).sort()).toEqual(['glob', 'list_directory']);
    expect(finderRequest.body.model).toBe('main-model');

    const back = fx.server!.requests.at(-1)!.body.messages;
    expect(back.find((m) => m.tool_call_id === 't1')?.content).toBe('No bugs in main.ts.');
    expect(back.find((m) => m.tool_call_id === 't2')?.content).toBe('Found 3 files.');
    // Subagent usage counts toward the session.
    expect(result.usage).toEqual({ inputTokens: 330, outputTokens: 28 });
    const subagentEvents = events.filter((e) => e.type === 'subagent') as Extract<
      AgentEvent,
      { type: 'subagent' }
    >[];
    expect(new Set(subagentEvents.map((e) => e.subagent))).toEqual(new Set(['reviewer', 'finder']));
    expect(new Set(subagentEvents.map((e) => e.taskId)).size).toBe(2);
  });

  it('bounds nesting: the deepest subagents get no task tool', async () => {
    setup();
    const { agent } = await session((request) => {
      const system = systemOf(request);
      if (system.includes('running as a subagent')) {
        const hasTask = toolNames(request).includes('task');
        if (hasTask && !JSON.stringify(request.body.messages).includes('level two')) {
          return {
            toolCalls: [
              {
                name: 'task',
                args: {
                  description: 'go deeper',
                  prompt: 'level two',
                  subagent_type: 'general-purpose',
                },
              },
            ],
          };
        }
        return { text: hasTask ? 'has task' : 'no task here' };
      }
      if (request.body.messages.length === 2) {
        return {
          toolCalls: [
            {
              name: 'task',
              args: {
                description: 'level one',
                prompt: 'level one',
                subagent_type: 'general-purpose',
              },
            },
          ],
        };
      }
      return { text: 'done' };
    }, 2);
    await agent.loop.run('nest', new AbortController().signal);
    const subagentRequests = fx.server!.requests.filter((r) =>
      systemOf(r).includes('running as a subagent'),
    );
    const levels = subagentRequests.map((r) => toolNames(r).includes('task'));
    expect(levels).toEqual([true, false, true]); // level one (may nest), level two (may not), level one again
  });

  it('stops running subagents when the parent is cancelled', async () => {
    let startedSubagents = 0;
    const { agent } = await session((request) => {
      if (systemOf(request).includes('running as a subagent')) {
        startedSubagents++;
        return { hang: true };
      }
      return {
        toolCalls: [1, 2].map((n) => ({
          name: 'task',
          args: { description: `job ${n}`, prompt: `job ${n}`, subagent_type: 'general-purpose' },
        })),
      };
    });
    const controller = new AbortController();
    const running = agent.loop.run('two jobs', controller.signal);
    const deadline = Date.now() + 20_000;
    while (startedSubagents < 2 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(startedSubagents).toBe(2);
    controller.abort();
    const result = await running;
    expect(result.status).toBe('cancelled');
    const results = agent.loop.history.filter((m) => m.role === 'tool');
    expect(results).toHaveLength(2);
    for (const message of results) expect(String(message.content)).toMatch(/cancelled/);
  });

  it('asks the person through the same approval flow, naming the subagent', async () => {
    const workspace = setup();
    const target = workspace.p('approved.txt');
    const titles: string[] = [];
    const { agent } = await session(delegatedWrite(target, 'yes\n'), undefined, async (call) => {
      titles.push(call.confirmationDetails.title);
      return { outcome: ToolConfirmationOutcome.ProceedOnce };
    });
    await agent.loop.run('delegate a write', new AbortController().signal);
    expect(titles).toHaveLength(1);
    expect(titles[0]).toMatch(/^\[subagent general-purpose\] /);
    expect(readFileSync(target, 'utf8')).toBe('yes\n');
  });

  it("offers a subagent's change for editing with the same editor hook as the main agent's", async () => {
    // Were the hook not passed on, the scheduler's own fallback would start this instead.
    vi.stubEnv('VISUAL', '');
    vi.stubEnv('EDITOR', 'false');
    const workspace = setup();
    const target = workspace.p('edited.txt');
    const answers = [ToolConfirmationOutcome.ModifyWithEditor, ToolConfirmationOutcome.ProceedOnce];
    const asked: string[] = [];
    const proposals: string[] = [];
    const { agent } = await session(
      delegatedWrite(target, 'proposed\n'),
      undefined,
      async (call) => {
        const details = call.confirmationDetails;
        asked.push(details.type === 'edit' ? details.newContent : details.type);
        return { outcome: answers.shift() ?? ToolConfirmationOutcome.Cancel };
      },
      async (proposal) => {
        proposals.push(proposal.proposedContent);
        return 'changed in the editor\n';
      },
    );
    await agent.loop.run('delegate a write', new AbortController().signal);
    // Asked, edited, asked again with the person's version, which is what gets written.
    expect(proposals).toEqual(['proposed\n']);
    expect(asked).toEqual(['proposed\n', 'changed in the editor\n']);
    expect(readFileSync(target, 'utf8')).toBe('changed in the editor\n');
  });

  it('is not offered when the depth is 0', async () => {
    const { registry } = await session([{ text: 'x' }], 0);
    expect(registry.getTool('task')).toBeUndefined();
  });
});
