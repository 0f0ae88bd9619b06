/**
 * Completion of `@` paths: the workspace's files and folders as the file tools see them
 * (ignore files respected, `.git` left out), listed once in the background and again when
 * the list is older than a few seconds, and ranked against what was typed. MCP servers'
 * resources complete as `@server:uri`.
 */
import path from 'node:path';
import type { Config } from '@toolhost/core/config';
import { SETTING_DEFAULTS } from '@toolhost/core/config';
import { escapePath } from '@toolhost/core/conversation';
import { listFiles } from '@toolhost/core/files';
import type { ToolRegistry } from '@toolhost/core/tools';
import { ignoreFlags } from '@toolhost/core/tools';
import type { Suggestion } from './prompt-editor.js';

const MAX_SUGGESTIONS = 12;
const STALE_AFTER_MS = 5_000;

export class WorkspacePaths {
  private entries: string[] = [];
  private listedAt = 0;
  private listing: Promise<void> | undefined;

  constructor(private readonly config: Config) {}

  /** Files and folders (with a trailing `/`) relative to the project root. */
  async list(): Promise<readonly string[]> {
    if (Date.now() - this.listedAt > STALE_AFTER_MS) this.refresh();
    if (this.listedAt === 0) await this.listing;
    return this.entries;
  }

  private refresh(): void {
    if (this.listing) return;
    this.listing = this.load()
      .then((entries) => {
        this.entries = entries;
      })
      .catch(() => undefined)
      .finally(() => {
        this.listedAt = Date.now();
        this.listing = undefined;
      });
  }

  private async load(): Promise<string[]> {
    const root = this.config.targetDir;
    const roots = this.config.workspace.roots;
    // context.fileFiltering: the settings' ignore files, and (enableRecursiveFileSearch
    // false) only the project's top folder, for very large trees.
    const files = await listFiles(root, {
      roots,
      ...ignoreFlags(undefined, this.config),
      recursive:
        this.config.settings.context?.fileFiltering?.enableRecursiveFileSearch ??
        SETTING_DEFAULTS.context.fileFiltering.enableRecursiveFileSearch,
    });
    const folders = new Set<string>();
    const relativeFiles: string[] = [];
    for (const file of files) {
      const relative = path.relative(root, file).split(path.sep).join('/');
      if (relative.startsWith('../')) continue;
      relativeFiles.push(relative);
      for (
        let slash = relative.indexOf('/');
        slash !== -1;
        slash = relative.indexOf('/', slash + 1)
      ) {
        folders.add(`${relative.slice(0, slash)}/`);
      }
    }
    return [...folders, ...relativeFiles].sort();
  }
}

/**
 * Ranks paths against what follows the `@`: a path that starts with it first (the
 * folder's own entries before deeper ones), then one whose file name starts with it,
 * then one containing it; ties go to the shorter path.
 */
export function rankPaths(typed: string, entries: readonly string[]): string[] {
  const wanted = typed.toLowerCase();
  const scored: { entry: string; score: number }[] = [];
  for (const entry of entries) {
    const lower = entry.toLowerCase();
    let score: number;
    if (lower.startsWith(wanted)) {
      const rest = lower.slice(wanted.length).replace(/\/$/, '');
      // Children of the typed folder first, then deeper entries.
      score = rest.includes('/') ? 1 : 0;
    } else if (baseName(lower).startsWith(wanted)) score = 2;
    else if (wanted && lower.includes(wanted)) score = 3;
    else continue;
    scored.push({ entry, score });
  }
  scored.sort(
    (a, b) =>
      a.score - b.score || a.entry.length - b.entry.length || a.entry.localeCompare(b.entry),
  );
  return scored.map((item) => item.entry);
}

function baseName(entry: string): string {
  const trimmed = entry.endsWith('/') ? entry.slice(0, -1) : entry;
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** Suggestions for what follows an `@`: paths, and `server:uri` of MCP resources. */
export async function suggestAtPaths(
  typed: string,
  paths: WorkspacePaths,
  registry: ToolRegistry,
): Promise<Suggestion[]> {
  const resources = registry.getMcpServers().flatMap((server) =>
    server.resources.map((resource) => ({
      target: `${server.alias}:${resource.uri}`,
      description: resource.description ?? resource.name,
    })),
  );
  const matchingResources = resources.filter((resource) =>
    resource.target.toLowerCase().includes(typed.toLowerCase()),
  );
  const ranked = rankPaths(typed, await paths.list()).slice(0, MAX_SUGGESTIONS);
  return [
    ...ranked.map((entry) => ({
      // A folder keeps the menu open for its entries; a file ends the reference.
      value: `@${escapePath(entry)}${entry.endsWith('/') ? '' : ' '}`,
      label: entry,
    })),
    ...matchingResources.slice(0, MAX_SUGGESTIONS - ranked.length).map((resource) => ({
      value: `@${escapePath(resource.target)} `,
      label: resource.target,
      description: resource.description,
    })),
  ];
}
