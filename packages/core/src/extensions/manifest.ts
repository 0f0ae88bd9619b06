/**
 * Reads an extension folder's manifest in its owner's format: Qwen Code's
 * `qwen-extension.json`, Gemini CLI's `gemini-extension.json` (name, version, mcpServers,
 * contextFileName, excludeTools, settings) or Claude Code's `.claude-plugin/plugin.json`
 * (name, version, description; its servers in `.mcp.json` or `mcpServers`, its hooks in
 * `hooks/hooks.json` or `hooks`, extra command and agent folders). What the manifest
 * declares, before any `${...}` is put in (contributions.ts does that).
 */
import path from 'node:path';
import type { HooksSettings, McpServerSettings } from '../contract/settings-types.js';
import { isObject } from '../utils/json-schema.js';
import { EXTENSION_NAME, readInside } from './extension-files.js';

export type ExtensionFormat = 'qwen' | 'gemini' | 'claude';

/** A value the extension asks the person for at install, kept in its own `.env`. */
export interface DeclaredSetting {
  name: string;
  description: string;
  envVar: string;
  sensitive: boolean;
}

export interface ExtensionManifest {
  name: string;
  version: string;
  description?: string;
  format: ExtensionFormat;
  /** The manifest file read. */
  file: string;
  mcpServers: Record<string, McpServerSettings>;
  /** Context (memory) files, relative to the extension's folder. */
  contextFileNames: string[];
  excludeTools: string[];
  settings: DeclaredSetting[];
  hooks: HooksSettings;
  /** Folders of commands, agents and skills, relative to the extension's folder. */
  commandFolders: string[];
  agentFolders: string[];
  skillFolders: string[];
}

const MANIFESTS: [ExtensionFormat, string][] = [
  ['qwen', 'qwen-extension.json'],
  ['gemini', 'gemini-extension.json'],
  ['claude', path.join('.claude-plugin', 'plugin.json')],
];

/** The manifest in `folder` (a real path), or what is wrong with it. */
export function readManifest(folder: string, warnings: string[]): ExtensionManifest | string {
  for (const [format, name] of MANIFESTS) {
    const file = path.join(folder, name);
    const read = readJson(folder, file);
    if (read === undefined) continue;
    if (typeof read === 'string') return read;
    return format === 'claude'
      ? claudeManifest(folder, file, read, warnings)
      : geminiManifest(folder, file, format, read, warnings);
  }
  return `${folder} has no qwen-extension.json, gemini-extension.json or .claude-plugin/plugin.json: it is not an extension or plugin.`;
}

function readJson(root: string, file: string): Record<string, unknown> | string | undefined {
  const read = readInside(root, file);
  if (read === undefined) return undefined;
  if ('outside' in read)
    return `${file}: leads outside the extension (to ${read.outside}); it was not read.`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(read.text.replace(/^\uFEFF/, ''));
  } catch (error) {
    return `${file}: is not valid JSON (${(error as Error).message}).`;
  }
  return isObject(parsed) ? parsed : `${file}: must hold a JSON object ({ ... }).`;
}

function nameOf(file: string, data: Record<string, unknown>): string {
  const name = data.name;
  if (typeof name !== 'string' || !EXTENSION_NAME.test(name))
    throw new ManifestError(
      `${file}: needs a "name" of letters, digits, ".", "-" and "_" (at most 64, not starting with "."), got ${JSON.stringify(name)}.`,
    );
  return name;
}

class ManifestError extends Error {}

function geminiManifest(
  folder: string,
  file: string,
  format: ExtensionFormat,
  data: Record<string, unknown>,
  warnings: string[],
): ExtensionManifest | string {
  try {
    const name = nameOf(file, data);
    const contextFile = data.contextFileName;
    const contextFileNames =
      typeof contextFile === 'string'
        ? [contextFile]
        : Array.isArray(contextFile)
          ? contextFile.filter((entry): entry is string => typeof entry === 'string')
          : [format === 'qwen' ? 'QWEN.md' : 'GEMINI.md'];
    return {
      name,
      version: typeof data.version === 'string' ? data.version : '0.0.0',
      ...(typeof data.description === 'string' ? { description: data.description } : {}),
      format,
      file,
      mcpServers: serverMap(file, data.mcpServers, warnings),
      contextFileNames,
      excludeTools: stringList(data.excludeTools),
      settings: declaredSettings(file, data.settings, warnings),
      hooks: hooksFile(folder, path.join(folder, 'hooks', 'hooks.json'), warnings),
      commandFolders: ['commands'],
      agentFolders: ['agents'],
      skillFolders: ['skills'],
    };
  } catch (error) {
    if (error instanceof ManifestError) return error.message;
    throw error;
  }
}

function claudeManifest(
  folder: string,
  file: string,
  data: Record<string, unknown>,
  warnings: string[],
): ExtensionManifest | string {
  try {
    const name = nameOf(file, data);
    // Servers: `mcpServers` (a map, or a file) in plugin.json, else the plugin's .mcp.json.
    let servers: unknown = data.mcpServers;
    if (typeof servers === 'string') servers = serversFile(folder, servers, warnings);
    else if (servers === undefined) servers = serversFile(folder, '.mcp.json', warnings);
    const hooks =
      isObject(data.hooks) && isObject(data.hooks.hooks)
        ? (data.hooks.hooks as HooksSettings)
        : isObject(data.hooks) && !('hooks' in data.hooks)
          ? (data.hooks as HooksSettings)
          : hooksFile(
              folder,
              path.join(folder, typeof data.hooks === 'string' ? data.hooks : 'hooks/hooks.json'),
              warnings,
            );
    return {
      name,
      version: typeof data.version === 'string' ? data.version : '0.0.0',
      ...(typeof data.description === 'string' ? { description: data.description } : {}),
      format: 'claude',
      file,
      mcpServers: serverMap(file, servers, warnings),
      contextFileNames: [],
      excludeTools: [],
      settings: [],
      hooks,
      // Paths in plugin.json add to the default folders.
      commandFolders: ['commands', ...stringList(data.commands)],
      agentFolders: ['agents', ...stringList(data.agents)],
      skillFolders: ['skills', ...stringList(data.skills)],
    };
  } catch (error) {
    if (error instanceof ManifestError) return error.message;
    throw error;
  }
}

/** `.mcp.json`: `{ "mcpServers": { ... } }`, or the map itself. */
function serversFile(folder: string, relative: string, warnings: string[]): unknown {
  const read = readJson(folder, path.join(folder, relative));
  if (read === undefined) return undefined;
  if (typeof read === 'string') {
    warnings.push(`${read} Its servers were left out.`);
    return undefined;
  }
  return isObject(read.mcpServers) ? read.mcpServers : read;
}

function hooksFile(folder: string, file: string, warnings: string[]): HooksSettings {
  const read = readJson(folder, file);
  if (read === undefined) return {};
  if (typeof read === 'string') {
    warnings.push(`${read} Its hooks were left out.`);
    return {};
  }
  const hooks = isObject(read.hooks) ? read.hooks : read;
  return hooks as HooksSettings;
}

function serverMap(
  file: string,
  value: unknown,
  warnings: string[],
): Record<string, McpServerSettings> {
  if (value === undefined) return {};
  if (!isObject(value)) {
    warnings.push(`${file}: "mcpServers" must be an object of servers by name; it was ignored.`);
    return {};
  }
  const servers: Record<string, McpServerSettings> = {};
  for (const [alias, server] of Object.entries(value)) {
    if (
      !isObject(server) ||
      (typeof server.command !== 'string' && !server.url && !server.httpUrl)
    ) {
      warnings.push(
        `${file}: server "${alias}" needs a "command" (or a "url"/"httpUrl"); it was left out.`,
      );
      continue;
    }
    // An extension cannot mark its own server as trusted: its calls ask like any other's.
    const { trust: _trust, type, ...rest } = server as McpServerSettings & { type?: unknown };
    // Claude Code's `.mcp.json` says `"type": "http"` beside `url` for streamable HTTP.
    if (type === 'http' && typeof rest.url === 'string' && !rest.httpUrl) {
      rest.httpUrl = rest.url;
      delete rest.url;
    }
    servers[alias] = rest;
  }
  return servers;
}

function declaredSettings(file: string, value: unknown, warnings: string[]): DeclaredSetting[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => {
    if (
      !isObject(entry) ||
      typeof entry.envVar !== 'string' ||
      !/^[A-Za-z_][A-Za-z0-9_]*$/.test(entry.envVar)
    ) {
      warnings.push(
        `${file}: each of "settings" needs "name" and an "envVar" (a variable name); one was left out.`,
      );
      return [];
    }
    return [
      {
        name: typeof entry.name === 'string' ? entry.name : entry.envVar,
        description: typeof entry.description === 'string' ? entry.description : '',
        envVar: entry.envVar,
        sensitive: entry.sensitive === true,
      },
    ];
  });
}

function stringList(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}
