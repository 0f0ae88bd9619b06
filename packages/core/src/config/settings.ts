/**
 * Loads and merges settings: user (~/.toolhost), project (<root>/.toolhost), system
 * (/etc/toolhost or $TOOLHOST_SYSTEM_SETTINGS_PATH), then environment, then flags, each
 * layer above the one before. A bad file or key never stops toolhost: it is reported as a
 * warning naming the file and the key, and left out.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ParseError, parse, printParseErrorCode } from 'jsonc-parser';
import { checkLayer } from './settings-layer.js';
import { mergeSettings } from './settings-merge.js';
import {
  APPROVAL_MODES,
  type ApprovalMode,
  SETTING_DEFAULTS,
  type Settings,
} from './settings-types.js';
import { isFolderTrusted } from './trusted-folders.js';

export { getSettingsSchema, settingsSchemaPath } from './settings-layer.js';
export { mergeSettings } from './settings-merge.js';
export * from './settings-types.js';

export type SettingsScope = 'user' | 'project' | 'system' | 'environment' | 'flags';

export interface SettingsWarning {
  /** The file (or `environment` / `command line`) the problem is in. */
  source: string;
  /** The key, dotted (`tools.allowed`), or empty when the whole file is at fault. */
  key: string;
  message: string;
}

export interface SettingsFile {
  scope: 'user' | 'project' | 'system';
  path: string;
  exists: boolean;
  settings: Settings;
}

export interface LoadedSettings {
  merged: Settings;
  files: SettingsFile[];
  warnings: SettingsWarning[];
}

export interface LoadSettingsOptions {
  /** The project root, whose `.toolhost/settings.json` is the project layer. */
  workspaceRoot: string;
  /** Defaults to the home folder of the current user. */
  homeDir?: string;
  /** Defaults to $TOOLHOST_SYSTEM_SETTINGS_PATH, then /etc/toolhost/settings.json. */
  systemSettingsPath?: string;
  env?: NodeJS.ProcessEnv;
  /** Command-line flags, the highest layer. */
  overrides?: Settings;
  /**
   * Whether the project folder is trusted. When it is not (and folder trust is on), the
   * project file's settings that start programs are left out. Default: looked up in
   * ~/.toolhost/trustedFolders.json.
   */
  projectTrusted?: boolean;
}

/** Project settings that start programs, honoured only in trusted folders. */
const PROGRAM_STARTING_KEYS: [keyof Settings, string | undefined][] = [
  ['tools', 'discoveryCommand'],
  ['tools', 'callCommand'],
  ['mcpServers', undefined],
  ['mcp', 'serverCommand'],
];

export function userSettingsDir(homeDir = os.homedir()): string {
  return path.join(homeDir, '.toolhost');
}

export function loadSettings(options: LoadSettingsOptions): LoadedSettings {
  const env = options.env ?? process.env;
  const homeDir = options.homeDir ?? os.homedir();
  const systemPath =
    options.systemSettingsPath ??
    env.TOOLHOST_SYSTEM_SETTINGS_PATH ??
    '/etc/toolhost/settings.json';
  const warnings: SettingsWarning[] = [];
  const candidates: { scope: SettingsFile['scope']; path: string }[] = [
    { scope: 'user', path: path.join(userSettingsDir(homeDir), 'settings.json') },
    { scope: 'project', path: path.join(options.workspaceRoot, '.toolhost', 'settings.json') },
    { scope: 'system', path: systemPath },
  ];
  // The user's and the project's file are the same file when toolhost runs in the home folder.
  const seen = new Set<string>();
  const files: SettingsFile[] = [];
  for (const candidate of candidates) {
    const resolved = path.resolve(candidate.path);
    if (seen.has(resolved)) continue;
    seen.add(resolved);
    files.push(readSettingsFile(candidate.scope, resolved, env, warnings));
  }

  const trustEnabled =
    [...files]
      .reverse()
      .find(
        (file) =>
          file.scope !== 'project' && file.settings.security?.folderTrust?.enabled !== undefined,
      )?.settings.security?.folderTrust?.enabled ?? SETTING_DEFAULTS.security.folderTrust.enabled;
  const project = files.find((file) => file.scope === 'project');
  if (trustEnabled && project?.exists) {
    const trusted =
      options.projectTrusted ??
      isFolderTrusted(path.resolve(options.workspaceRoot), userSettingsDir(homeDir));
    if (!trusted) dropProgramStartingKeys(project, options.workspaceRoot, warnings);
  }

  let merged: Settings = {};
  for (const file of files) merged = mergeSettings(merged, file.settings);
  merged = mergeSettings(merged, settingsFromEnvironment(env, warnings));
  if (options.overrides) {
    merged = mergeSettings(merged, checkLayer(options.overrides, 'command line', env, warnings));
  }
  return { merged, files, warnings };
}

function dropProgramStartingKeys(
  file: SettingsFile,
  root: string,
  warnings: SettingsWarning[],
): void {
  const layer = file.settings as Record<string, Record<string, unknown> | undefined>;
  for (const [section, key] of PROGRAM_STARTING_KEYS) {
    const group = layer[section];
    if (!group || (key !== undefined && !(key in group))) continue;
    if (key === undefined) delete layer[section];
    else delete group[key];
    warnings.push({
      source: file.path,
      key: key ? `${section}.${key}` : section,
      message: `was ignored: ${root} is not a trusted folder, and a project's settings start programs only in trusted folders. If you trust this project, run "toolhost trust" in it.`,
    });
  }
}

export function formatSettingsWarning(warning: SettingsWarning): string {
  const where = warning.key ? `${warning.source}: ${warning.key}` : warning.source;
  return `${where}: ${warning.message}`;
}

function readSettingsFile(
  scope: SettingsFile['scope'],
  filePath: string,
  env: NodeJS.ProcessEnv,
  warnings: SettingsWarning[],
): SettingsFile {
  let text: string;
  try {
    text = readFileSync(filePath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      warnings.push({
        source: filePath,
        key: '',
        message: `cannot be read (${code ?? String(error)}); its settings were ignored. Check the file's permissions.`,
      });
    }
    return { scope, path: filePath, exists: false, settings: {} };
  }
  const errors: ParseError[] = [];
  const parsed: unknown = parse(text, errors, {
    allowTrailingComma: true,
    disallowComments: false,
  });
  if (errors.length > 0) {
    const first = errors[0]!;
    const { line, column } = lineAndColumn(text, first.offset);
    warnings.push({
      source: filePath,
      key: '',
      message: `is not valid JSON (${printParseErrorCode(first.error)} at line ${line}, column ${column}); the whole file was ignored until it is fixed.`,
    });
    return { scope, path: filePath, exists: true, settings: {} };
  }
  if (parsed === undefined || parsed === null || text.trim() === '') {
    return { scope, path: filePath, exists: true, settings: {} };
  }
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    warnings.push({
      source: filePath,
      key: '',
      message: 'must contain a JSON object ({ ... }); the whole file was ignored.',
    });
    return { scope, path: filePath, exists: true, settings: {} };
  }
  const settings = checkLayer(parsed as Record<string, unknown>, filePath, env, warnings);
  return { scope, path: filePath, exists: true, settings };
}

function settingsFromEnvironment(env: NodeJS.ProcessEnv, warnings: SettingsWarning[]): Settings {
  const settings: Settings = {};
  const model: NonNullable<Settings['model']> = {};
  if (env.OPENAI_BASE_URL) model.baseUrl = env.OPENAI_BASE_URL;
  if (env.OPENAI_API_KEY) model.apiKey = env.OPENAI_API_KEY;
  if (env.OPENAI_MODEL) model.name = env.OPENAI_MODEL;
  if (Object.keys(model).length > 0) settings.model = model;
  const mode = env.TOOLHOST_APPROVAL_MODE;
  if (mode) {
    if ((APPROVAL_MODES as readonly string[]).includes(mode)) {
      settings.tools = { approvalMode: mode as ApprovalMode };
    } else {
      warnings.push({
        source: 'environment',
        key: 'TOOLHOST_APPROVAL_MODE',
        message: `"${mode}" is not an approval mode; use one of ${APPROVAL_MODES.join(', ')}. It was ignored.`,
      });
    }
  }
  return settings;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return { line, column };
}
