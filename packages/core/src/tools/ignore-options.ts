/** The ignore-file options models send to the search and listing tools, in one place. */
import path from 'node:path';
import type { Config } from '../config/config.js';
import { SETTING_DEFAULTS } from '../contract/settings-types.js';
import { TOOLHOST_IGNORE_FILES } from '../utils/ignore-rules.js';
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

/**
 * The flags of one call: what the model asked for, else the settings'
 * (context.fileFiltering), else everything ignore files exclude is left out.
 */
export function ignoreFlags(
  options: IgnoreOptionParams | undefined,
  config?: Pick<Config, 'settings'>,
): IgnoreFlags {
  const filtering = config?.settings.context?.fileFiltering;
  const defaults = SETTING_DEFAULTS.context.fileFiltering;
  return {
    respectGitIgnore:
      options?.respect_git_ignore ?? filtering?.respectGitIgnore ?? defaults.respectGitIgnore,
    respectToolhostIgnore:
      options?.respect_qwen_ignore ?? filtering?.respectQwenIgnore ?? defaults.respectQwenIgnore,
    ignoreFiles: rootIgnoreFiles(config),
  };
}

/**
 * The ignore files read at each workspace root: .toolhostignore and .qwenignore, then
 * context.fileFiltering.customIgnoreFiles (default .agentignore and .aiignore), which
 * must stay below the root.
 */
export function rootIgnoreFiles(config?: Pick<Config, 'settings'>): readonly string[] {
  const custom =
    config?.settings.context?.fileFiltering?.customIgnoreFiles ??
    SETTING_DEFAULTS.context.fileFiltering.customIgnoreFiles;
  const inside = custom.filter(
    (name) => name !== '' && !path.isAbsolute(name) && !name.split(/[\\/]/).includes('..'),
  );
  return [...new Set([...TOOLHOST_IGNORE_FILES, ...inside])];
}
