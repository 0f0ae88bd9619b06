/** The ignore-file options models send to the search and listing tools, in one place. */
import type { IgnoreFlags } from '../utils/ripgrep.js';
import type { JsonSchema } from './tools.js';

export interface IgnoreOptionParams {
  respect_git_ignore?: boolean;
  respect_qwen_ignore?: boolean;
}

/** The two parameters' schemas (both default true). */
export const IGNORE_OPTION_PROPERTIES: Record<keyof IgnoreOptionParams, JsonSchema> = {
  respect_git_ignore: {
    type: 'boolean',
    description: 'Leave out files .gitignore excludes (default true).',
  },
  respect_qwen_ignore: {
    type: 'boolean',
    description: 'Leave out files .toolhostignore or .qwenignore exclude (default true).',
  },
};

/** The `file_filtering_options` object parameter of list_directory and read_many_files. */
export const FILE_FILTERING_OPTIONS_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'Whether to leave out ignored files (both default true).',
  properties: IGNORE_OPTION_PROPERTIES,
};

export function ignoreFlags(options: IgnoreOptionParams | undefined): IgnoreFlags {
  return {
    respectGitIgnore: options?.respect_git_ignore ?? true,
    respectToolhostIgnore: options?.respect_qwen_ignore ?? true,
  };
}
