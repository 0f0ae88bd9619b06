/**
 * The project folders toolhost loads prompts from: subagents, skills and the terminal's own
 * commands. The loaders read these lists, and the sandbox keeps every folder they name
 * read-only, so a folder added here is protected as well.
 */

/** Subagent definitions, relative to the project (and the home folder). */
export const SUBAGENT_FOLDERS = ['.toolhost/agents', '.qwen/agents', '.claude/agents'] as const;

/** The terminal's user commands, relative to the project (and the home folder). */
export const USER_COMMAND_FOLDERS = [
  '.toolhost/commands',
  '.qwen/commands',
  '.gemini/commands',
  '.claude/commands',
] as const;

/** Skills (folders with a SKILL.md), relative to the project (and the home folder). */
export const SKILL_FOLDERS = ['.toolhost/skills', '.qwen/skills', '.claude/skills'] as const;

/**
 * The top folders holding them (`.toolhost`, `.qwen`, `.claude`, `.gemini`): a command
 * that could rename one of these could replace what lies below, so they are kept whole.
 */
export const PROMPT_FOLDER_ROOTS: readonly string[] = [
  ...new Set(
    [...SUBAGENT_FOLDERS, ...USER_COMMAND_FOLDERS, ...SKILL_FOLDERS].map(
      (folder) => folder.split('/')[0]!,
    ),
  ),
];
