/**
 * The last check of grep_search, on what is actually read: an engine reads files by path,
 * and a folder swapped for a link while it searched (ripgrep and git follow the folders
 * they are given) can make it read a file outside the workspace. Each match to be shown is
 * looked up again in its file, opened through a handle whose real path the path policy
 * allows; a match whose file is now elsewhere, or whose line no longer reads the same, is
 * dropped. Only shown matches are checked, so the cost is bounded by the limit.
 */
import { closeSync, readFileSync } from 'node:fs';
import { FolderHandles, type PathGuard } from '../utils/confined-fs.js';
import { cutLine, type GrepMatch, MAX_MATCH_LINE } from './grep-request.js';

const CUT_MARK = '… [line cut]';

export interface ConfirmedMatches {
  matches: GrepMatch[];
  /** What was dropped: matches, and files none of whose shown matches was kept. */
  dropped: { matches: number; files: number };
}

/** The matches (a file's together) that the files read through `allows` confirm. */
export function confirmMatches(matches: readonly GrepMatch[], allows: PathGuard): ConfirmedMatches {
  const handles = new FolderHandles(allows);
  const kept: GrepMatch[] = [];
  const dropped = { matches: 0, files: 0 };
  try {
    for (let start = 0; start < matches.length; ) {
      const file = matches[start]!.file;
      let end = start;
      while (end < matches.length && matches[end]!.file === file) end++;
      const group = matches.slice(start, end);
      const lines = readLines(handles, file, group[group.length - 1]!.line);
      const confirmed = lines
        ? group.filter((match) => sameLine(lines[match.line - 1], match.text))
        : [];
      dropped.matches += group.length - confirmed.length;
      if (confirmed.length === 0) dropped.files++;
      kept.push(...confirmed);
      start = end;
    }
  } finally {
    handles.close();
  }
  return { matches: kept, dropped };
}

/** The first `count` lines of `file` as read through a confined handle; null when refused. */
function readLines(handles: FolderHandles, file: string, count: number): string[] | null {
  let fd: number;
  try {
    fd = handles.openFile(file);
  } catch {
    return null;
  }
  try {
    const bytes = readFileSync(fd);
    const lines: string[] = [];
    let from = 0;
    while (lines.length < count && from <= bytes.length) {
      let newline = bytes.indexOf(10, from);
      if (newline === -1) newline = bytes.length;
      lines.push(bytes.toString('utf8', from, newline).replace(/\r$/, ''));
      from = newline + 1;
    }
    return lines;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Whether a line read now is the one an engine reported (cut alike, or by the same start). */
function sameLine(line: string | undefined, reported: string): boolean {
  if (line === undefined) return false;
  if (cutLine(line) === reported) return true;
  // Engines cut long lines their own way: compare what both keep.
  if (!reported.endsWith(CUT_MARK) || line.length <= MAX_MATCH_LINE) return false;
  const prefix = Math.min(200, reported.length - CUT_MARK.length);
  return line.slice(0, prefix) === reported.slice(0, prefix);
}
