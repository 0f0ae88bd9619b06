/**
 * Collects the memory (context) files into the text an agent puts in its system prompt:
 * the global files first (~/.qwen, then ~/.toolhost), then those from the workspace root
 * down to the current folder, then (context.loadFromIncludeDirectories) those at the top
 * of the other workspace roots. `@path` references in them bring other files in
 * (memory-imports.ts).
 * A project's file is read only where it really is inside the workspace: one that is a
 * link leading out (to the person's keys, another project) is left out, in any folder.
 */
import {
  closeSync,
  existsSync,
  fstatSync,
  openSync,
  readSync,
  realpathSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/config.js';
import { readInside } from '../extensions/extension-files.js';
import { pathRuleCovering } from '../permissions/call-rules.js';
import { ConfinementError, openedPath, openFileConfined } from '../utils/confined-fs.js';
import { isWithin } from '../workspace/workspace-context.js';
import { expandImports, type ImportBudget, importBudget } from './memory-imports.js';

export const DEFAULT_MEMORY_LIMIT = 100_000;

export interface LoadedMemory {
  text: string;
  /** The files used, in order. */
  files: string[];
  /** What the model gets of each file used (cut at the limit), in order; `own` for ~/.toolhost's. */
  shown: { file: string; own: boolean; text: string }[];
  /** Files left out or cut because of the size limit. */
  cut: string[];
  /** The project's files left out because they lead outside the workspace. */
  outside: string[];
  /**
   * For the person: files a Read deny rule keeps out, and files whose `@` imports went over
   * the budget (each named).
   */
  warnings: string[];
}

/** One memory file as the loader reads it: where it is, whose it is, its text or why not used. */
export type MemoryFile =
  | { file: string; own: boolean; content: string }
  | { file: string; own: false; outside: true };

/**
 * The memory files in the order the model gets them (the person's own, then the enabled
 * extensions' context files, then the project's from the root down to `cwd`, then the other roots'), each read once: links to a file already read
 * and empty or unreadable files are left out, a project's file leading out is marked so.
 */
export function readMemoryFiles(
  config: Config,
  options: { cwd?: string; budget?: ImportBudget; warnings?: string[] } = {},
): MemoryFile[] {
  const names = config.getContextFileNames();
  const folders = memoryFolders(config, options.cwd);
  const budget = options.budget ?? importBudget(DEFAULT_MEMORY_LIMIT);
  const warnings = options.warnings ?? [];
  // Qwen Code's global memory (~/.qwen) below toolhost's own (~/.toolhost).
  const own = [path.join(config.homeDir, '.qwen'), config.userDir].flatMap((dir) =>
    names.map((name) => path.join(dir, name)),
  );
  const project = folders.flatMap((folder) => names.map((name) => path.join(folder, name)));
  // Enabled extensions' context files, after the person's own: read only inside each one.
  const fromExtensions = new Map(
    config.extensions.flatMap((extension) =>
      extension.contributions.contextFiles.map((file) => [file, extension.root] as const),
    ),
  );
  const inWorkspace = (real: string) => config.workspace.roots.some((r) => isWithin(r, real));
  // What the person's Read deny rules cover never reaches the prompt, imported or not.
  const denied = (file: string) => {
    const rule = pathRuleCovering(config, file, 'read');
    if (rule)
      warnings.push(
        `memory: ${file} is left out: the rule ${rule.entry} in ${rule.source} covers it.`,
      );
    return rule !== undefined;
  };
  const maxBytes = budget.chars * 4 + 4;
  const seen = new Set<string>();
  const found: MemoryFile[] = [];
  for (const file of [...own, ...fromExtensions.keys(), ...project]) {
    const extensionRoot = fromExtensions.get(file);
    if (extensionRoot !== undefined) {
      if (denied(file)) continue;
      const read = readInside(extensionRoot, file);
      if (read && 'outside' in read) found.push({ file, own: false, outside: true });
      const text = read && 'text' in read ? read.text.trim() : '';
      if (text && !seen.has(file)) found.push({ file, own: false, content: text });
      seen.add(file);
      continue;
    }
    if (!existsSync(file) || denied(file)) continue;
    const isOwn = own.includes(file);
    const read = isOwn
      ? readOwnFile(file, seen, maxBytes)
      : readProjectFile(file, seen, inWorkspace, maxBytes);
    if (read === 'outside') {
      found.push({ file, own: false, outside: true });
      continue;
    }
    if (!read) continue;
    // `@path` imports: the person's files may name any file; a project's only its own.
    const importsLeftOut: string[] = [];
    const content = expandImports(read, file, {
      read: (imported) => {
        if (denied(imported)) return undefined;
        const bytes = budget.chars * 4 + 4;
        return isOwn
          ? readOwnFile(imported, new Set(), bytes)
          : readProjectFile(imported, new Set(), inWorkspace, bytes);
      },
      outside: importsLeftOut,
      homeDir: config.homeDir,
      budget,
    });
    found.push({ file, own: isOwn, content });
    for (const left of importsLeftOut) found.push({ file: left, own: false, outside: true });
  }
  warnings.push(...budget.overruns);
  return found;
}

/** The project's folders whose memory files are read: the workspace root, then each one down to `cwd`. */
export function memoryFolders(config: Config, cwd = process.cwd()): string[] {
  const root = config.workspace.projectRoot;
  const resolved = path.resolve(cwd);
  const folders = [root];
  if (isWithin(root, resolved) && resolved !== root) {
    const steps = path.relative(root, resolved).split(path.sep);
    for (let depth = 1; depth <= steps.length; depth++)
      folders.push(path.join(root, ...steps.slice(0, depth)));
  }
  // The other workspace roots' top folders, when settings ask for their memory too.
  if (config.settings.context?.loadFromIncludeDirectories)
    folders.push(...config.workspace.roots.filter((extra) => extra !== root));
  return folders;
}

export function loadMemory(
  config: Config,
  options: { cwd?: string; maxChars?: number } = {},
): LoadedMemory {
  const maxChars = options.maxChars ?? DEFAULT_MEMORY_LIMIT;
  const blocks: string[] = [];
  const files: string[] = [];
  const cut: string[] = [];
  const outside: string[] = [];
  const pieces: LoadedMemory['shown'] = [];
  const warnings: string[] = [];
  let used = 0;
  const budget = importBudget(maxChars);
  for (const memory of readMemoryFiles(config, { ...options, budget, warnings })) {
    const { file } = memory;
    if ('outside' in memory) {
      outside.push(file);
      continue;
    }
    const { content } = memory;
    const room = maxChars - used;
    if (room <= 0) {
      cut.push(file);
      continue;
    }
    const shown =
      content.length > room
        ? `${content.slice(0, room)}\n[... cut: the memory files exceed ${maxChars} characters]`
        : content;
    if (content.length > room) cut.push(file);
    blocks.push(`--- Context from ${file} ---\n${shown}\n--- End of context from ${file} ---`);
    files.push(file);
    pieces.push({ file, own: memory.own, text: shown });
    used += shown.length;
  }
  return { text: blocks.join('\n\n'), files, shown: pieces, cut, outside, warnings };
}

/** The person's own file in ~/.toolhost, wherever they linked it; undefined when unreadable or seen. */
function readOwnFile(file: string, seen: Set<string>, maxBytes: number): string | undefined {
  try {
    const real = realpathSync(file);
    if (seen.has(real)) return undefined;
    seen.add(real);
    const fd = openSync(real, 'r');
    try {
      return readStart(fd, maxBytes);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/**
 * A project's file, opened and then judged by where it really is (so a link swapped in
 * between cannot lead out): 'outside' when that is not inside the workspace.
 */
function readProjectFile(
  file: string,
  seen: Set<string>,
  inWorkspace: (real: string) => boolean,
  maxBytes: number,
): string | 'outside' | undefined {
  let fd: number;
  try {
    // Not a plain file (a named pipe would hold the start up forever): not memory.
    if (!statSync(file).isFile()) return undefined;
    fd = openFileConfined(file, inWorkspace);
  } catch (error) {
    return error instanceof ConfinementError ? 'outside' : undefined;
  }
  try {
    const real = openedPath(fd) ?? realpathSync(file);
    if (seen.has(real)) return undefined;
    seen.add(real);
    return readStart(fd, maxBytes);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * The first `maxBytes` of an open file as trimmed text: no more than the memory limit can
 * use is read, however large the file (a gigabyte AGENTS.md must not fill the heap).
 */
function readStart(fd: number, maxBytes: number): string {
  const buffer = Buffer.alloc(Math.max(0, Math.min(maxBytes, fstatSync(fd).size)));
  let filled = 0;
  while (filled < buffer.length) {
    const read = readSync(fd, buffer, filled, buffer.length - filled, null);
    if (read === 0) break;
    filled += read;
  }
  return buffer.subarray(0, filled).toString('utf8').trim();
}
