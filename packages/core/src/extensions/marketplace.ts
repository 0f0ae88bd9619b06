/**
 * Claude Code marketplaces: a folder or git repository with `.claude-plugin/marketplace.json`
 * (`name`, `plugins`: each a `name` and a `source`, a path inside the marketplace or a git
 * repository as `{ "source": "github", "repo" }` / `{ "source": "url" | "git", "url" }`).
 * Added ones are kept in ~/.toolhost/extension-marketplaces.json (a git one cloned into
 * ~/.toolhost/marketplaces/<name>), so `<marketplace>:<plugin>` installs a plugin by name.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { isObject } from '../utils/json-schema.js';
import { writeOwnFile } from '../utils/own-files.js';
import {
  EXTENSION_NAME,
  MARKETPLACES_FILE,
  MARKETPLACES_FOLDER,
  readInside,
} from './extension-files.js';
import { cloneGit, ExtensionSourceError, isGitUrl, moveFolder, pullGit } from './sources.js';

export const MARKETPLACE_FILE = path.join('.claude-plugin', 'marketplace.json');

export interface AddedMarketplace {
  name: string;
  /** What the person added: a folder or a git URL. */
  source: string;
  type: 'local' | 'git';
  /** Where its files are. */
  dir: string;
  addedAt: string;
}

export interface MarketplacePlugin {
  name: string;
  description?: string;
  /** A folder inside the marketplace, or a git repository. */
  source: { dir: string } | { git: string; ref?: string };
}

function registryFile(userDir: string): string {
  return path.join(userDir, MARKETPLACES_FILE);
}

export function addedMarketplaces(userDir: string): AddedMarketplace[] {
  try {
    const parsed: unknown = JSON.parse(readFileSync(registryFile(userDir), 'utf8'));
    return isObject(parsed) ? (Object.values(parsed) as AddedMarketplace[]) : [];
  } catch {
    return [];
  }
}

async function saveMarketplaces(userDir: string, list: AddedMarketplace[]): Promise<void> {
  const byName = Object.fromEntries(list.map((entry) => [entry.name, entry]));
  await writeOwnFile(userDir, registryFile(userDir), `${JSON.stringify(byName, null, 2)}\n`);
}

/** The marketplace in `dir`: its name and plugins, or what is wrong with it. */
export function readMarketplace(dir: string): { name: string; plugins: MarketplacePlugin[] } {
  const file = path.join(dir, MARKETPLACE_FILE);
  const read = readInside(dir, file);
  if (!read)
    throw new ExtensionSourceError(`${dir} has no ${MARKETPLACE_FILE}: it is not a marketplace.`);
  if ('outside' in read)
    throw new ExtensionSourceError(`${file} leads outside the marketplace (to ${read.outside}).`);
  let data: unknown;
  try {
    data = JSON.parse(read.text);
  } catch (error) {
    throw new ExtensionSourceError(`${file} is not valid JSON (${(error as Error).message}).`);
  }
  if (!isObject(data) || typeof data.name !== 'string' || !EXTENSION_NAME.test(data.name))
    throw new ExtensionSourceError(`${file} needs a "name" (letters, digits, ".", "-", "_").`);
  const pluginRoot =
    isObject(data.metadata) && typeof data.metadata.pluginRoot === 'string'
      ? data.metadata.pluginRoot
      : '.';
  const plugins = (Array.isArray(data.plugins) ? data.plugins : []).flatMap(
    (entry): MarketplacePlugin[] => {
      if (!isObject(entry) || typeof entry.name !== 'string') return [];
      const source = pluginSource(dir, pluginRoot, entry.source);
      if (!source) return [];
      return [
        {
          name: entry.name,
          ...(typeof entry.description === 'string' ? { description: entry.description } : {}),
          source,
        },
      ];
    },
  );
  return { name: data.name, plugins };
}

function pluginSource(
  dir: string,
  pluginRoot: string,
  source: unknown,
): MarketplacePlugin['source'] | undefined {
  if (typeof source === 'string') {
    if (isGitUrl(source)) return { git: source };
    return {
      dir: path.resolve(dir, source.startsWith('./') ? source : path.join(pluginRoot, source)),
    };
  }
  if (!isObject(source)) return undefined;
  const ref = typeof source.ref === 'string' ? { ref: source.ref } : {};
  if (source.source === 'github' && typeof source.repo === 'string')
    return { git: `https://github.com/${source.repo}.git`, ...ref };
  if (typeof source.url === 'string') return { git: source.url, ...ref };
  return undefined;
}

/** Adds a marketplace from a folder or a git URL (cloned into toolhost's folder). */
export async function addMarketplace(userDir: string, given: string): Promise<AddedMarketplace> {
  // `owner/repo` is a GitHub repository, as Claude Code and Qwen Code read it.
  const source =
    !existsSync(given) && /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/.test(given)
      ? `https://github.com/${given}.git`
      : given;
  const local = !isGitUrl(source) && existsSync(source);
  let dir: string;
  let name: string;
  if (local) {
    dir = path.resolve(source);
    name = readMarketplace(dir).name;
  } else if (isGitUrl(source)) {
    const clone = cloneGit(source, undefined).dir;
    try {
      name = readMarketplace(clone).name;
    } catch (error) {
      rmSync(path.dirname(clone), { recursive: true, force: true });
      throw error;
    }
    dir = path.join(userDir, MARKETPLACES_FOLDER, name);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
    moveFolder(clone, dir);
    rmSync(path.dirname(clone), { recursive: true, force: true });
  } else {
    throw new ExtensionSourceError(
      `${source} is neither a folder nor a git URL; give the marketplace's folder or its repository's URL.`,
    );
  }
  const entry: AddedMarketplace = {
    name,
    source,
    type: local ? 'local' : 'git',
    dir,
    addedAt: new Date().toISOString(),
  };
  const others = addedMarketplaces(userDir).filter((added) => added.name !== name);
  await saveMarketplaces(userDir, [...others, entry]);
  return entry;
}

export async function removeMarketplace(userDir: string, name: string): Promise<boolean> {
  const list = addedMarketplaces(userDir);
  const entry = list.find((added) => added.name === name);
  if (!entry) return false;
  if (entry.type === 'git') rmSync(entry.dir, { recursive: true, force: true });
  await saveMarketplaces(
    userDir,
    list.filter((added) => added !== entry),
  );
  return true;
}

/**
 * The marketplace `reference` names: an added one's name, a folder, or a git URL (cloned
 * for this install). `refresh` brings an added git marketplace up to date first.
 */
export function openMarketplace(
  userDir: string,
  reference: string,
  refresh = false,
): { dir: string; name: string; plugins: MarketplacePlugin[]; cloned?: boolean } | undefined {
  const added = addedMarketplaces(userDir).find((entry) => entry.name === reference);
  if (added) {
    if (refresh && added.type === 'git') pullGit(added.dir);
    return { dir: added.dir, ...readMarketplace(added.dir) };
  }
  if (isGitUrl(reference)) {
    const dir = cloneGit(reference, undefined).dir;
    try {
      return { dir, ...readMarketplace(dir), cloned: true };
    } catch (error) {
      rmSync(path.dirname(dir), { recursive: true, force: true });
      throw error;
    }
  }
  if (existsSync(path.join(reference, MARKETPLACE_FILE))) {
    const dir = path.resolve(reference);
    return { dir, ...readMarketplace(dir) };
  }
  return undefined;
}
