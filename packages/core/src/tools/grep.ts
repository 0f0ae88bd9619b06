/** grep_search: finds lines matching a regular expression in the workspace's files. */
import { statSync } from 'node:fs';
import type { Config } from '../config/config.js';
import { deniedFileTest } from '../permissions/call-rules.js';
import { IgnoreRules } from '../utils/ignore-rules.js';
import { isWithin } from '../workspace/workspace-context.js';
import type { GrepEngineName, GrepMatch } from './grep-engines.js';
import { ignoreFlags } from './ignore-options.js';
import { requireAbsolute } from './path-checks.js';
import {
  BaseTool,
  errorResult,
  Kind,
  ToolErrorType,
  type ToolLocation,
  type ToolResult,
} from './tools.js';

export interface GrepToolParams {
  pattern: string;
  path?: string;
  glob?: string;
  limit?: number;
}

export const DEFAULT_GREP_LIMIT = 200;
/** Characters of match text the model gets before the output is cut. */
const OUTPUT_BUDGET = 20_000;

const DESCRIPTION = `Searches file contents for a regular expression (ripgrep syntax, e.g. "function\\s+\\w+", "TODO|FIXME") and returns matching lines grouped by file, with line numbers, in path order.
Case: the search ignores case unless the pattern contains an upper-case letter (smart case).
Files excluded by .gitignore and .toolhostignore/.qwenignore, binary files and .git are skipped. Narrow the search with path (a folder or file) and glob (e.g. "*.ts", "*.{ts,tsx}", "src/**/*.py"). At most limit matches are shown (default ${DEFAULT_GREP_LIMIT}); the total is always reported.`;

export class GrepTool extends BaseTool<GrepToolParams> {
  static readonly Name = 'grep_search';

  constructor(
    private readonly config: Config,
    private readonly options: { engine?: GrepEngineName } = {},
  ) {
    super(
      GrepTool.Name,
      'Grep',
      DESCRIPTION,
      Kind.Search,
      {
        type: 'object',
        properties: {
          pattern: { type: 'string', description: 'The regular expression to search for.' },
          path: {
            type: 'string',
            description:
              'Absolute path of a folder or file to search (default: every workspace folder).',
          },
          glob: {
            type: 'string',
            description: 'Only search files whose name or path matches, e.g. "*.{ts,tsx}".',
          },
          limit: {
            type: 'number',
            minimum: 1,
            description: `Most matching lines to return (default ${DEFAULT_GREP_LIMIT}).`,
          },
        },
        required: ['pattern'],
      },
      { parameterAliases: { include: 'glob' } },
    );
  }

  protected override validateSemantics(params: GrepToolParams): string | null {
    if (params.pattern === '') return 'pattern must not be empty';
    return params.path === undefined ? null : requireAbsolute('path', params.path, this.config);
  }

  override getDescription(params: GrepToolParams): string {
    const where = params.path ? ` in ${this.config.workspace.relative(params.path)}` : '';
    return `Search for /${params.pattern}/${where}${params.glob ? ` (${params.glob})` : ''}`;
  }

  override toolLocations(params: GrepToolParams): ToolLocation[] {
    return params.path ? [{ path: params.path }] : [];
  }

  async execute(params: GrepToolParams, signal: AbortSignal): Promise<ToolResult> {
    const targets = await this.targets(params);
    if ('error' in targets) return targets.error;
    // The engines (ripgrep, git, JavaScript) load with the first search: listing the tools
    // (`toolhost tools`, another tool's `call`) needs none of them.
    const [
      { chooseEngine, GrepPatternError, isCaseInsensitive, runGrepEngine },
      { confirmMatches },
      { BoundedSorted },
    ] = await Promise.all([
      import('./grep-engines.js'),
      import('./grep-confirm.js'),
      import('../utils/bounded-sorted.js'),
    ]);
    const limit = Math.max(1, Math.floor(params.limit ?? DEFAULT_GREP_LIMIT));
    const kept = new BoundedSorted<GrepMatch>(limit, compareMatches);
    // Every engine delivers a file's matches together, so counting files needs no set of
    // them (over a whole repository that set held every path) unless several roots
    // could share one.
    const files = new Set<string>();
    let fileCount = 0;
    let lastFile: string | undefined;
    const several = targets.length > 1;
    const ignoreCase = isCaseInsensitive(params.pattern);
    const ignore = ignoreFlags(undefined, this.config);
    const rules = new IgnoreRules(this.config.workspace.roots, ignore);
    const denied = deniedFileTest(this.config, this.name);
    const probe: GrepMatch = { file: '', line: 0, text: '' };
    const wouldShow = (file: string, line: number) => {
      probe.file = file;
      probe.line = line;
      return kept.wouldKeep(probe);
    };
    try {
      for (const target of targets) {
        const root = this.config.workspace.roots.find((r) => isWithin(r, target)) ?? target;
        const engine = await chooseEngine(
          this.options.engine,
          root,
          rules,
          ignore.respectGitIgnore,
        );
        const request = {
          root,
          roots: this.config.workspace.roots,
          ignore,
          target,
          pattern: params.pattern,
          ignoreCase,
          glob: params.glob,
          signal,
          wouldShow,
        };
        let delivered = 0;
        const countFile = (file: string) => {
          delivered++;
          if (file === lastFile) return;
          lastFile = file;
          if (!several) fileCount++;
          else if (!files.has(file)) {
            files.add(file);
            fileCount++;
          }
        };
        const sink = {
          match: (match: GrepMatch) => {
            if (denied?.(match.file)) return;
            countFile(match.file);
            kept.add(match);
          },
          hidden: (file: string) => {
            if (denied?.(file)) return;
            countFile(file);
            kept.skip();
          },
        };
        try {
          await runGrepEngine(engine, request, sink);
        } catch (error) {
          // git (chosen where ripgrep is missing) may refuse a repository (another owner,
          // a damaged index) before finding anything; the JavaScript engine then searches
          // the same files under the same rules.
          const retry = engine === 'git' && !this.options.engine && delivered === 0;
          if (error instanceof GrepPatternError || !retry) throw error;
          await runGrepEngine('javascript', request, sink);
        }
      }
    } catch (error) {
      if (error instanceof GrepPatternError) {
        return errorResult(
          ToolErrorType.INVALID_PATTERN,
          `The pattern ${JSON.stringify(params.pattern)} is not a valid regular expression (${patternProblem(error.message)}). Escape special characters (\\( \\[ \\. \\*) to search for them literally.`,
        );
      }
      throw error;
    }
    if (signal.aborted)
      return errorResult(ToolErrorType.EXECUTION_FAILED, 'The search was cancelled.');
    const confirmed = confirmMatches(kept.sorted(), (real) =>
      this.config.workspace.allowsRealPath(real, 'read'),
    );
    return this.format(
      params,
      confirmed,
      kept.total - confirmed.dropped.matches,
      fileCount - confirmed.dropped.files,
      ignoreCase,
    );
  }

  private async targets(params: GrepToolParams): Promise<string[] | { error: ToolResult }> {
    if (params.path === undefined) return [...this.config.workspace.roots];
    const check = this.config.workspace.check(params.path, 'read');
    if (!check.ok)
      return { error: errorResult(ToolErrorType.PATH_NOT_IN_WORKSPACE, check.message) };
    if (!exists(check.realPath)) {
      return {
        error: errorResult(
          ToolErrorType.SEARCH_PATH_NOT_FOUND,
          `${params.path} does not exist. Search a folder that exists, or leave path out to search the whole workspace.`,
        ),
      };
    }
    return [check.realPath];
  }

  private format(
    params: GrepToolParams,
    kept: { matches: GrepMatch[] },
    total: number,
    fileCount: number,
    ignoreCase: boolean,
  ): ToolResult {
    const scope = `${params.path ? ` in ${params.path}` : ''}${params.glob ? ` (files matching ${params.glob})` : ''}`;
    const caseNote = ignoreCase ? 'ignoring case' : 'matching case';
    if (total === 0) {
      const text = `No matches for /${params.pattern}/${scope} (${caseNote}).`;
      return { llmContent: text, returnDisplay: 'No matches found' };
    }
    const lines: string[] = [];
    let used = 0;
    let shown = 0;
    let currentFile = '';
    const matches = kept.matches;
    for (const match of matches) {
      const header =
        match.file === currentFile ? '' : `${this.config.workspace.relative(match.file)}\n`;
      const entry = `${header}  ${match.line}: ${match.text}`;
      if (used + entry.length > OUTPUT_BUDGET && shown > 0) break;
      lines.push(entry);
      used += entry.length;
      shown++;
      currentFile = match.file;
    }
    const summary = `Found ${total} match${total === 1 ? '' : 'es'} for /${params.pattern}/ in ${fileCount} file${fileCount === 1 ? '' : 's'}${scope} (${caseNote}).`;
    const cut =
      shown < total
        ? `\n\n[Showing the first ${shown} of ${total} matches in path order; ${total - shown} more not shown. Narrow the search with a more specific pattern, a path or a glob${shown < matches.length ? '' : ', or raise limit'}.]`
        : '';
    return {
      llmContent: `${summary}\n${lines.join('\n')}${cut}`,
      returnDisplay: `Found ${total} match${total === 1 ? '' : 'es'} in ${fileCount} file${fileCount === 1 ? '' : 's'}`,
    };
  }
}

/** Synchronous: one local stat costs less than a promise and a trip to the thread pool. */
function exists(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

function compareMatches(a: GrepMatch, b: GrepMatch): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.line - b.line;
}

/**
 * The one thing wrong with a pattern, from whichever engine reported it: ripgrep's
 * `error: unclosed group` (after a copy of the pattern and a caret line), git's
 * `fatal: command line, 'a(b': Unmatched ( or \(`, JavaScript's `Invalid regular
 * expression: /a(b/: Unterminated group`.
 */
export function patternProblem(engineMessage: string): string {
  const lines = engineMessage.split('\n').map((line) => line.trim());
  const stated =
    lines.find((line) => line.startsWith('error:'))?.slice('error:'.length) ??
    lines
      .find((line) => line.startsWith('fatal:'))
      ?.replace(/^fatal:\s*((command line|-e option), '.*?':)?/, '') ??
    engineMessage.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
  const problem = stated.replace(/\s+/g, ' ').trim();
  return problem.charAt(0).toLowerCase() + problem.slice(1) || 'the engine gave no reason';
}
