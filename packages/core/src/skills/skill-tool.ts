/**
 * `skill` (Qwen Code's name and parameter): the model sees each skill's name and
 * description in the tool's description, and a call loads one skill's instructions and the
 * list of its files. Nothing of a skill but its name and description reaches the model
 * before it asks. The call is read-only and never asked about.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/config.js';
import { ToolErrorType } from '../contract/tool-error.js';
import { BaseTool, errorResult, Kind, type ToolResult } from '../tools/tools.js';
import { closestNames } from '../utils/closest-names.js';
import { readFrontMatterFile } from '../utils/front-matter.js';
import { loadSkills, SKILL_FILE, type SkillDefinition } from './skill-files.js';

interface SkillParams {
  skill: string;
}

const MAX_LISTED_FILES = 200;
const SKIPPED_FOLDERS = new Set(['.git', 'node_modules', '__pycache__']);

export class SkillTool extends BaseTool<SkillParams> {
  static readonly Name = 'skill';

  constructor(
    private readonly config: Config,
    readonly skills: readonly SkillDefinition[],
  ) {
    super(
      SkillTool.Name,
      'Skill',
      describeSkills(skills),
      Kind.Read,
      {
        type: 'object',
        properties: {
          skill: { type: 'string', description: 'The name of the skill to load, as listed.' },
        },
        required: ['skill'],
        additionalProperties: false,
      },
      { parameterAliases: { name: 'skill', command: 'skill' } },
    );
  }

  protected override validateSemantics(params: SkillParams): string | null {
    if (this.find(params.skill)) return null;
    const names = this.skills.map((skill) => skill.name);
    const close = closestNames(params.skill, names, 3);
    return `There is no skill "${params.skill}". ${close.length > 0 ? `Did you mean ${close.map((name) => `"${name}"`).join(', ')}? ` : ''}The skills are: ${names.join(', ')}.`;
  }

  override getDescription(params: SkillParams): string {
    return `Load the skill "${params.skill}"`;
  }

  async execute(params: SkillParams): Promise<ToolResult> {
    const skill = this.find(params.skill)!;
    const file = readFrontMatterFile(skill.file, 'name, description, allowed-tools');
    if (typeof file === 'string')
      return errorResult(
        ToolErrorType.READ_CONTENT_FAILURE,
        `The skill "${skill.name}" cannot be loaded: ${skill.file} ${file}`,
      );
    // Its files are read with read_file by absolute path, also where the folder is the person's.
    this.config.workspace.addReadOnlyDirectory(skill.folder);
    const files = listFiles(skill.folder);
    const lines = [
      `Skill "${skill.name}" (${skill.source === 'project' ? "the project's" : skill.source === 'extension' ? "an extension's" : "the person's"}), folder ${skill.folder}`,
      files.length > 0
        ? `Its files (read them with read_file, run its scripts, by absolute path):\n${files.map((name) => `- ${path.join(skill.folder, name)}`).join('\n')}`
        : 'It has no other files.',
      ...(skill.allowedTools.length > 0
        ? [
            `It names the tools it uses: ${skill.allowedTools.join(', ')}. They need the usual approval.`,
          ]
        : []),
      '',
      file.body,
    ];
    return { llmContent: lines.join('\n'), returnDisplay: `Loaded the skill ${skill.name}` };
  }

  private find(name: string): SkillDefinition | undefined {
    return this.skills.find((skill) => skill.name === name);
  }
}

function describeSkills(skills: readonly SkillDefinition[]): string {
  const list = skills.map((skill) => `- ${skill.name}: ${skill.description.replace(/\s+/g, ' ')}`);
  return [
    "Loads a skill: instructions for a kind of task, with files such as references and scripts, written by the person or for this project. When the task at hand fits a skill's description, call this tool with its name before anything else and follow what it returns. Only the skills below exist.",
    '',
    'Skills:',
    ...list,
  ].join('\n');
}

/** The skill's files below its folder (SKILL.md left out), relative, sorted; links are not followed. */
function listFiles(folder: string): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(path.join(folder, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (found.length >= MAX_LISTED_FILES) return;
      const name = path.join(relative, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) walk(name);
      } else if (name !== SKILL_FILE) found.push(name);
    }
  };
  walk('');
  return found;
}

/** The `skill` tool for the skills found now (none: no tool), telling `warn` what was skipped. */
export function skillToolFor(
  config: Config,
  warn: (message: string) => void = () => undefined,
): SkillTool | undefined {
  const { skills, warnings } = loadSkills(config);
  for (const warning of warnings) warn(warning);
  return skills.length > 0 ? new SkillTool(config, skills) : undefined;
}
