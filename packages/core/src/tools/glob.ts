/**
 * glob: finds files by name pattern, newest changes first, so the files a person is
 * working on come up at the top.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/config.js';
import { deniedFileTest } from '../permissions/call-rules.js';
import type { BoundedSorted } from '../utils/bounded-sorted.js';
import type { ListFilesOptions, ListingEngine } from '../utils/file-listing.js';
import type * as GlobMatch from '../utils/glob-match.js';
import { IgnoreRules } from '../utils/ignore-rules.js';
import type { IgnoreFlags } from '../utils/ripgrep.js';
import { isWithin } from '../workspace/workspace-context.js';
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

const DESCRIPTION = `Finds files whose path matches a glob pattern, such as "**/*.ts", "src/**/*.{js,jsx}" or "docs/*.md". Patterns are matched against paths relative to the search folder; "*" does not cross "/" while "**" does. Matching ignores case unless case_sensitive is true.
Returns absolute paths: files changed in the last 24 hours first (newest first), then the rest in path order; at most ${MAX_GLOB_RESULTS}, with the number left over. Files excluded by .gitignore and .toolhostignore/.qwenignore are left out (respect_git_ignore / respect_qwen_ignore false includes them); when nothing matches, the result says how many ignored files would have.
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

    const flags = ignoreFlags(params, this.config);
    const anyIgnored = flags.respectGitIgnore || flags.respectToolhostIgnore;
    // The listing, the lookup of ripgrep and the glob matching load with the first search,
    // not with the tool.
    const [{ ripgrepPath }, { BoundedSorted }, globs] = await Promise.all([
      import('../utils/ripgrep.js'),
      import('../utils/bounded-sorted.js'),
      import('../utils/glob-match.js'),
    ]);
    const engine = this.options.engine ?? (ripgrepPath() ? 'ripgrep' : 'javascript');
    const denied = deniedFileTest(this.config, this.name);
    const found = new FoundFiles(
      BoundedSorted,
      folders.length > 1,
      MAX_GLOB_RESULTS,
      Date.now() - RECENT_MS,
    );
    const searches: GlobSearch[] = [];
    for (const folder of folders) {
      const search = this.planSearch(params, folder, engine, globs);
      searches.push(search);
      let literalFound = false;
      // Each file is stat'ed as the listing delivers it, while ripgrep walks on.
      await search.list({ ...flags, signal }, (file) => {
        if (file === search.literal) literalFound = true;
        if (!denied?.(file)) found.add(file);
      });
      // A path like app/[id]/page.tsx names a real file even though it looks like a glob.
      if (!literalFound && this.config.workspace.check(search.literal, 'read').ok)
        if (isFile(search.literal) && !denied?.(search.literal)) found.add(search.literal);
    }
    if (signal.aborted)
      return errorResult(ToolErrorType.EXECUTION_FAILED, 'The search was cancelled.');
    // Counting what the ignore rules left out means walking what they exclude (often a
    // large node_modules), so it is done only when it is the whole answer: nothing matched.
    let ignored = 0;
    if (found.size === 0 && anyIgnored) {
      for (const search of searches) {
        await search.list({ respectGitIgnore: false, respectToolhostIgnore: false, signal }, () => {
          ignored++;
        });
      }
    }

    const total = found.size;
    const shown = found.shown();
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
      total > shown.length
        ? `\n(${total - shown.length} more files match; use a narrower pattern or path to see them.)`
        : '';
    const header = `Found ${total} file${total === 1 ? '' : 's'} matching "${params.pattern}" in ${where}, files changed in the last 24 hours first.${anyIgnored ? ' Files excluded by ignore rules are not listed.' : ''}`;
    return {
      llmContent: `${header}\n${shown.join('\n')}${more}`,
      returnDisplay: `Found ${total} file${total === 1 ? '' : 's'}`,
    };
  }

  private searchFolders(params: GlobToolParams): string[] | { error: ToolResult } {
    if (params.path === undefined) return [...this.config.workspace.roots];
    const check = this.config.workspace.check(params.path, 'read');
    if (!check.ok)
      return { error: errorResult(ToolErrorType.PATH_NOT_IN_WORKSPACE, check.message) };
    return [check.realPath];
  }

  /**
   * How one folder is searched: ripgrep lists only the folder the pattern's literal part
   * names and only the file names its last part allows (never a file the ignore rules
   * leave out), and the whole pattern is then tested on that short list, unless ripgrep's
   * selection already is the pattern (`**\/*.ts`).
   */
  private planSearch(
    params: GlobToolParams,
    folder: string,
    engine: ListingEngine,
    /** The module, imported with the first search (see execute). */
    { globBase, globMatcher, globReachesSubfolders, ripgrepNameGlob }: typeof GlobMatch,
  ): GlobSearch {
    const absolute = path.isAbsolute(params.pattern);
    const relative = (absolute ? path.relative(folder, params.pattern) : params.pattern).replace(
      /^\.\//,
      '',
    );
    const literal = absolute ? params.pattern : path.join(folder, params.pattern);
    const caseSensitive = params.case_sensitive ?? false;
    const matches = globMatcher(relative, { caseSensitive });
    const nameGlob =
      engine === 'ripgrep' ? ripgrepNameGlob(relative, { caseSensitive }) : undefined;
    const selectedByName = nameGlob !== undefined && /^(\*\*\/)?[^/]*$/.test(relative);
    const needsFilter = !(selectedByName && relative.startsWith('**/'));
    const base = existingBase(folder, globBase(relative), caseSensitive);
    const roots = this.config.workspace.roots;
    // ripgrep searches a folder it is pointed at even when the ignore rules exclude it, so a
    // narrowed listing must not start inside an ignored folder.
    const ignoredOnTheWay = (options: IgnoreFlags) => {
      if (base === undefined || base === folder) return false;
      const rules = new IgnoreRules(roots, options);
      for (let dir = base; dir !== folder && isWithin(folder, dir); dir = path.dirname(dir)) {
        if (rules.isIgnored(dir, true)) return true;
      }
      return false;
    };
    return {
      literal,
      list: async (options, onFile) => {
        if (base === undefined || ignoredOnTheWay(options)) return;
        const prefixLength = folder.endsWith(path.sep) ? folder.length : folder.length + 1;
        const { listFiles } = await import('../utils/file-listing.js');
        await listFiles(base, {
          ...options,
          roots,
          engine,
          nameGlob,
          recursive: globReachesSubfolders(relative),
          onFile: needsFilter
            ? (file) => {
                if (matches(file.slice(prefixLength))) onFile(file);
              }
            : onFile,
        });
      },
    };
  }
}

interface GlobSearch {
  /** The file the pattern names if read as a plain path. */
  literal: string;
  /** Hands each matching file under the folder to `onFile` as the listing finds it. */
  list(
    options: Pick<ListFilesOptions, 'respectGitIgnore' | 'respectToolhostIgnore' | 'signal'>,
    onFile: (file: string) => void,
  ): Promise<void>;
}

/**
 * The folder under `folder` that a glob's literal part names (`src/app` for
 * `src/app/**\/*.ts`), so only it is listed; `folder` itself when the part is empty or
 * leads outside, undefined when no such folder exists. Without case sensitivity each
 * step must be unambiguous (one entry of that name in any case), or the listing stops
 * narrowing there.
 */
function existingBase(folder: string, base: string, caseSensitive: boolean): string | undefined {
  if (base === '' || base === '.') return folder;
  const steps = base.split('/');
  if (steps.includes('..')) return folder;
  let current = folder;
  for (const step of steps) {
    let entries: string[];
    try {
      entries = readdirSync(current);
    } catch {
      return undefined;
    }
    const candidates = caseSensitive
      ? entries.filter((entry) => entry === step)
      : entries.filter((entry) => entry.toLowerCase() === step.toLowerCase());
    if (candidates.length === 0) return undefined;
    if (candidates.length > 1) return current;
    const next = path.join(current, candidates[0]!);
    if (!isDirectory(next)) return undefined;
    current = next;
  }
  return current;
}

function isDirectory(file: string): boolean {
  return statSync(file, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

function isFile(file: string): boolean {
  return statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
}

/**
 * The files found: how many, and the ones that can be shown, in bounded memory whatever
 * the tree holds. Each file's modification time is taken with a synchronous stat as it
 * arrives (cached metadata answers in microseconds, less than a thread-pool round trip);
 * only the files recent enough to go first and the first older ones by path are kept.
 */
class FoundFiles {
  private count = 0;
  private readonly recent: BoundedSorted<{ file: string; time: number }>;
  private readonly older: BoundedSorted<string>;
  /** Only when several folders are searched can one file be found twice. */
  private readonly seen: Set<string> | undefined;

  /** `capacity` files can be shown; those changed since `recentSince` go first. */
  constructor(
    /** The class, imported with the first search (see execute). */
    Sorted: typeof BoundedSorted,
    mayRepeat: boolean,
    private readonly capacity: number,
    private readonly recentSince: number,
  ) {
    this.seen = mayRepeat ? new Set() : undefined;
    this.recent = new Sorted(capacity, (a, b) => b.time - a.time || byPath(a.file, b.file));
    this.older = new Sorted(capacity, byPath);
  }

  get size(): number {
    return this.count;
  }

  add(file: string): void {
    if (this.seen) {
      if (this.seen.has(file)) return;
      this.seen.add(file);
    }
    this.count++;
    let time = 0;
    try {
      time = statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    } catch {
      time = 0;
    }
    if (time > this.recentSince) this.recent.add({ file, time });
    else this.older.add(file);
  }

  /**
   * The files in the order the model sees them: those changed since `recentSince` newest
   * first (ties by path), then the rest by path.
   */
  shown(): string[] {
    const shown = this.recent.sorted().map(({ file }) => file);
    for (const file of this.older.sorted()) {
      if (shown.length >= this.capacity) break;
      shown.push(file);
    }
    return shown;
  }
}

function byPath(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
