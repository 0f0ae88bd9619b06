/**
 * What one enabled extension adds to a session, worked out from its manifest: its MCP
 * servers and hooks with `${extensionPath}`, `${CLAUDE_PLUGIN_ROOT}`, `${workspacePath}`,
 * `${/}` and `${pathSeparator}` put in (and its `.env` settings in each server's
 * environment), its context files, its command, agent and skill folders (each checked to lie
 * inside the extension), and the tools it excludes. Also the summary a person reads before
 * installing it.
 */
import path from 'node:path';
import {
  HOOK_EVENTS,
  type HookGroupSettings,
  type HooksSettings,
  type McpServerSettings,
} from '../contract/settings-types.js';
import { isObject } from '../utils/json-schema.js';
import { folderInside, listFolder, readInside, SETTINGS_ENV_FILE } from './extension-files.js';
import type { ExtensionManifest } from './manifest.js';

export interface ExtensionContributions {
  mcpServers: Record<string, McpServerSettings>;
  hooks: HooksSettings;
  /** Context files that exist, absolute. */
  contextFiles: string[];
  commandFolders: string[];
  agentFolders: string[];
  skillFolders: string[];
  excludeTools: string[];
}

export function contributionsOf(
  root: string,
  manifest: ExtensionManifest,
  workspaceRoot: string,
  warnings: string[],
): ExtensionContributions {
  const values: Record<string, string> = {
    extensionPath: root,
    CLAUDE_PLUGIN_ROOT: root,
    workspacePath: workspaceRoot,
    '/': path.sep,
    pathSeparator: path.sep,
  };
  const put = (text: string) =>
    text.replace(/\$\{([^}]+)\}/g, (whole, name: string) => values[name] ?? whole);
  const settingsEnv = readEnvFile(root);
  const mcpServers: Record<string, McpServerSettings> = {};
  for (const [alias, server] of Object.entries(manifest.mcpServers)) {
    const substituted = substitute(server, put) as McpServerSettings;
    const env = {
      ...settingsEnv,
      ...(manifest.format === 'claude' ? { CLAUDE_PLUGIN_ROOT: root } : {}),
      ...substituted.env,
    };
    mcpServers[alias] = { ...substituted, ...(Object.keys(env).length > 0 ? { env } : {}) };
  }
  const inside = (relative: string) => {
    const folder = path.resolve(root, relative);
    return folderInside(root, folder, warnings);
  };
  const folders = (list: string[]) =>
    [...new Set(list)].flatMap((relative) => inside(relative) ?? []);
  return {
    mcpServers,
    hooks: usableHooks(manifest, put, warnings),
    contextFiles: manifest.contextFileNames.flatMap((name) => {
      const file = path.resolve(root, name);
      return readInside(root, file) === undefined ? [] : [file];
    }),
    commandFolders: folders(manifest.commandFolders),
    agentFolders: folders(manifest.agentFolders),
    skillFolders: folders(manifest.skillFolders),
    excludeTools: manifest.excludeTools,
  };
}

function substitute(value: unknown, put: (text: string) => string): unknown {
  if (typeof value === 'string') return put(value);
  if (Array.isArray(value)) return value.map((item) => substitute(item, put));
  if (isObject(value))
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, substitute(item, put)]),
    );
  return value;
}

/** Command hooks of the events toolhost knows; anything else is named and left out. */
function usableHooks(
  manifest: ExtensionManifest,
  put: (text: string) => string,
  warnings: string[],
): HooksSettings {
  const hooks: HooksSettings = {};
  for (const [event, groups] of Object.entries(manifest.hooks)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event) || !Array.isArray(groups)) {
      warnings.push(
        `${manifest.name}: hook event "${event}" is not one toolhost runs (${HOOK_EVENTS.join(', ')}); its hooks were left out.`,
      );
      continue;
    }
    const usable: HookGroupSettings[] = [];
    for (const group of groups as unknown[]) {
      if (!isObject(group) || !Array.isArray(group.hooks)) continue;
      const commands = group.hooks.flatMap((hook) =>
        isObject(hook) && hook.type === 'command' && typeof hook.command === 'string'
          ? [
              {
                type: 'command' as const,
                command: put(hook.command),
                ...(typeof hook.timeout === 'number' ? { timeout: hook.timeout } : {}),
                name: `${manifest.name} (extension)`,
              },
            ]
          : [],
      );
      if (commands.length > 0)
        usable.push({
          ...(typeof group.matcher === 'string' ? { matcher: group.matcher } : {}),
          hooks: commands,
        });
    }
    if (usable.length > 0) hooks[event as keyof HooksSettings] = usable;
  }
  return hooks;
}

/** The extension's `.env`: KEY=VALUE lines (quotes around a value are taken off). */
export function readEnvFile(root: string): Record<string, string> {
  const read = readInside(root, path.join(root, SETTINGS_ENV_FILE));
  if (!read || !('text' in read)) return {};
  const env: Record<string, string> = {};
  for (const line of read.text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    let value = match[2]!.trim();
    if (/^(["']).*\1$/.test(value)) value = value.slice(1, -1);
    env[match[1]!] = value;
  }
  return env;
}

/** The lines a person reads before saying yes: every program it runs, every prompt it adds. */
export function describeContributions(
  manifest: ExtensionManifest,
  contributions: ExtensionContributions,
): string[] {
  const lines: string[] = [];
  for (const [alias, server] of Object.entries(contributions.mcpServers)) {
    const runs = server.command
      ? [server.command, ...(server.args ?? [])].join(' ')
      : (server.httpUrl ?? server.url ?? '');
    lines.push(`MCP server "${alias}": ${server.command ? 'runs' : 'connects to'} ${runs}`);
  }
  for (const [event, groups] of Object.entries(contributions.hooks))
    for (const group of groups as HookGroupSettings[])
      for (const hook of group.hooks)
        lines.push(
          `hook on ${event}${group.matcher ? ` (${group.matcher})` : ''}: runs ${hook.command}`,
        );
  const names = (folders: string[], pattern: RegExp, strip: RegExp) =>
    folders.flatMap((folder) =>
      listFolder(folder)
        .filter((entry) => pattern.test(entry))
        .map((entry) => entry.replace(strip, '')),
    );
  const commands = names(contributions.commandFolders, /\.(md|toml)$/i, /\.(md|toml)$/i);
  if (commands.length > 0) lines.push(`commands: ${commands.map((name) => `/${name}`).join(', ')}`);
  const agents = names(contributions.agentFolders, /\.md$/i, /\.md$/i);
  if (agents.length > 0) lines.push(`subagents: ${agents.join(', ')}`);
  const skills = names(contributions.skillFolders, /^[^.]/, /$/);
  if (skills.length > 0) lines.push(`skills: ${skills.join(', ')}`);
  for (const file of contributions.contextFiles) lines.push(`context file: ${file}`);
  if (contributions.excludeTools.length > 0)
    lines.push(`excluded tools: ${contributions.excludeTools.join(', ')}`);
  for (const setting of manifest.settings)
    lines.push(`setting asked for: ${setting.name} (${setting.envVar})`);
  return lines;
}
