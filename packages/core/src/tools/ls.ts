/** list_directory: the entries of one folder, folders first, honouring ignore files. */
import { type Dirent, statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/config.js';
import { deniedFileTest } from '../permissions/call-rules.js';
import { ConfinementError, readFolderConfined } from '../utils/confined-fs.js';
import { IgnoreRules } from '../utils/ignore-rules.js';
import { picomatch } from '../utils/lazy-libraries.js';
import {
  FILE_FILTERING_OPTIONS_SCHEMA,
  type IgnoreOptionParams,
  ignoreFlags,
} from './ignore-options.js';
import { requireAbsolute, resolveToolPath } from './path-checks.js';
import {
  BaseTool,
  errorResult,
  Kind,
  ToolErrorType,
  type ToolLocation,
  type ToolResult,
} from './tools.js';

export interface LsToolParams {
  path: string;
  ignore?: string[];
  file_filtering_options?: IgnoreOptionParams;
}

const DESCRIPTION = `Lists the files and folders directly inside one folder (not recursive). Folders come first, marked [DIR], then files; each group sorted by name.
Entries excluded by .gitignore (in git repositories) and by .toolhostignore/.qwenignore are left out and counted at the end; turn that off with file_filtering_options.
Use glob to find files by pattern across many folders, and grep_search to find text inside files.`;

export class LsTool extends BaseTool<LsToolParams> {
  static readonly Name = 'list_directory';

  constructor(private readonly config: Config) {
    super(LsTool.Name, 'ListFiles', DESCRIPTION, Kind.Read, {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Absolute path of the folder to list.' },
        ignore: {
          type: 'array',
          items: { type: 'string' },
          description:
            'Glob patterns matched against entry names to leave out, e.g. ["*.log", "node_modules"].',
        },
        file_filtering_options: FILE_FILTERING_OPTIONS_SCHEMA,
      },
      required: ['path'],
    });
  }

  protected override validateSemantics(params: LsToolParams): string | null {
    return requireAbsolute('path', params.path, this.config);
  }

  override getDescription(params: LsToolParams): string {
    return `List ${this.config.workspace.relative(params.path)}`;
  }

  override toolLocations(params: LsToolParams): ToolLocation[] {
    return [{ path: params.path }];
  }

  async execute(params: LsToolParams, _signal?: AbortSignal): Promise<ToolResult> {
    const resolved = resolveToolPath(this.config, params.path, 'read');
    if (resolved.error) return resolved.error;
    const dir = resolved.realPath;

    let entries: Dirent[];
    try {
      // Read as the folder the path policy checked, not one swapped for a link meanwhile.
      entries = await readFolderConfined(dir);
    } catch (error) {
      if (error instanceof ConfinementError)
        return errorResult(ToolErrorType.PATH_NOT_IN_WORKSPACE, error.message);
      return this.readError(params.path, error as NodeJS.ErrnoException);
    }

    const matchesIgnore = picomatch()(params.ignore ?? [], { dot: true });
    const rules = new IgnoreRules(
      this.config.workspace.roots,
      ignoreFlags(params.file_filtering_options, this.config),
    );
    const hidden = { git: 0, repository: 0, toolhost: 0, pattern: 0 };
    const denied = deniedFileTest(this.config, this.name);
    const folders: string[] = [];
    const files: string[] = [];
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      const isDirectory =
        entry.isDirectory() || (entry.isSymbolicLink() && isDirectoryTarget(full));
      if ((params.ignore?.length ?? 0) > 0 && matchesIgnore(entry.name)) {
        hidden.pattern++;
        continue;
      }
      if (denied?.(full)) continue;
      const reason = rules.reason(full, isDirectory);
      if (reason) {
        hidden[reason]++;
        continue;
      }
      (isDirectory ? folders : files).push(entry.name);
    }
    folders.sort(byName);
    files.sort(byName);

    const shown = folders.length + files.length;
    const hiddenNote = describeHidden(hidden);
    const heading = `Folder ${params.path}`;
    if (shown === 0) {
      const text =
        entries.length === 0
          ? `${heading} is empty.`
          : `${heading} has no entries to show${hiddenNote ? ` (${hiddenNote})` : ''}.`;
      return { llmContent: text, returnDisplay: text };
    }
    const lines = [...folders.map((name) => `[DIR] ${name}`), ...files];
    const summary = `${folders.length} folder${folders.length === 1 ? '' : 's'}, ${files.length} file${files.length === 1 ? '' : 's'}`;
    const footer = hiddenNote ? `\n\n(${summary} shown; ${hiddenNote})` : `\n\n(${summary})`;
    return {
      llmContent: `${heading}:\n${lines.join('\n')}${footer}`,
      returnDisplay: `Listed ${shown} entr${shown === 1 ? 'y' : 'ies'}${hiddenNote ? `, ${hiddenNote}` : ''}`,
    };
  }

  private readError(inputPath: string, error: NodeJS.ErrnoException): ToolResult {
    switch (error.code) {
      case 'ENOENT':
        return errorResult(
          ToolErrorType.FILE_NOT_FOUND,
          `Folder ${inputPath} does not exist. List its parent folder to see what is there.`,
        );
      case 'ENOTDIR':
        return errorResult(
          ToolErrorType.PATH_IS_NOT_A_DIRECTORY,
          `${inputPath} is a file, not a folder. Use read_file to read it, or list its parent folder.`,
        );
      case 'EACCES':
      case 'EPERM':
        return errorResult(
          ToolErrorType.PERMISSION_DENIED,
          `Permission denied when listing ${inputPath}.`,
        );
      default:
        return errorResult(
          ToolErrorType.READ_CONTENT_FAILURE,
          `Could not list ${inputPath}: ${error.message}`,
        );
    }
  }
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isDirectoryTarget(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

function describeHidden(hidden: {
  git: number;
  repository: number;
  toolhost: number;
  pattern: number;
}): string {
  const parts: string[] = [];
  if (hidden.repository) parts.push(".git (git's own data) hidden");
  if (hidden.git) parts.push(`${hidden.git} hidden by .gitignore`);
  if (hidden.toolhost) parts.push(`${hidden.toolhost} hidden by .toolhostignore/.qwenignore`);
  if (hidden.pattern) parts.push(`${hidden.pattern} hidden by the ignore patterns`);
  return parts.join(', ');
}
