/**
 * Skills through the installed command, as a Claude Code or Qwen Code user keeps them: a
 * project's `.claude/skills` and the person's `~/.qwen/skills`, loaded when the model asks,
 * in a folder the person has not trusted (a skill is text for the model, nothing more).
 */
import { cpSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startModelServer } from '../../core/test/helpers/model-server.js';
import { FIXTURES } from '../../core/test/helpers/temp-workspace.js';
import { modelProject } from './helpers/model-project.js';
import { runCliAsync } from './run-cli.js';

const SKILLS = path.join(FIXTURES, 'skills');

const project = modelProject((dirs) => {
  cpSync(path.join(SKILLS, 'project'), path.join(dirs.root, '.claude/skills'), { recursive: true });
  cpSync(path.join(SKILLS, 'person'), path.join(dirs.home, '.qwen/skills'), { recursive: true });
});

describe('skills through the command', { timeout: 60_000 }, () => {
  it('offers the skills by name, loads one when the model asks, and warns of the broken one', async () => {
    project.server = await startModelServer((_request, index) =>
      index === 0
        ? { toolCalls: [{ name: 'skill', args: { skill: 'changelog-style' } }] }
        : { text: 'Fixed the crash.' },
    );
    const env = { OPENAI_BASE_URL: project.server.baseUrl, OPENAI_API_KEY: 'k', OPENAI_MODEL: 'm' };
    const result = await runCliAsync(['-p', 'write a changelog line'], {
      cwd: project.dirs.root,
      home: project.dirs.home,
      env,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Fixed the crash.');
    expect(result.stderr).toContain('no-description/SKILL.md: needs a "description"');
    const [first, second] = project.server.requests;
    const declared = JSON.stringify(first!.body.tools);
    expect(declared).toContain('changelog-style: House style for changelog lines.');
    expect(declared).toContain('release-notes: Writes release notes');
    expect(JSON.stringify(first!.body)).not.toContain('MARKER-CHANGELOG-BODY');
    expect(JSON.stringify(second!.body.messages)).toContain('MARKER-CHANGELOG-BODY');
    expect(JSON.stringify(second!.body.messages)).toContain(
      path.join(project.dirs.home, '.qwen/skills/changelog-style/examples.md'),
    );
  });
});
