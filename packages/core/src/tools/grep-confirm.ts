/**
 * The last check of grep_search, on what is actually read: an engine reads files by path,
 * and a folder swapped for a link while it searched (ripgrep and git follow the folders
 * they are given) can make it read a file outside the workspace. Each match to be shown is
 * looked up again in its file, opened through a handle whose real path the path policy
 * allows; a match whose file is now elsewhere, or whose line no longer reads the same, is
 * dropped. Only shown matches are checked, so the cost is bounded by the limit.
 */
import { closeSync, readSync } from 'node:fs';
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
      const lines = readLines(
        handles,
        file,
        group.map((match) => match.line),
      );
      const confirmed = lines
        ? group.filter((match) => sameLine(lines.get(match.line), match.text))
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

/**
 * One buffer for every read: a search confirms up to its limit of files, one after
 * another, and most source files fit in one read. Reading a whole file asked its size
 * first, allocated it, read it to its end and decoded every line before the last match.
 */
const READ_CHUNK = 64 * 1024;
const shared = Buffer.allocUnsafe(READ_CHUNK);

/**
 * The lines numbered `wanted` (ascending) of `file`, read through a confined handle up to
 * the last of them and no further; only those are decoded. A line longer than the buffer
 * is kept as its start (more than cutLine keeps). Null when refused or unreadable.
 */
function readLines(
  handles: FolderHandles,
  file: string,
  wanted: readonly number[],
): Map<number, string> | null {
  let fd: number;
  try {
    fd = handles.openFile(file);
  } catch {
    return null;
  }
  try {
    const lines = new Map<number, string>();
    let next = 0;
    let lineNumber = 1;
    // Bytes in `shared`: the start of an unfinished line, then what the last read added.
    let held = 0;
    // Inside a line longer than the buffer, whose start is already dealt with.
    let skipping = false;
    const take = (from: number, end: number) => {
      if (lineNumber === wanted[next]) {
        lines.set(lineNumber, shared.toString('utf8', from, end).replace(/\r$/, ''));
        while (wanted[next] === lineNumber) next++;
      }
    };
    while (next < wanted.length) {
      const read = readSync(fd, shared, held, shared.length - held, null);
      const atEnd = read === 0;
      held += read;
      let from = 0;
      for (;;) {
        const newline = shared.subarray(0, held).indexOf(10, from);
        if (newline === -1) break;
        if (!skipping) take(from, newline);
        skipping = false;
        lineNumber++;
        from = newline + 1;
        if (next === wanted.length) return lines;
      }
      if (atEnd) {
        // The last line, without a newline after it.
        if (!skipping) take(from, held);
        return lines;
      }
      if (from === 0 && held === shared.length) {
        // A line longer than the buffer: its start is all a comparison needs.
        if (!skipping) take(0, held);
        skipping = true;
        held = 0;
        continue;
      }
      shared.copy(shared, 0, from, held);
      held -= from;
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
