/**
 * Skills as a Qwen Code or Claude Code user has them (test/fixtures/skills copied into a
 * project and a home folder), through a real agent session against the scripted model: what
 * the model is told before it asks, what a `skill` call loads, and what a skill cannot do.
 */
import { cpSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Agent, createAgent } from '../src/agent/create-agent.js';
import { createToolRegistry } from '../src/tools/builtin.js';
import { agentFixture, scriptedEndpoint } from './helpers/agent-fixture.js';
import { type Script, startModelServer } from './helpers/model-server.js';
import { FIXTURES, makeWorkspace } from './helpers/temp-workspace.js';

const SKILLS = path.join(FIXTURES, 'skills');

const fx = agentFixture();

/** A project with skills in .qwen/skills (one linked in from outside), the person's in ~/.claude and ~/.toolhost. */
async function session(script: Script): Promise<{ agent: Agent; warnings: string[] }> {
  fx.ws = makeWorkspace();
  cpSync(path.join(SKILLS, 'project'), fx.ws.p('.qwen/skills'), { recursive: true });
  cpSync(path.join(SKILLS, 'outside'), path.join(fx.ws.base, 'elsewhere'), { recursive: true });
  mkdirSync(fx.ws.p('.claude/skills'), { recursive: true });
  symlinkSync(path.join(fx.ws.base, 'elsewhere'), fx.ws.p('.claude/skills/outside'));
  cpSync(path.join(SKILLS, 'person/pdf-tools'), path.join(fx.ws.home, '.claude/skills/pdf-tools'), {
    recursive: true,
  });
  cpSync(
    path.join(SKILLS, 'person/changelog-style'),
    path.join(fx.ws.home, '.toolhost/skills/changelog-style'),
    { recursive: true },
  );
  fx.server = await startModelServer(script);
  const warnings: string[] = [];
  const agent = createAgent({
    config: fx.ws.config,
    registry: createToolRegistry(fx.ws.config),
    endpoint: scriptedEndpoint(fx.server),
    maxSubagentDepth: 0,
    onWarning: (message) => warnings.push(message),
  });
  return { agent, warnings };
}

const never = () => new AbortController().signal;
type Message = { role: string; content?: unknown };
const lastTool = (request: number) =>
  String(
    (fx.server!.requests[request]!.body.messages as Message[]).findLast((m) => m.role === 'tool')
      ?.content,
  );

describe('skills', () => {
  it('declares names and descriptions only; a call loads the body and the files, which read_file reads', async () => {
    const examples = () => path.join(fx.ws!.home, '.toolhost/skills/changelog-style/examples.md');
    const { agent, warnings } = await session(
      (_request, index) =>
        [
          { toolCalls: [{ name: 'skill', args: { skill: 'changelog-style' } }] },
          { toolCalls: [{ name: 'read_file', args: { absolute_path: examples() } }] },
          { text: 'done' },
        ][index]!,
    );
    const result = await agent.loop.run('add a changelog line', never());
    expect(result.status).toBe('success');

    const first = fx.server!.requests[0]!.body;
    const skillTool = first.tools!.find((tool) => tool.function.name === 'skill')!;
    const description = skillTool.function.description!;
    expect(description).toContain('release-notes: Writes release notes from the git log.');
    expect(description).toContain('changelog-style: House style for changelog lines.');
    // The project's pdf-tools hides the person's of the same name.
    expect(description).toContain("pdf-tools: The project's own PDF helper.");
    expect(description).not.toContain('Extract text from PDF files');
    // Not a word of any body (nor of the skill that leads outside) before the model asks.
    expect(JSON.stringify(first)).not.toMatch(/MARKER-(\w|-)*BODY|MARKER-OUTSIDE/);

    const loaded = lastTool(1);
    expect(loaded).toContain('MARKER-CHANGELOG-BODY');
    expect(loaded).toContain(`- ${examples()}`);
    expect(loaded).not.toContain('SKILL.md\n');
    // The person's skill folder lies outside the workspace: read_file may read it now.
    expect(lastTool(2)).toContain('MARKER-CHANGELOG-EXAMPLE');

    expect(warnings.join('\n')).toContain(
      `${fx.ws!.p('.qwen/skills/no-description/SKILL.md')}: needs a "description"`,
    );
    expect(warnings.join('\n')).toContain(
      `${fx.ws!.p('.claude/skills/outside/SKILL.md')}: leads outside the project`,
    );
  });

  it("a skill's allowed-tools loosens no approval, and an unknown name is answered with the names", async () => {
    const { agent } = await session(
      (_request, index) =>
        [
          { toolCalls: [{ name: 'skill', args: { skill: 'release-note' } }] },
          { toolCalls: [{ name: 'skill', args: { skill: 'release-notes' } }] },
          {
            toolCalls: [
              { name: 'write_file', args: { file_path: fx.ws!.p('CANARY'), content: 'notes' } },
            ],
          },
          { text: 'done' },
        ][index]!,
    );
    await agent.loop.run('write the release notes', never());
    expect(lastTool(1)).toContain('There is no skill "release-note". Did you mean "release-notes"');
    const loaded = lastTool(2);
    expect(loaded).toContain('MARKER-RELEASE-NOTES-BODY');
    expect(loaded).toContain(fx.ws!.p('.qwen/skills/release-notes/template.md'));
    expect(loaded).toContain('Bash(git log:*), Write. They need the usual approval.');
    // Default mode and nobody to ask: the write is refused, whatever the skill says.
    expect(existsSync(fx.ws!.p('CANARY'))).toBe(false);
    expect(lastTool(3)).toContain("needs the person's approval");
  });
});
