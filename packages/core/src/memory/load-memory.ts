/**
 * Collects the memory (context) files into the text an agent puts in its system prompt:
 * the global files first (~/.qwen, then ~/.toolhost), then those from the workspace root
 * down to the current folder, then (context.loadFromIncludeDirectories) those at the top
 * of the other workspace roots. `@path` references in them bring other files in
 * (memory-imports.ts).
 * A project's file is read only where it really is inside the workspace: one that is a
 * link leading out (to the person's keys, another project) is left out, in any folder.
 */
import { closeSync, existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/config.js';
import { ConfinementError, openedPath, openFileConfined } from '../utils/confined-fs.js';
import { isWithin } from '../workspace/workspace-context.js';
import { expandImports } from './memory-imports.js';

export const DEFAULT_MEMORY_LIMIT = 100_000;

export interface LoadedMemory {
  text: string;
  /** The files used, in order. */
  files: string[];
  /** Files left out or cut because of the size limit. */
  cut: string[];
  /** The project's files left out because they lead outside the workspace. */
  outside: string[];
}

export function loadMemory(
  config: Config,
  options: { cwd?: string; maxChars?: number } = {},
): LoadedMemory {
  const names = config.getContextFileNames();
  const root = config.workspace.projectRoot;
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const folders = [root];
  if (isWithin(root, cwd) && cwd !== root) {
    const steps = path.relative(root, cwd).split(path.sep);
    for (let depth = 1; depth <= steps.length; depth++)
      folders.push(path.join(root, ...steps.slice(0, depth)));
  }
  // Qwen Code's global memory (~/.qwen) below toolhost's own (~/.toolhost).
  const own = [path.join(config.homeDir, '.qwen'), config.userDir].flatMap((dir) =>
    names.map((name) => path.join(dir, name)),
  );
  // The other workspace roots' top folders, when settings ask for their memory too.
  if (config.settings.context?.loadFromIncludeDirectories)
    folders.push(...config.workspace.roots.filter((extra) => extra !== root));
  const project = folders.flatMap((folder) => names.map((name) => path.join(folder, name)));
  const inWorkspace = (real: string) => config.workspace.roots.some((r) => isWithin(r, real));
  const maxChars = options.maxChars ?? DEFAULT_MEMORY_LIMIT;
  const seen = new Set<string>();
  const blocks: string[] = [];
  const files: string[] = [];
  const cut: string[] = [];
  const outside: string[] = [];
  let used = 0;
  for (const file of [...own, ...project]) {
    if (!existsSync(file)) continue;
    const isOwn = own.includes(file);
    const read = isOwn ? readOwnFile(file, seen) : readProjectFile(file, seen, inWorkspace);
    if (read === 'outside') {
      outside.push(file);
      continue;
    }
    if (!read) continue;
    // `@path` imports: the person's files may name any file; a project's only its own.
    const content = expandImports(
      read,
      file,
      isOwn
        ? (imported) => readOwnFile(imported, new Set())
        : (imported) => readProjectFile(imported, new Set(), inWorkspace),
      outside,
      config.homeDir,
    );
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
    used += shown.length;
  }
  return { text: blocks.join('\n\n'), files, cut, outside };
}

/** The person's own file in ~/.toolhost, wherever they linked it; undefined when unreadable or seen. */
function readOwnFile(file: string, seen: Set<string>): string | undefined {
  try {
    const real = realpathSync(file);
    if (seen.has(real)) return undefined;
    seen.add(real);
    return readFileSync(real, 'utf8').trim();
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
    return readFileSync(fd, 'utf8').trim();
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
