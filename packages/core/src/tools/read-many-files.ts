/**
 * read_many_files: the text of many files at once, chosen by paths and globs, each under a
 * header, within the budget of one tool response.
 */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/config.js';
import type { Part } from '../contract/content.js';
import { deniedFileTest } from '../permissions/call-rules.js';
import { FolderHandles } from '../utils/confined-fs.js';
import { detectFileType } from '../utils/file-content.js';
import { type LoadedFile, loadFileForModel, windowNotes } from '../utils/file-loader.js';
import { kernelResolver } from '../workspace/workspace-context.js';
import {
  FILE_FILTERING_OPTIONS_SCHEMA,
  type IgnoreOptionParams,
  ignoreFlags,
} from './ignore-options.js';
import { BaseTool, errorResult, Kind, ToolErrorType, type ToolResult } from './tools.js';

export interface ReadManyFilesParams {
  paths: string[];
  include?: string[];
  exclude?: string[];
  recursive?: boolean;
  useDefaultExcludes?: boolean;
  file_filtering_options?: IgnoreOptionParams;
}

/** Left out unless useDefaultExcludes is false: dependencies, build output, VCS data, lock files, secrets, binaries. */
export const DEFAULT_EXCLUDES = [
  '**/node_modules/**',
  '**/.git/**',
  '**/dist/**',
  '**/build/**',
  '**/out/**',
  '**/coverage/**',
  '**/__pycache__/**',
  '**/.venv/**',
  '**/target/**',
  '**/*.{lock,log}',
  '**/{package-lock.json,yarn.lock,pnpm-lock.yaml,Cargo.lock,poetry.lock,composer.lock,Gemfile.lock}',
  '**/.env',
  '**/.env.*',
  '**/*.min.{js,css}',
  '**/*.{exe,dll,so,dylib,o,a,obj,class,jar,war,pyc,pyo,wasm,bin,dat}',
  '**/*.{zip,tar,gz,tgz,bz2,xz,7z,rar,iso,dmg}',
  '**/.DS_Store',
];

/** Files read between two turns of the event loop. */
const YIELD_EVERY = 64;
/** What a file's type is judged on before it is read: its name alone. */
const NO_BYTES = Buffer.alloc(0);
const MAX_MEDIA_BYTES = 20 * 1024 * 1024;

const DESCRIPTION = `Reads the text of several files in one call, each under a "--- <path> ---" header. paths (and include) are file paths, folders or glob patterns relative to the workspace root, e.g. ["src/**/*.ts", "README.md", "docs"]; exclude removes matches.
Dependencies, build output, lock files, .env files and binaries are left out unless useDefaultExcludes is false; files excluded by .gitignore and .toolhostignore/.qwenignore are left out unless file_filtering_options says otherwise. Images and PDFs are included only when asked for by name or extension (e.g. "*.png").
Each file gets the same limits as read_file (${2000} lines, long lines cut). When the total is too large for one response, the files that did not fit are listed so you can read them separately.`;

interface Skipped {
  path: string;
  reason: string;
}

export class ReadManyFilesTool extends BaseTool<ReadManyFilesParams> {
  static readonly Name = 'read_many_files';

  constructor(private readonly config: Config) {
    super(ReadManyFilesTool.Name, 'ReadManyFiles', DESCRIPTION, Kind.Read, {
      type: 'object',
      properties: {
        paths: {
          type: 'array',
          minItems: 1,
          items: { type: 'string' },
          description: 'Files, folders or glob patterns, relative to the workspace root.',
        },
        include: {
          type: 'array',
          items: { type: 'string' },
          description: 'More patterns to include.',
        },
        exclude: {
          type: 'array',
          items: { type: 'string' },
          description: 'Glob patterns to leave out, e.g. ["**/*.test.ts"].',
        },
        recursive: {
          type: 'boolean',
          description: 'Read folders named in paths recursively (default true).',
        },
        useDefaultExcludes: {
          type: 'boolean',
          description:
            'Leave out dependencies, build output, lock files, .env and binaries (default true).',
        },
        file_filtering_options: FILE_FILTERING_OPTIONS_SCHEMA,
      },
      required: ['paths'],
    });
  }

  override getDescription(params: ReadManyFilesParams): string {
    const all = [...params.paths, ...(params.include ?? [])];
    return `Read ${all.slice(0, 3).join(', ')}${all.length > 3 ? ` and ${all.length - 3} more` : ''}`;
  }

  async execute(params: ReadManyFilesParams, signal: AbortSignal): Promise<ToolResult> {
    const skipped: Skipped[] = [];
    const files = await this.collect(params, skipped, signal);
    if (signal.aborted)
      return errorResult(ToolErrorType.EXECUTION_FAILED, 'Reading was cancelled.');
    if (files.length === 0) {
      const text = `No files matched ${JSON.stringify([...params.paths, ...(params.include ?? [])])}.${describeSkipped(skipped, 'text')}`;
      return {
        llmContent: text,
        returnDisplay: `No files read.${describeSkipped(skipped, 'markdown')}`,
      };
    }
    return this.read(files, skipped);
  }

  /** Resolves paths and patterns to the sorted list of files to read. */
  private async collect(
    params: ReadManyFilesParams,
    skipped: Skipped[],
    signal: AbortSignal,
  ): Promise<{ file: string; explicit: boolean }[]> {
    const roots = this.config.workspace.roots;
    // The glob matching loads with the first call, not with the tool's listing.
    const { anyGlobMatcher, globBase, globMatcher, globReachesSubfolders } = await import(
      '../utils/glob-match.js'
    );
    const flags = ignoreFlags(params.file_filtering_options, this.config);
    const excludes = [
      ...(params.exclude ?? []),
      ...((params.useDefaultExcludes ?? true) ? DEFAULT_EXCLUDES : []),
    ];
    // Compiled on first use: paths named one by one never ask it.
    let excluded: ((relative: string) => boolean) | undefined;
    const isExcluded = (relative: string) => {
      excluded ??= anyGlobMatcher(excludes, { caseSensitive: true });
      return excluded(relative);
    };
    const chosen = new Map<string, boolean>();
    const resolve = realPathResolver();
    const listings = new Map<string, Promise<string[]>>();
    const listUnder = (dir: string, recursive: boolean) => {
      const key = `${recursive ? 'all' : 'own'}:${dir}`;
      let listing = listings.get(key);
      if (!listing) {
        // Loaded by the first pattern that lists a folder: named files need no listing.
        listing = import('../utils/file-listing.js')
          .then(({ listFiles }) => listFiles(dir, { roots, signal, recursive, ...flags }))
          .catch(() => []);
        listings.set(key, listing);
      }
      return listing;
    };

    for (const pattern of [...params.paths, ...(params.include ?? [])]) {
      const trimmed = pattern.trim();
      if (!trimmed) continue;
      let matchedAny = false;
      for (const root of path.isAbsolute(trimmed) ? [this.config.workspace.projectRoot] : roots) {
        const absolute = path.resolve(root, trimmed);
        const realPath = resolve(absolute);
        const check =
          realPath !== null && this.config.workspace.allowsRealPath(realPath, 'read')
            ? { ok: true as const, realPath }
            : { ok: false as const };
        if (!check.ok) {
          skipped.push({ path: trimmed, reason: 'outside the workspace' });
          matchedAny = true;
          break;
        }
        const kind = pathKind(check.realPath);
        if (kind === 'file') {
          chosen.set(check.realPath, true);
          matchedAny = true;
          continue;
        }
        const relativeGlob =
          kind === 'dir'
            ? `${path.relative(root, check.realPath) || '.'}/${(params.recursive ?? true) ? '**' : '*'}`.replace(
                /^\.\//,
                '',
              )
            : path.relative(root, absolute);
        const base = path.join(root, globBase(relativeGlob));
        const matches = globMatcher(relativeGlob, { caseSensitive: true });
        const mediaWanted = mediaExtensionsIn(relativeGlob);
        // Listed paths are normalized and mostly under the root: a slice, not path.relative.
        const rootPrefix = root.endsWith(path.sep) ? root : root + path.sep;
        for (const file of await listUnder(base, globReachesSubfolders(relativeGlob))) {
          const relative = file.startsWith(rootPrefix)
            ? file.slice(rootPrefix.length)
            : path.relative(root, file);
          if (!matches(relative)) continue;
          matchedAny = true;
          if (isExcluded(relative)) continue;
          if (!chosen.has(file)) chosen.set(file, mediaWanted);
        }
      }
      if (!matchedAny) skipped.push({ path: trimmed, reason: 'nothing matches' });
    }
    const denied = deniedFileTest(this.config, this.name);
    return [...chosen.entries()]
      .filter(([file]) => {
        if (!denied?.(file)) return true;
        skipped.push({ path: file, reason: 'a permissions.deny rule covers it' });
        return false;
      })
      .map(([file, explicit]) => ({ file, explicit }))
      .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  }

  /**
   * Reads the files in order into the response until its budget is full; the files after
   * that are listed as not fitting without being opened, so a call naming thousands of
   * files costs the few that are answered, not all of them.
   */
  private async read(
    files: { file: string; explicit: boolean }[],
    skipped: Skipped[],
  ): Promise<ToolResult> {
    const budget = Math.max(5_000, this.config.getTruncateThreshold() - 2_000);
    const parts: Part[] = [];
    const read: string[] = [];
    const didNotFit: string[] = [];
    let used = 0;
    let mediaBytes = 0;
    let full = false;
    // Listed files may be links inside the workspace: what was opened must be inside.
    const folders = new FolderHandles(this.readableRealPath());
    try {
      for (const [index, { file, explicit }] of files.entries()) {
        if (full) {
          didNotFit.push(file);
          continue;
        }
        // The loader reads synchronously; let other work run now and then.
        if (index > 0 && index % YIELD_EVERY === 0)
          await new Promise((resolve) => setImmediate(resolve));
        const result = await this.loadOne(file, explicit, skipped, folders);
        if (!result) continue;
        if (result.kind === 'error') {
          skipped.push({ path: file, reason: shortReason(result.message, file) });
          continue;
        }
        if (result.kind === 'media') {
          if (mediaBytes + result.size > MAX_MEDIA_BYTES) {
            didNotFit.push(file);
            continue;
          }
          mediaBytes += result.size;
          parts.push({ text: `--- ${file} (${result.mimeType}) ---` }, result.part);
          read.push(file);
          continue;
        }
        const notes = windowNotes(result, file);
        const block = `--- ${file} ---\n${notes.length > 0 ? `[${notes.join(' ')}]\n` : ''}${result.body}\n`;
        if (used + block.length > budget) {
          didNotFit.push(file);
          full = true;
          continue;
        }
        used += block.length;
        parts.push({ text: block });
        read.push(file);
        this.config.fileReads.record(file, result.bytes);
      }
    } finally {
      folders.close();
    }

    if (didNotFit.length > 0) {
      parts.push({
        text: `[${didNotFit.length} more file${didNotFit.length === 1 ? '' : 's'} did not fit in this response: ${didNotFit.join(', ')}. Read them with read_file, or call read_many_files again with fewer paths.]`,
      });
    }
    const skippedText = describeSkipped(skipped, 'text');
    if (skippedText) parts.push({ text: skippedText.trim() });
    const shown = this.shownPath();
    const display = [
      `Read ${read.length} file${read.length === 1 ? '' : 's'}:`,
      ...read.slice(0, 50).map((file) => `- ${shown(file)}`),
      ...(read.length > 50 ? [`- ... and ${read.length - 50} more`] : []),
      ...(didNotFit.length > 0
        ? [`\nDid not fit (${didNotFit.length}): ${didNotFit.map(shown).join(', ')}`]
        : []),
    ].join('\n');
    return {
      llmContent: parts,
      returnDisplay: `${display}${describeSkipped(skipped, 'markdown')}`,
    };
  }

  /** One file for the response; media the model did not ask for is not even read. */
  private async loadOne(
    file: string,
    explicit: boolean,
    skipped: Skipped[],
    folders: FolderHandles,
  ): Promise<LoadedFile | undefined> {
    const type = detectFileType(file, NO_BYTES);
    if (!explicit && type.kind !== 'text' && type.kind !== 'binary') {
      skipped.push({
        path: file,
        reason: `${type.kind === 'pdf' ? 'PDF' : type.kind} not asked for by name or extension`,
      });
      return undefined;
    }
    return loadFileForModel(file, file, {}, () => this.config.legacyEncodings, folders);
  }

  /**
   * workspace.relative for the listed (real, normalized) files: under the project root, a
   * slice; its two path.relative calls a file were a tenth of a 1,000-path call's work.
   */
  private shownPath(): (file: string) => string {
    const workspace = this.config.workspace;
    const root = workspace.projectRoot;
    const prefix = root.endsWith(path.sep) ? root : root + path.sep;
    return (file) =>
      file.startsWith(prefix) && file.length > prefix.length
        ? file.slice(prefix.length)
        : workspace.relative(file);
  }

  /**
   * The guard of what was opened: inside the workspace's readable folders. Everything in a
   * folder that is inside them is inside too, so a folder's answer is worked out once for
   * its thousand files; elsewhere (a file allowed on its own) each path is asked.
   */
  private readableRealPath(): (realPath: string) => boolean {
    const workspace = this.config.workspace;
    const folderInside = new Map<string, boolean>();
    return (realPath) => {
      const folder = path.dirname(realPath);
      let inside = folderInside.get(folder);
      if (inside === undefined) {
        inside = workspace.allowsRealPath(folder, 'read');
        folderInside.set(folder, inside);
      }
      return inside || workspace.allowsRealPath(realPath, 'read');
    };
  }
}

function describeSkipped(skipped: Skipped[], style: 'text' | 'markdown'): string {
  if (skipped.length === 0) return '';
  const lines = skipped
    .slice(0, 50)
    .map((entry) => `${style === 'markdown' ? '- ' : ''}${entry.path}: ${entry.reason}`);
  const more = skipped.length > 50 ? `\n... and ${skipped.length - 50} more` : '';
  return style === 'markdown'
    ? `\n\nSkipped ${skipped.length}:\n${lines.join('\n')}${more}`
    : `\n[Skipped ${skipped.length}: ${lines.join('; ')}${more}]`;
}

function shortReason(message: string, file: string): string {
  return message.replace(`File ${file} `, '').replace(`${file} `, '').replace(/\.$/, '');
}

/** Extensions of images, PDFs and audio that a pattern names (`*.png`, `*.{jpg,pdf}`). */
function mediaExtensionsIn(pattern: string): boolean {
  return /\.(png|jpe?g|gif|webp|bmp|pdf|mp3|wav|ogg|oga|flac|m4a|aac|weba)\b|\{[^}]*\b(png|jpe?g|gif|webp|bmp|pdf|mp3|wav|ogg|flac|m4a|aac)\b/i.test(
    pattern,
  );
}

/**
 * Where a named path really leads, as the kernel would open it: an existing one by one
 * realpath call (no Stats object per step), a missing one by kernelResolver.
 */
function realPathResolver(): (absolutePath: string) => string | null {
  const kernel = kernelResolver();
  return (absolutePath) => {
    try {
      return realpathSync.native(absolutePath);
    } catch {
      return kernel(absolutePath);
    }
  };
}

/**
 * Synchronous, like the loader: a thousand named paths cost a thousand thread-pool round
 * trips otherwise, several times the work of the stat itself.
 */
function pathKind(file: string): 'file' | 'dir' | 'none' {
  const info = statSync(file, { throwIfNoEntry: false });
  if (!info) return 'none';
  return info.isDirectory() ? 'dir' : 'file';
}
