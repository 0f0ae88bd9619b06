/**
 * Skills: folders holding a SKILL.md (YAML front matter with `name`, `description` and
 * optional `allowed-tools`, then instructions in Markdown) and any files the instructions
 * name, in the project's `.toolhost/skills`, `.qwen/skills` and `.claude/skills` and the
 * same folders of the home folder, then the enabled extensions' `skills/` (the project's
 * win, then in that order). This folder owns
 * finding them and loading one when the model asks (skill-tool.ts); it reads text only: a
 * skill never changes what needs approval (its `allowed-tools` is shown, never granted), and
 * a project's skill is read only where it really lies inside the project. A skill that
 * cannot be used is a warning naming its file, never a failure.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/config.js';
import { SKILL_FOLDERS } from '../config/prompt-folders.js';
import { readFrontMatterFile } from '../utils/front-matter.js';
import { leadsOutside, resolveLikeKernel } from '../workspace/workspace-context.js';

export interface SkillDefinition {
  name: string;
  description: string;
  /** Tools the skill says it uses (`allowed-tools`): shown, never allowed by it. */
  allowedTools: string[];
  /** The skill's folder (its real path) and its SKILL.md. */
  folder: string;
  file: string;
  source: 'project' | 'user' | 'extension';
}

export interface LoadedSkills {
  skills: SkillDefinition[];
  warnings: string[];
  /** Skills hidden by one of the same name found earlier (the project's over the user's). */
  shadowed: SkillDefinition[];
}

export const SKILL_FILE = 'SKILL.md';
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;
const MAX_DESCRIPTION = 1024;

/**
 * Where skills are looked for: the project's folders first, then the user's, then the
 * enabled extensions' (`root`: the extension's real folder, which its skills must not leave).
 */
export function skillFolders(
  config: Config,
): { folder: string; source: SkillDefinition['source']; root?: string }[] {
  const home = path.dirname(config.userDir);
  return [
    ...SKILL_FOLDERS.map((folder) => ({
      folder: path.join(config.targetDir, folder),
      source: 'project' as const,
    })),
    ...SKILL_FOLDERS.map((folder) => ({
      folder: path.join(home, folder),
      source: 'user' as const,
    })),
    ...config.extensions.flatMap((extension) =>
      extension.contributions.skillFolders.map((folder) => ({
        folder,
        source: 'extension' as const,
        root: extension.root,
      })),
    ),
  ];
}

export function loadSkills(config: Config): LoadedSkills {
  const loaded: LoadedSkills = { skills: [], warnings: [], shadowed: [] };
  const byName = new Map<string, SkillDefinition>();
  const projectRoot = resolveLikeKernel(config.targetDir) ?? config.targetDir;
  for (const { folder, source, root } of skillFolders(config)) {
    let entries: string[];
    try {
      entries = readdirSync(folder).sort();
    } catch {
      continue; // no such folder
    }
    for (const entry of entries) {
      const file = path.join(folder, entry, SKILL_FILE);
      if (!existsSync(file)) continue; // not a skill's folder
      const confinedTo = source === 'project' ? projectRoot : root;
      const outside = confinedTo ? leadsOutside(confinedTo, file) : undefined;
      if (outside) {
        const whose = source === 'project' ? 'project' : 'extension';
        loaded.warnings.push(
          `${file}: leads outside the ${whose} (to ${outside}); a ${whose}'s skills are read only inside it. The skill was skipped.`,
        );
        continue;
      }
      const skill = parseSkillFile(file, entry, source);
      if (typeof skill === 'string') {
        loaded.warnings.push(`${file}: ${skill} The skill was skipped.`);
        continue;
      }
      if (byName.has(skill.name)) loaded.shadowed.push(skill);
      else byName.set(skill.name, skill);
    }
  }
  loaded.skills = [...byName.values()];
  return loaded;
}

/** The skill in one SKILL.md, or what is wrong with it. */
export function parseSkillFile(
  file: string,
  folderName: string,
  source: SkillDefinition['source'],
): SkillDefinition | string {
  const parsed = readFrontMatterFile(file, 'name, description, allowed-tools');
  if (typeof parsed === 'string') return parsed;
  const { fields } = parsed;
  if (!fields)
    return 'has no YAML front matter (a first line "---", name and description, then "---").';
  const name = fields.name ?? folderName;
  if (typeof name !== 'string' || !NAME.test(name))
    return 'needs a "name": letters, digits, "-", "_", "." or ":", at most 64.';
  const description = fields.description;
  if (typeof description !== 'string' || description.trim() === '')
    return 'needs a "description" saying what the skill does and when to use it.';
  const real = resolveLikeKernel(path.dirname(file)) ?? path.dirname(file);
  return {
    name,
    description: description.trim().slice(0, MAX_DESCRIPTION),
    allowedTools: toolList(fields['allowed-tools'] ?? fields.allowedTools),
    folder: real,
    file: path.join(real, SKILL_FILE),
    source,
  };
}

function toolList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  if (typeof value === 'string')
    return value
      .split(/[,\s]+(?![^(]*\))/)
      .map((item) => item.trim())
      .filter(Boolean);
  return [];
}
