/**
 * Extensions: Gemini CLI and Qwen Code extensions and Claude Code plugins the person
 * installed with `toolhost extensions`, each a folder in ~/.toolhost/extensions. This
 * folder owns reading them (manifest.ts, in each owner's format), deciding which are on
 * (enablement.ts), what each adds (contributions.ts: MCP servers, hooks, excluded tools,
 * context files, command, agent and skill folders), naming conflicts, and installing them
 * (install.ts, sources.ts, marketplace.ts). It hands the rest of toolhost a settings layer
 * below the person's own files (servers, hooks, exclusions) and the folders the memory,
 * command, subagent and skill loaders read; it never loads an extension because a folder
 * sits in a project, and it reads an extension's files only inside its folder.
 */
import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { HooksSettings, McpServerSettings, Settings } from '../contract/settings-types.js';
import { isObject } from '../utils/json-schema.js';
import { mergeSettings } from '../utils/settings-values.js';
import { contributionsOf, type ExtensionContributions } from './contributions.js';
import { enablementOf } from './enablement.js';
import {
  EXTENSION_NAME,
  extensionsDir,
  INSTALL_METADATA_FILE,
  listFolder,
} from './extension-files.js';
import { type ExtensionManifest, readManifest } from './manifest.js';

export type InstallType = 'local' | 'git' | 'npm' | 'marketplace' | 'link';

/** `.toolhost-extension-install.json`: what was installed from where, and when. */
export interface InstallMetadata {
  source: string;
  type: InstallType;
  ref?: string;
  /** The commit a git source was at. */
  commit?: string;
  /** For a plugin installed from a marketplace: the marketplace and the plugin's name. */
  marketplace?: string;
  plugin?: string;
  installedAt: string;
}

export interface InstalledExtension {
  /** Its folder's name in ~/.toolhost/extensions. */
  name: string;
  folder: string;
  /** Where its files really are (a linked extension's are in the person's own folder). */
  root: string;
  metadata?: InstallMetadata;
  manifest?: ExtensionManifest;
  /** Why it cannot be used (no manifest, unreadable...). */
  problem?: string;
  enabled: boolean;
  /** Which choice turned it on or off. */
  enabledBy: 'default' | 'user' | 'workspace';
}

export interface ActiveExtension extends InstalledExtension {
  manifest: ExtensionManifest;
  contributions: ExtensionContributions;
}

export interface LoadedExtensions {
  /** Every installed extension, in name order. */
  all: InstalledExtension[];
  /** The enabled ones that can be used, in name order (the first wins a conflict). */
  active: ActiveExtension[];
  /** What they add to settings: mcpServers, hooks, tools.exclude (below the person's files). */
  layer: Settings;
  warnings: string[];
}

export const NO_EXTENSIONS: LoadedExtensions = { all: [], active: [], layer: {}, warnings: [] };

export function readInstallMetadata(folder: string): InstallMetadata | undefined {
  try {
    const parsed: unknown = JSON.parse(
      readFileSync(path.join(folder, INSTALL_METADATA_FILE), 'utf8'),
    );
    return isObject(parsed) && typeof parsed.source === 'string' && typeof parsed.type === 'string'
      ? (parsed as unknown as InstallMetadata)
      : undefined;
  } catch {
    return undefined;
  }
}

/** One installed extension as it stands, without its contributions. */
export function readInstalled(
  userDir: string,
  name: string,
  workspaceRoot: string,
  warnings: string[] = [],
): InstalledExtension {
  const folder = path.join(extensionsDir(userDir), name);
  const metadata = readInstallMetadata(folder);
  const { enabled, by } = enablementOf(userDir, name, workspaceRoot);
  const base = {
    name,
    folder,
    root: folder,
    enabled,
    enabledBy: by,
    ...(metadata ? { metadata } : {}),
  };
  let root: string;
  try {
    root = realpathSync(metadata?.type === 'link' ? metadata.source : folder);
  } catch {
    return {
      ...base,
      problem:
        metadata?.type === 'link'
          ? `its linked folder ${metadata.source} is missing`
          : 'its folder cannot be read',
    };
  }
  const manifest = readManifest(root, warnings);
  if (typeof manifest === 'string') return { ...base, root, problem: manifest };
  return { ...base, root, manifest };
}

/**
 * The installed extensions and what the enabled ones add in `workspaceRoot`.
 * `settingsServers`: the server aliases the person's settings define (they win).
 */
export function loadExtensions(
  userDir: string,
  workspaceRoot: string,
  settingsServers: readonly string[] = [],
): LoadedExtensions {
  const warnings: string[] = [];
  const all = listFolder(extensionsDir(userDir))
    .filter((name) => EXTENSION_NAME.test(name))
    .map((name) => readInstalled(userDir, name, workspaceRoot, warnings));
  const active: ActiveExtension[] = [];
  for (const extension of all) {
    if (!extension.enabled) continue;
    if (extension.problem || !extension.manifest) {
      warnings.push(`extension "${extension.name}" cannot be used: ${extension.problem}`);
      continue;
    }
    const contributions = contributionsOf(
      extension.root,
      extension.manifest,
      workspaceRoot,
      warnings,
    );
    active.push({ ...extension, manifest: extension.manifest, contributions });
  }
  const mcpServers: Record<string, McpServerSettings> = {};
  const serverOwner = new Map<string, string>();
  let hooks: HooksSettings = {};
  const exclude: string[] = [];
  for (const extension of active) {
    const { contributions } = extension;
    for (const [alias, server] of Object.entries(contributions.mcpServers)) {
      if (settingsServers.includes(alias)) {
        warnings.push(
          `MCP server "${alias}" of extension "${extension.name}" is not used: your settings define a server of that name, and settings win over extensions.`,
        );
        continue;
      }
      const owner = serverOwner.get(alias);
      if (owner) {
        warnings.push(
          `MCP server "${alias}" is offered by extensions "${owner}" and "${extension.name}"; "${owner}"'s is used (the first by name), "${extension.name}"'s is not.`,
        );
        continue;
      }
      serverOwner.set(alias, extension.name);
      mcpServers[alias] = server;
    }
    hooks = mergeSettings({ hooks }, { hooks: contributions.hooks }).hooks ?? {};
    exclude.push(...contributions.excludeTools);
  }
  const layer: Settings = {
    ...(Object.keys(mcpServers).length > 0 ? { mcpServers } : {}),
    ...(Object.keys(hooks).length > 0 ? { hooks } : {}),
    ...(exclude.length > 0 ? { tools: { exclude: [...new Set(exclude)] } } : {}),
  };
  return { all, active, layer, warnings };
}

/** The extension an MCP server alias came from, for messages and listings. */
export function extensionOfServer(
  extensions: LoadedExtensions,
  alias: string,
): ActiveExtension | undefined {
  return extensions.active.find((extension) => alias in extension.contributions.mcpServers);
}
