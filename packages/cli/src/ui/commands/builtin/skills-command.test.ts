import { cpSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES } from '../../../../../core/test/helpers/temp-workspace.js';
import { makeTestSession, type TestSession } from '../../../../test/helpers/command-context.js';
import { skillsCommand } from './skills-command.js';

const SKILLS = path.join(FIXTURES, 'skills');
let session: TestSession | undefined;
afterEach(() => session?.close());

function withSkills(): TestSession {
  return makeTestSession({
    prepare: (dirs) => {
      cpSync(path.join(SKILLS, 'project'), path.join(dirs.root, '.claude/skills'), {
        recursive: true,
      });
      cpSync(path.join(SKILLS, 'person'), path.join(dirs.home, '.qwen/skills'), {
        recursive: true,
      });
    },
  });
}

describe('/skills', () => {
  it('lists the skills by source, those hidden by a name, and those that cannot be used', async () => {
    session = withSkills();
    await skillsCommand.run(session.context, '');
    const shown = session.output();
    expect(shown).toContain('**release-notes** (project): Writes release notes from the git log.');
    expect(shown).toContain('Names tools: Bash(git log:*), Write (they still need approval)');
    expect(shown).toContain('**changelog-style** (yours): House style for changelog lines.');
    expect(shown).toContain("**pdf-tools** (project): The project's own PDF helper.");
    expect(shown).toContain(
      `**Hidden by a skill of the same name**\n- pdf-tools: ${path.join(session.dirs.home, '.qwen/skills/pdf-tools/SKILL.md')}`,
    );
    expect(shown).toContain('no-description/SKILL.md: needs a "description"');
  });

  it('with a name, asks the model to use that skill; an unknown name is said so', async () => {
    session = withSkills();
    await skillsCommand.run(session.context, 'release-notes write them for v2.1');
    expect(session.submitted).toEqual(['Use the skill "release-notes": write them for v2.1']);
    await skillsCommand.run(session.context, 'nope');
    expect(session.output()).toContain('There is no skill "nope" in this session');
    expect(
      skillsCommand.completeArguments?.(session.context, 'pdf').map((option) => option.value),
    ).toEqual(['pdf-tools']);
  });

  it('says how to make one when there are none', async () => {
    session = makeTestSession();
    await skillsCommand.run(session.context, '');
    expect(session.output()).toContain('No skills. A skill is a folder with a SKILL.md');
  });
});
