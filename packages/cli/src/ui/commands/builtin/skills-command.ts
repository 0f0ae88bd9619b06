/**
 * /skills: the skills the model is offered this session, where each comes from, and the
 * files that cannot be used; `/skills <name> [task]` asks the model to use one.
 */
import { loadSkills, SkillTool } from '@toolhost/core/conversation';
import type { CommandContext, SlashCommand } from '../command-types.js';

function offered(context: CommandContext): readonly { name: string; description: string }[] {
  const tool = context.registry.getRegisteredTool(SkillTool.Name);
  return tool instanceof SkillTool ? tool.skills : [];
}

export const skillsCommand: SlashCommand = {
  name: 'skills',
  description: 'List the skills the model can load, or ask it to use one',
  argumentHint: '[name [task]]',
  source: 'built-in',
  takesArguments: true,
  run(context, args) {
    const [name, ...task] = args.trim().split(/\s+/).filter(Boolean);
    if (name) {
      if (!offered(context).some((skill) => skill.name === name)) {
        context.print(`There is no skill "${name}" in this session; /skills lists them.`, 'error');
        return;
      }
      context.submitPrompt(
        `Use the skill "${name}"${task.length > 0 ? `: ${task.join(' ')}` : '.'}`,
      );
      return;
    }
    const found = loadSkills(context.config);
    const inSession = new Set(offered(context).map((skill) => skill.name));
    const lines = found.skills.map((skill) => {
      const tools =
        skill.allowedTools.length > 0
          ? `\n  Names tools: ${skill.allowedTools.join(', ')} (they still need approval)`
          : '';
      const later = inSession.has(skill.name)
        ? ''
        : ' (found since the session started: offered from the next session)';
      return `- **${skill.name}** (${skill.source === 'project' ? 'project' : skill.source === 'extension' ? 'extension' : 'yours'}${later}): ${skill.description}\n  ${skill.file}${tools}`;
    });
    const blocks = [
      lines.length > 0
        ? `**Skills** (the model loads one when a task fits it)\n${lines.join('\n')}`
        : 'No skills. A skill is a folder with a SKILL.md (front matter with name and description, then instructions) in .toolhost/skills, .qwen/skills or .claude/skills, in the project or your home folder.',
    ];
    if (found.shadowed.length > 0)
      blocks.push(
        `**Hidden by a skill of the same name**\n${found.shadowed.map((skill) => `- ${skill.name}: ${skill.file}`).join('\n')}`,
      );
    if (found.warnings.length > 0)
      blocks.push(
        `**Cannot be used**\n${found.warnings.map((warning) => `- ${warning}`).join('\n')}`,
      );
    context.print(blocks.join('\n\n'));
  },
  completeArguments(context, args) {
    if (args.includes(' ')) return [];
    return offered(context)
      .filter((skill) => skill.name.startsWith(args))
      .map((skill) => ({ value: skill.name, description: skill.description }));
  },
};
