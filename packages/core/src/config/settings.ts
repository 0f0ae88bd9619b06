/**
 * Loads and merges settings: user (~/.toolhost), project (<root>/.toolhost), system
 * (/etc/toolhost or $TOOLHOST_SYSTEM_SETTINGS_PATH), then environment, then flags, each
 * layer above the one before. A bad file or key never stops toolhost: it is reported as a
 * warning naming the file and the key, and left out. In a folder the person has not
 * trusted, the project's file is cut to what only makes toolhost stricter (trust/).
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ParseError } from 'jsonc-parser';
import {
  APPROVAL_MODES,
  type ApprovalMode,
  SETTING_DEFAULTS,
  type Settings,
} from '../contract/settings-types.js';
import { type LoadedExtensions, loadExtensions } from '../extensions/extensions.js';
import { type EndpointSetting, namedByUntrustedProject } from '../trust/endpoint-keys.js';
import { cutUntrustedProject, untrustedProjectMessage } from '../trust/untrusted-project.js';
import { jsonc } from '../utils/lazy-libraries.js';
import { mergeSettings } from '../utils/settings-values.js';
import { modelFromEnvironment } from './model-environment.js';
import { qwenSettingsPaths } from './qwen-settings.js';
import { checkLayer } from './settings-layer.js';
import type { SettingsWarning } from './settings-warning.js';
import { isFolderTrusted } from './trusted-folders.js';

export * from '../contract/settings-types.js';
export { mergeSettings } from '../utils/settings-values.js';
export { getSettingsSchema, settingsSchemaPath } from './settings-layer.js';
export type { SettingsWarning } from './settings-warning.js';

export type SettingsScope = 'user' | 'project' | 'system' | 'environment' | 'flags';

export interface SettingsFile {
  scope: 'user' | 'project' | 'system';
  /** `qwen` for Qwen Code's files (~/.qwen, <root>/.qwen), read below toolhost's own. */
  origin: 'toolhost' | 'qwen';
  path: string;
  exists: boolean;
  settings: Settings;
}

export interface LoadedSettings {
  merged: Settings;
  files: SettingsFile[];
  warnings: SettingsWarning[];
  /**
   * Set when the project folder is not trusted and its settings file asked for more than
   * the person's own settings allow: the file and the keys left out (as the file spells them).
   */
  untrustedProject?: { file: string; keys: string[] };
  /**
   * Endpoint settings whose merged value an untrusted project alone named: no key of the
   * person's goes there (trust/endpoint-keys.ts). Empty while the cut does its work.
   */
  untrustedEndpoints: EndpointSetting[];
  /**
   * Whether the project's files apply in full: the folder is trusted, or folder trust is
   * off. Files other than settings (subagent files) are judged by it too.
   */
  projectTrusted: boolean;
  /** The layer the environment's variables make, as checked (above the files). */
  environment: Settings;
  /** The installed extensions; what the enabled ones add is in `merged`, below every file. */
  extensions: LoadedExtensions;
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
   * project file may only make toolhost stricter: the keys trust/ classes as loosening are
   * left out. Default: looked up in ~/.toolhost/trustedFolders.json.
   */
  projectTrusted?: boolean;
  /** Read the installed extensions (~/.toolhost/extensions); default true. */
  extensions?: boolean;
}

export function userSettingsDir(homeDir = os.homedir()): string {
  return path.join(homeDir, '.toolhost');
}

/**
 * Every project settings file toolhost reads, lowest layer first (Qwen Code's, then
 * toolhost's own): the one list both loading and the trust offer go by.
 */
export function projectSettingsFiles(
  workspaceRoot: string,
): { origin: SettingsFile['origin']; path: string }[] {
  return [
    { origin: 'qwen', path: qwenSettingsPaths(undefined, workspaceRoot).project },
    { origin: 'toolhost', path: path.join(workspaceRoot, '.toolhost', 'settings.json') },
  ];
}

export function loadSettings(options: LoadSettingsOptions): LoadedSettings {
  const env = options.env ?? process.env;
  const homeDir = options.homeDir ?? os.homedir();
  const systemPath =
    options.systemSettingsPath ??
    env.TOOLHOST_SYSTEM_SETTINGS_PATH ??
    '/etc/toolhost/settings.json';
  const qwen = qwenSettingsPaths(homeDir, options.workspaceRoot);
  // Each Qwen Code file sits just below toolhost's file of the same scope.
  const candidates: {
    scope: SettingsFile['scope'];
    origin: SettingsFile['origin'];
    path: string;
  }[] = [
    { scope: 'user', origin: 'qwen', path: qwen.user },
    {
      scope: 'user',
      origin: 'toolhost',
      path: path.join(userSettingsDir(homeDir), 'settings.json'),
    },
    ...projectSettingsFiles(options.workspaceRoot).map((file) => ({
      scope: 'project' as const,
      ...file,
    })),
    { scope: 'system', origin: 'toolhost', path: systemPath },
  ];
  // The user's and the project's file are the same file when toolhost runs in the home folder.
  const seen = new Set<string>();
  const read: ReadFile[] = [];
  for (const candidate of candidates) {
    const resolved = path.resolve(candidate.path);
    if (seen.has(resolved)) continue;
    seen.add(resolved);
    read.push({ ...readSettingsFile(candidate.scope, resolved), origin: candidate.origin });
  }
  // The person's own layers are checked first: the project's are judged against them.
  const files: SettingsFile[] = read.map((file) => ({
    scope: file.scope,
    origin: file.origin ?? 'toolhost',
    path: file.path,
    exists: file.exists,
    settings:
      file.raw && file.scope !== 'project'
        ? checkLayer(file.raw, file.path, env, file.warnings)
        : {},
  }));
  const flagWarnings: SettingsWarning[] = [];
  const flags = options.overrides
    ? checkLayer(options.overrides, 'command line', env, flagWarnings)
    : {};

  let untrustedProject: LoadedSettings['untrustedProject'];
  const projectIndexes = read.flatMap((file, index) =>
    file.scope === 'project' && file.raw ? [index] : [],
  );
  const environmentWarnings: SettingsWarning[] = [];
  const ownFiles = files.filter((file) => file.scope !== 'project').map((file) => file.settings);
  // The settings that apply choose the model family whose variables are read: the person's
  // own, and a project's only once it is honoured (else its cut follows from them).
  const environmentFor = (below: Settings[]) =>
    settingsFromEnvironment(env, environmentWarnings, [...below, flags].reduce(mergeSettings, {}));
  const projectTrusted = projectHonoured(files, options, homeDir);
  const honoured = projectIndexes.length === 0 || projectTrusted;
  let environment = honoured ? {} : environmentFor(ownFiles);
  const personLayers = [...ownFiles, environment, flags];
  const person = honoured ? {} : personLayers.reduce(mergeSettings, {});
  // Each project file (Qwen Code's and toolhost's) is judged against the person's own.
  for (const index of projectIndexes) {
    const project = read[index]!;
    const cut = honoured
      ? undefined
      : (layer: Record<string, unknown>, written: ReadonlyMap<string, string>) => {
          const dropped = cutUntrustedProject(layer, person).map((setting) => ({
            ...setting,
            key: written.get(setting.key) ?? setting.key,
          }));
          if (dropped.length === 0) return;
          untrustedProject = { file: project.path, keys: dropped.map((setting) => setting.key) };
          project.warnings.push({
            source: project.path,
            key: untrustedProject.keys.join(', '),
            message: untrustedProjectMessage(path.resolve(options.workspaceRoot), dropped),
          });
        };
    files[index]!.settings = checkLayer(project.raw!, project.path, env, project.warnings, cut);
  }
  if (honoured) environment = environmentFor(files.map((file) => file.settings));

  let merged: Settings = {};
  for (const file of files) merged = mergeSettings(merged, file.settings);
  merged = mergeSettings(mergeSettings(merged, environment), flags);
  // Installed extensions sit below every file: the person's own settings win a server's name.
  const extensions =
    options.extensions === false
      ? { all: [], active: [], layer: {}, warnings: [] }
      : loadExtensions(
          userSettingsDir(homeDir),
          path.resolve(options.workspaceRoot),
          Object.keys(merged.mcpServers ?? {}),
        );
  merged = mergeSettings(extensions.layer, merged);
  const warnings = [
    ...read.flatMap((file) => file.warnings),
    ...environmentWarnings,
    ...flagWarnings,
    ...extensions.warnings.map((message) => ({ source: 'extensions', key: '', message })),
  ];
  const untrustedEndpoints = honoured
    ? []
    : namedByUntrustedProject(
        merged,
        projectIndexes.map((index) => files[index]!.settings).reduce(mergeSettings, {}),
        personLayers,
      );
  return {
    merged,
    files,
    warnings,
    untrustedEndpoints,
    projectTrusted,
    environment,
    extensions,
    ...(untrustedProject ? { untrustedProject } : {}),
  };
}

/**
 * Whether the project's settings apply in full: folder trust is off (only the person's own
 * files can turn it off), or the person trusts the folder.
 */
export function formatSettingsWarning(warning: SettingsWarning): string {
  const where = warning.key ? `${warning.source}: ${warning.key}` : warning.source;
  return `${where}: ${warning.message}`;
}

function projectHonoured(
  files: SettingsFile[],
  options: LoadSettingsOptions,
  homeDir: string,
): boolean {
  const trustEnabled =
    [...files]
      .reverse()
      .find(
        (file) =>
          file.scope !== 'project' && file.settings.security?.folderTrust?.enabled !== undefined,
      )?.settings.security?.folderTrust?.enabled ?? SETTING_DEFAULTS.security.folderTrust.enabled;
  if (!trustEnabled) return true;
  return (
    options.projectTrusted ??
    isFolderTrusted(path.resolve(options.workspaceRoot), userSettingsDir(homeDir))
  );
}

/** A settings file as read: its JSON object, not yet checked, and its own warnings. */
interface ReadFile {
  scope: SettingsFile['scope'];
  origin?: SettingsFile['origin'];
  path: string;
  exists: boolean;
  raw: Record<string, unknown> | undefined;
  warnings: SettingsWarning[];
}

function readSettingsFile(scope: SettingsFile['scope'], filePath: string): ReadFile {
  const warnings: SettingsWarning[] = [];
  const file = (exists: boolean, raw?: Record<string, unknown>): ReadFile => ({
    scope,
    path: filePath,
    exists,
    raw,
    warnings,
  });
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
    return file(false);
  }
  // The parser loads only when a settings file exists (most starts have one at most).
  const { parse, printParseErrorCode } = jsonc();
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
    return file(true);
  }
  if (parsed === undefined || parsed === null || text.trim() === '') return file(true);
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    warnings.push({
      source: filePath,
      key: '',
      message: 'must contain a JSON object ({ ... }); the whole file was ignored.',
    });
    return file(true);
  }
  return file(true, parsed as Record<string, unknown>);
}

function settingsFromEnvironment(
  env: NodeJS.ProcessEnv,
  warnings: SettingsWarning[],
  below: Settings,
): Settings {
  const settings: Settings = {};
  const model = modelFromEnvironment(env, below);
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
