/**
 * Finds the subagents a session offers: Markdown files with YAML front matter (`name`,
 * `description`, `tools`, `model`, `approvalMode`, `maxTurns`, `color`: subagent-fields.ts;
 * the body is the system prompt) in the project's and
 * the user's `.toolhost/agents`, and in `.qwen/agents` and `.claude/agents` (the same
 * shape), then the enabled extensions' `agents/` folders (read only inside each extension),
 * plus the built-in general-purpose one. A file that cannot be used is a warning naming it,
 * never a failure.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config/config.js';
import { SUBAGENT_FOLDERS } from '../../config/prompt-folders.js';
import type { SubagentDefinition } from '../../tools/task.js';
import { readFrontMatterFile } from '../../utils/front-matter.js';
import { leadsOutside } from '../../workspace/workspace-context.js';
import { GENERAL_PURPOSE } from './builtin-subagents.js';
import { readSubagentFields } from './subagent-fields.js';

export interface LoadedSubagents {
  definitions: SubagentDefinition[];
  warnings: string[];
}

const FOLDERS = SUBAGENT_FOLDERS;
const NAME = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;
/** Claude Code's model aliases mean nothing to an OpenAI-compatible endpoint: the parent's model is used. */
const INHERITED_MODELS = new Set(['inherit', 'sonnet', 'opus', 'haiku', '']);

/** Project folders first, then the user's: the first definition of a name wins. */
export function subagentFolders(config: Config): string[] {
  const home = path.dirname(config.userDir);
  return [
    ...FOLDERS.map((folder) => path.join(config.targetDir, folder)),
    ...FOLDERS.map((folder) => path.join(home, folder)),
  ];
}

export function loadSubagents(config: Config): LoadedSubagents {
  const warnings: string[] = [];
  const byName = new Map<string, SubagentDefinition>();
  const projectFolders = new Set(subagentFolders(config).slice(0, FOLDERS.length));
  // The enabled extensions' agent folders come last; each file must stay inside its extension.
  const extensionRoots = new Map(
    config.extensions.flatMap((extension) =>
      extension.contributions.agentFolders.map((folder) => [folder, extension.root] as const),
    ),
  );
  for (const folder of [...subagentFolders(config), ...extensionRoots.keys()]) {
    const extensionRoot = extensionRoots.get(folder);
    let files: string[];
    try {
      files = readdirSync(folder)
        .filter((name) => name.endsWith('.md'))
        .sort();
    } catch {
      continue; // no such folder
    }
    for (const file of files) {
      const filePath = path.join(folder, file);
      const confinedTo = projectFolders.has(folder) ? config.targetDir : extensionRoot;
      const outside = confinedTo ? leadsOutside(confinedTo, filePath) : undefined;
      if (outside) {
        const whose = extensionRoot ? 'an extension' : 'the project';
        warnings.push(
          `${filePath}: leads outside ${whose} (to ${outside}); ${extensionRoot ? "an extension's" : "a project's"} subagent files are read only inside it. The subagent file was skipped.`,
        );
        continue;
      }
      const fieldWarnings: string[] = [];
      const parsed = parseSubagentFile(filePath, fieldWarnings);
      if (typeof parsed === 'string') {
        warnings.push(`${filePath}: ${parsed} The subagent file was skipped.`);
        continue;
      }
      warnings.push(...fieldWarnings.map((warning) => `${filePath}: ${warning}`));
      // Neither a project's nor an extension's file may loosen approvals on its own.
      if (projectFolders.has(folder) || extensionRoot) parsed.fromProject = true;
      if (!byName.has(parsed.name)) byName.set(parsed.name, parsed);
    }
  }
  if (!byName.has(GENERAL_PURPOSE.name)) byName.set(GENERAL_PURPOSE.name, GENERAL_PURPOSE);
  return { definitions: [...byName.values()], warnings };
}

/**
 * The definition in one file, or what is wrong with it; `warnings` receives what is wrong
 * with its optional fields (unknown ones, bad values), which leave the file usable.
 */
export function parseSubagentFile(
  filePath: string,
  warnings: string[] = [],
): SubagentDefinition | string {
  const file = readFrontMatterFile(filePath, 'name, description, tools, model');
  if (typeof file === 'string') return file;
  const { fields, body } = file;
  if (!fields) return 'has no YAML front matter (a first line "---", the fields, then "---").';
  const name = fields.name;
  if (typeof name !== 'string' || !NAME.test(name)) {
    return 'needs a "name": letters, digits, "-" or "_", starting with a letter.';
  }
  const description = fields.description;
  if (typeof description !== 'string' || description.trim() === '') {
    return 'needs a "description" saying when to use this subagent.';
  }
  const tools = parseTools(fields.tools);
  if (typeof tools === 'string') return tools;
  const systemPrompt = body;
  if (!systemPrompt) return 'has no instructions after the front matter.';
  const model = typeof fields.model === 'string' ? fields.model.trim() : undefined;
  if (fields.model !== undefined && fields.model !== null && typeof fields.model !== 'string')
    warnings.push('"model" must be a model name; the parent\'s model is used.');
  const { approvalMode, maxTurns, color, warnings: fieldWarnings } = readSubagentFields(fields);
  warnings.push(...fieldWarnings);
  return {
    name,
    description: description.trim(),
    systemPrompt,
    ...(tools ? { tools } : {}),
    ...(model && !INHERITED_MODELS.has(model) ? { model } : {}),
    ...(approvalMode ? { approvalMode } : {}),
    ...(maxTurns ? { maxTurns } : {}),
    ...(color ? { color } : {}),
    source: filePath,
  };
}

function parseTools(value: unknown): string[] | undefined | string {
  if (value === undefined || value === null) return undefined;
  const list = typeof value === 'string' ? value.split(',') : value;
  if (!Array.isArray(list) || list.some((item) => typeof item !== 'string')) {
    return '"tools" must be a list of tool names or one comma-separated string.';
  }
  const names = list.map((item: string) => item.trim()).filter(Boolean);
  return names.includes('*') ? undefined : names;
}
