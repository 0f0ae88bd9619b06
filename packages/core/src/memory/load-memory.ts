/**
 * Collects the memory (context) files into the text an agent puts in its system prompt:
 * the global file first, then those from the workspace root down to the current folder.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/config.js';
import { isWithin } from '../workspace/workspace-context.js';

export const DEFAULT_MEMORY_LIMIT = 100_000;

export interface LoadedMemory {
  text: string;
  /** The files used, in order. */
  files: string[];
  /** Files left out or cut because of the size limit. */
  cut: string[];
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
  const candidates = [
    ...names.map((name) => path.join(config.userDir, name)),
    ...folders.flatMap((folder) => names.map((name) => path.join(folder, name))),
  ];
  const maxChars = options.maxChars ?? DEFAULT_MEMORY_LIMIT;
  const seen = new Set<string>();
  const blocks: string[] = [];
  const files: string[] = [];
  const cut: string[] = [];
  let used = 0;
  for (const file of candidates) {
    if (!existsSync(file)) continue;
    let real: string;
    let content: string;
    try {
      real = realpathSync(file);
      if (seen.has(real)) continue;
      seen.add(real);
      content = readFileSync(real, 'utf8').trim();
    } catch {
      continue;
    }
    if (!content) continue;
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
  return { text: blocks.join('\n\n'), files, cut };
}
