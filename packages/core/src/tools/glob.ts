/**
 * glob: finds files by name pattern, newest changes first, so the files a person is
 * working on come up at the top.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/config.js';
import { type ListingEngine, listFiles } from '../utils/file-listing.js';
import { globMatcher } from '../utils/glob-match.js';
import {
  IGNORE_OPTION_PROPERTIES,
  type IgnoreOptionParams,
  ignoreFlags,
} from './ignore-options.js';
import { requireAbsolute } from './path-checks.js';
import {
  BaseTool,
  errorResult,
  Kind,
  ToolErrorType,
  type ToolLocation,
  type ToolResult,
} from './tools.js';

export interface GlobToolParams extends IgnoreOptionParams {
  pattern: string;
  path?: string;
  case_sensitive?: boolean;
}

export const MAX_GLOB_RESULTS = 1000;
const RECENT_MS = 24 * 60 * 60 * 1000;
const STAT_CONCURRENCY = 64;

const DESCRIPTION = `Finds files whose path matches a glob pattern, such as "**/*.ts", "src/**/*.{js,jsx}" or "docs/*.md". Patterns are matched against paths relative to the search folder; "*" does not cross "/" while "**" does. Matching ignores case unless case_sensitive is true.
Returns absolute paths: files changed in the last 24 hours first (newest first), then the rest in path order; at most ${MAX_GLOB_RESULTS}, with the number left over. Files excluded by .gitignore and .toolhostignore/.qwenignore are left out and counted.
Use grep_search to find files by their content.`;

export class GlobTool extends BaseTool<GlobToolParams> {
  static readonly Name = 'glob';

  constructor(
    private readonly config: Config,
    private readonly options: { engine?: ListingEngine } = {},
  ) {
    super(GlobTool.Name, 'Glob', DESCRIPTION, Kind.Search, {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'The glob pattern, e.g. "**/*.py".' },
        path: {
          type: 'string',
          description:
            'Absolute path of the folder to search in (default: every workspace folder).',
        },
        case_sensitive: { type: 'boolean', description: 'Match case exactly (default false).' },
        ...IGNORE_OPTION_PROPERTIES,
      },
      required: ['pattern'],
    });
  }

  protected override validateSemantics(params: GlobToolParams): string | null {
    if (params.pattern.trim() === '')
      return 'pattern must not be empty; send a glob such as "**/*.ts"';
    return params.path === undefined ? null : requireAbsolute('path', params.path, this.config);
  }

  override getDescription(params: GlobToolParams): string {
    return `Find files matching ${params.pattern}${params.path ? ` in ${this.config.workspace.relative(params.path)}` : ''}`;
  }

  override toolLocations(params: GlobToolParams): ToolLocation[] {
    return params.path ? [{ path: params.path }] : [];
  }

  async execute(params: GlobToolParams, signal: AbortSignal): Promise<ToolResult> {
    const folders = this.searchFolders(params);
    if ('error' in folders) return folders.error;

    const { respectGitIgnore, respectToolhostIgnore } = ignoreFlags(params);
    const matched = new Set<string>();
    let ignored = 0;
    for (const folder of folders) {
      const { pattern, literal } = this.relativePattern(params.pattern, folder);
      const matches = globMatcher(pattern, { caseSensitive: params.case_sensitive });
      const pick = (files: string[]) =>
        files.filter((file) => matches(path.relative(folder, file)));
      const listing = { roots: this.config.workspace.roots, signal, engine: this.options.engine };
      const anyIgnored = respectGitIgnore || respectToolhostIgnore;
      // The unfiltered listing runs alongside, only to count what the ignore rules left out.
      const [kept, everything] = await Promise.all([
        listFiles(folder, { ...listing, respectGitIgnore, respectToolhostIgnore }).then(pick),
        anyIgnored
          ? listFiles(folder, {
              ...listing,
              respectGitIgnore: false,
              respectToolhostIgnore: false,
            }).then(pick)
          : Promise.resolve([]),
      ]);
      for (const file of kept) matched.add(file);
      if (anyIgnored) ignored += Math.max(0, everything.length - kept.length);
      // A path like app/[id]/page.tsx names a real file even though it looks like a glob.
      if (literal && this.config.workspace.check(literal, 'read').ok && (await isFile(literal)))
        matched.add(literal);
    }
    if (signal.aborted)
      return errorResult(ToolErrorType.EXECUTION_FAILED, 'The search was cancelled.');

    const sorted = await sortByRecency([...matched]);
    const shown = sorted.slice(0, MAX_GLOB_RESULTS);
    const where = params.path ?? this.config.workspace.roots.join(', ');
    const ignoredNote =
      ignored > 0
        ? ` ${ignored} more matching file${ignored === 1 ? ' was' : 's were'} left out by .gitignore/.toolhostignore rules.`
        : '';
    if (shown.length === 0) {
      const text = `No files match "${params.pattern}" in ${where}.${ignoredNote}`;
      return { llmContent: text, returnDisplay: 'No files found' };
    }
    const more =
      sorted.length > shown.length
        ? `\n(${sorted.length - shown.length} more files match; use a narrower pattern or path to see them.)`
        : '';
    const header = `Found ${sorted.length} file${sorted.length === 1 ? '' : 's'} matching "${params.pattern}" in ${where}, files changed in the last 24 hours first.${ignoredNote}`;
    return {
      llmContent: `${header}\n${shown.join('\n')}${more}`,
      returnDisplay: `Found ${sorted.length} file${sorted.length === 1 ? '' : 's'}${ignored ? ` (${ignored} ignored)` : ''}`,
    };
  }

  private searchFolders(params: GlobToolParams): string[] | { error: ToolResult } {
    if (params.path === undefined) return [...this.config.workspace.roots];
    const check = this.config.workspace.check(params.path, 'read');
    if (!check.ok)
      return { error: errorResult(ToolErrorType.PATH_NOT_IN_WORKSPACE, check.message) };
    return [check.realPath];
  }

  /** An absolute pattern inside the folder becomes relative; also returns the literal file it may name. */
  private relativePattern(
    pattern: string,
    folder: string,
  ): { pattern: string; literal: string | null } {
    const absolute = path.isAbsolute(pattern) ? pattern : path.join(folder, pattern);
    const relative = path.isAbsolute(pattern) ? path.relative(folder, pattern) : pattern;
    return { pattern: relative.replace(/^\.\//, ''), literal: absolute };
  }
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** Recently changed files first (newest first), then the rest by path. */
async function sortByRecency(files: string[]): Promise<string[]> {
  const times = new Map<string, number>();
  for (let i = 0; i < files.length; i += STAT_CONCURRENCY) {
    await Promise.all(
      files.slice(i, i + STAT_CONCURRENCY).map(async (file) => {
        try {
          times.set(file, (await stat(file)).mtimeMs);
        } catch {
          times.set(file, 0);
        }
      }),
    );
  }
  const now = Date.now();
  const recent = (file: string) => now - (times.get(file) ?? 0) < RECENT_MS;
  return files.sort((a, b) => {
    const ra = recent(a);
    const rb = recent(b);
    if (ra && rb) return (times.get(b) ?? 0) - (times.get(a) ?? 0) || (a < b ? -1 : 1);
    if (ra !== rb) return ra ? -1 : 1;
    return a < b ? -1 : a > b ? 1 : 0;
  });
}
