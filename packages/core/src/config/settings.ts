/**
 * Loads and merges settings: user (~/.toolhost), project (<root>/.toolhost), system
 * (/etc/toolhost or $TOOLHOST_SYSTEM_SETTINGS_PATH), then environment, then flags, each
 * layer above the one before. A bad file or key never stops toolhost: it is reported as a
 * warning naming the file and the key, and left out.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ParseError, parse, printParseErrorCode } from 'jsonc-parser';
import { closestNames } from '../utils/closest-names.js';
import { pathToName, schemaProblems } from '../utils/schema-validator.js';
import {
  APPROVAL_MODES,
  type ApprovalMode,
  FLAT_ALIASES,
  SETTING_DEFAULTS,
  type Settings,
} from './settings-types.js';
import { isFolderTrusted } from './trusted-folders.js';

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

const SCHEMA_PATH = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../schemas/settings.schema.json',
);
let settingsSchema: Record<string, unknown> | undefined;

/** Where the settings JSON Schema is installed (for editors' `"$schema"`). */
export function settingsSchemaPath(): string {
  return SCHEMA_PATH;
}

/** The settings JSON Schema. */
export function getSettingsSchema(): Record<string, unknown> {
  settingsSchema ??= JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as Record<string, unknown>;
  return settingsSchema;
}

/** Keys whose lists add up across layers, so a project cannot undo a user's exclusion. */
const UNION_KEYS = new Set(['tools.exclude', 'mcp.excluded']);

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

/** Validates one layer against the schema, drops what is wrong, resolves aliases and $VARs. */
function checkLayer(
  raw: object,
  source: string,
  env: NodeJS.ProcessEnv,
  warnings: SettingsWarning[],
): Settings {
  const layer = structuredClone(raw) as Record<string, unknown>;
  const problems = schemaProblems(getSettingsSchema(), layer);
  // Remove deepest paths first so removing a parent does not hide a child's warning.
  const dropped = new Set<string>();
  for (const problem of problems.sort((a, b) => b.path.length - a.path.length)) {
    const key = pathToName(problem.path);
    if (dropped.has(key)) continue;
    dropped.add(key);
    warnings.push({ source, key, message: explainProblem(problem.path, problem.message) });
    removeAt(layer, problem.path);
  }
  resolveAliases(layer, source, warnings);
  return expandVariables(layer, env, source, warnings, []) as Settings;
}

function explainProblem(keyPath: string[], message: string): string {
  if (message === 'is not a known property') {
    const parentPath = keyPath.slice(0, -1);
    const known = knownKeysAt(parentPath);
    const suggestion = closestNames(keyPath[keyPath.length - 1] ?? '', known, 1)[0];
    const hint = suggestion ? ` Did you mean "${suggestion}"?` : '';
    return `is not a toolhost setting and was ignored.${hint}`;
  }
  return `${message}; this key was ignored. "toolhost settings schema" prints what each key takes (the schema file: ${SCHEMA_PATH}).`;
}

function knownKeysAt(keyPath: string[]): string[] {
  const schema = getSettingsSchema();
  const definitions = schema.definitions as Record<string, Record<string, unknown>>;
  const deref = (node: Record<string, unknown> | undefined) => {
    const ref = node?.$ref;
    return typeof ref === 'string' ? definitions[ref.replace('#/definitions/', '')] : node;
  };
  let node: Record<string, unknown> | undefined = schema;
  for (const segment of keyPath) {
    const props = node?.properties as Record<string, Record<string, unknown>> | undefined;
    const additional = node?.additionalProperties;
    node = deref(props?.[segment] ?? (isObject(additional) ? additional : undefined));
  }
  return Object.keys((node?.properties as object | undefined) ?? {});
}

function removeAt(target: Record<string, unknown>, keyPath: string[]): void {
  if (keyPath.length === 0) return;
  let node: unknown = target;
  for (const segment of keyPath.slice(0, -1)) {
    if (typeof node !== 'object' || node === null) return;
    node = (node as Record<string, unknown>)[segment];
  }
  if (typeof node === 'object' && node !== null) {
    const last = keyPath[keyPath.length - 1]!;
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete (node as Record<string, unknown>)[last];
  }
}

function resolveAliases(
  layer: Record<string, unknown>,
  source: string,
  warnings: SettingsWarning[],
): void {
  for (const [flat, [section, key]] of Object.entries(FLAT_ALIASES)) {
    if (!(flat in layer)) continue;
    const value = layer[flat];
    delete layer[flat];
    layer[section] ??= {};
    const group = layer[section] as Record<string, unknown>;
    if (key in group) {
      warnings.push({
        source,
        key: flat,
        message: `is the older name of ${section}.${key}, which is also set; ${section}.${key} was used.`,
      });
      continue;
    }
    group[key] = value;
  }
}

const VARIABLE = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g;

function expandVariables(
  value: unknown,
  env: NodeJS.ProcessEnv,
  source: string,
  warnings: SettingsWarning[],
  keyPath: string[],
): unknown {
  if (typeof value === 'string') {
    return value.replace(VARIABLE, (match, braced?: string, bare?: string) => {
      const name = (braced ?? bare)!;
      const resolved = env[name];
      if (resolved === undefined) {
        warnings.push({
          source,
          key: pathToName(keyPath),
          message: `refers to $${name}, which is not set in the environment; it was left as written.`,
        });
        return match;
      }
      return resolved;
    });
  }
  if (Array.isArray(value)) {
    return value.map((item, index) =>
      expandVariables(item, env, source, warnings, [...keyPath, String(index)]),
    );
  }
  if (typeof value === 'object' && value !== null) {
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      result[key] = expandVariables(item, env, source, warnings, [...keyPath, key]);
    }
    return result;
  }
  return value;
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

/** Deep-merges `upper` over `lower`: objects merge, lists are replaced (except UNION_KEYS). */
export function mergeSettings(lower: Settings, upper: Settings): Settings {
  return mergeObjects(
    lower as Record<string, unknown>,
    upper as Record<string, unknown>,
    '',
  ) as Settings;
}

function mergeObjects(
  lower: Record<string, unknown>,
  upper: Record<string, unknown>,
  prefix: string,
): Record<string, unknown> {
  const result: Record<string, unknown> = { ...lower };
  for (const [key, value] of Object.entries(upper)) {
    if (value === undefined) continue;
    const dotted = prefix ? `${prefix}.${key}` : key;
    const existing = result[key];
    if (UNION_KEYS.has(dotted) && Array.isArray(existing) && Array.isArray(value)) {
      result[key] = [...new Set([...existing, ...value])];
    } else if (isObject(existing) && isObject(value)) {
      result[key] = mergeObjects(existing, value, dotted);
    } else {
      result[key] = value;
    }
  }
  return result;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return { line, column };
}
