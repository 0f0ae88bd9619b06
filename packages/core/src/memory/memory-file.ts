/**
 * The memory (context) files: where they are, and how a saved fact is added to one. A
 * fact is appended as "- fact" at the end of toolhost's own section, which is created at
 * the end of the file when missing; every other byte of the file stays as it was.
 */
import path from 'node:path';
import type { Config } from '../config/config.js';

// Settings loading checks the names (utils/settings-values.ts); the conversation entry point
// offers the check here.
export { isContextFileName } from '../utils/settings-values.js';

export const MEMORY_SECTION_HEADING = '## Memories saved by toolhost';

export type MemoryScope = 'global' | 'project';

export function memoryFilePath(config: Config, scope: MemoryScope): string {
  const name = config.getContextFileNames()[0]!;
  return scope === 'global'
    ? path.join(config.userDir, name)
    : path.join(config.workspace.projectRoot, name);
}

/** One line, trimmed, without the list markers a model tends to add. */
export function normalizeFact(fact: string): string {
  return fact
    .replace(/\s*\r?\n\s*/g, ' ')
    .trim()
    .replace(/^[-*•\s]+/, '')
    .trim();
}

/** The file's content with the fact added to toolhost's section. */
export function addMemoryEntry(content: string, fact: string): string {
  const eol = content.includes('\r\n') ? '\r\n' : '\n';
  const entry = `- ${fact}`;
  const lines = content.split('\n');
  const bare = (line: string) => line.replace(/\r$/, '');
  const heading = lines.findIndex((line) => bare(line).trim() === MEMORY_SECTION_HEADING);
  if (heading === -1) {
    if (content === '') return `${MEMORY_SECTION_HEADING}${eol}${eol}${entry}${eol}`;
    const separator = content.endsWith('\n') ? eol : `${eol}${eol}`;
    return `${content}${separator}${MEMORY_SECTION_HEADING}${eol}${eol}${entry}${eol}`;
  }
  let end = lines.length;
  for (let i = heading + 1; i < lines.length; i++) {
    if (/^#{1,2}\s/.test(bare(lines[i]!))) {
      end = i;
      break;
    }
  }
  let last = heading;
  for (let i = heading + 1; i < end; i++) if (bare(lines[i]!).trim() !== '') last = i;
  const lastLine = lines[last]!;
  if (last === lines.length - 1) {
    // The section's last line ends the file without a line break: add one before the entry.
    lines[last] = `${lastLine}${eol === '\r\n' ? '\r' : ''}`;
    lines.splice(last + 1, 0, entry);
  } else {
    lines.splice(last + 1, 0, `${entry}${eol === '\r\n' ? '\r' : ''}`);
  }
  return lines.join('\n');
}
