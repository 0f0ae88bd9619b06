/**
 * Keeps a very long tool output within the model's budget: the head and the tail stay,
 * the middle is replaced by a note, and the whole text is saved to a file the model can
 * page through with read_file.
 */
import path from 'node:path';
import { writeOwnFile } from '../utils/own-files.js';
import { plural } from '../utils/plural.js';

export interface TruncatedOutput {
  text: string;
  /** Where the whole text was saved, when it was cut. */
  outputFile?: string;
}

const HEAD_SHARE = 0.4;

export async function truncateAndSave(
  text: string,
  options: {
    threshold: number;
    directory: string;
    fileStem: string;
    /**
     * The folder no command can replace, above `directory` (default `directory` itself):
     * nothing below it is followed when the file is written (see own-files.ts).
     */
    base?: string;
    /** Lines kept of a cut text, head and tail together (tools.truncateOutputLines). */
    maxLines?: number;
  },
): Promise<TruncatedOutput> {
  if (text.length <= options.threshold) return { text };
  const outputFile = path.join(options.directory, `${sanitize(options.fileStem)}.txt`);
  let saved = true;
  try {
    await writeOwnFile(options.base ?? options.directory, outputFile, text);
  } catch {
    saved = false;
  }
  const headBudget = Math.floor(options.threshold * HEAD_SHARE);
  const tailBudget = options.threshold - headBudget;
  let head = cutAtLineEnd(text.slice(0, headBudget));
  let tail = cutAtLineStart(text.slice(text.length - tailBudget));
  if (options.maxLines !== undefined) {
    const headLineBudget = Math.floor(options.maxLines * HEAD_SHARE);
    head = firstLines(head, headLineBudget);
    tail = lastLines(tail, options.maxLines - headLineBudget);
  }
  const totalLines = countLines(text);
  const headLines = countLines(head);
  const omittedChars = text.length - head.length - tail.length;
  const omittedLines = Math.max(0, totalLines - headLines - countLines(tail));
  const where = saved
    ? `The whole output (${plural(totalLines, 'line')}) is saved in ${outputFile}. Read the missing part with read_file, absolute_path "${outputFile}", offset ${headLines}, limit ${Math.min(omittedLines || 1, 2000)}, continuing with higher offsets, or search it with grep_search.`
    : 'The whole output could not be saved; run the call again with a narrower request.';
  const note = `\n\n[... ${omittedChars} characters (${plural(omittedLines, 'line')}) left out of the middle. ${where}]\n\n`;
  return { text: head + note + tail, ...(saved ? { outputFile } : {}) };
}

/** The first `count` lines of `text`, each with its line end. */
function firstLines(text: string, count: number): string {
  let end = 0;
  for (let line = 0; line < count; line++) {
    const newline = text.indexOf('\n', end);
    if (newline === -1) return text;
    end = newline + 1;
  }
  return text.slice(0, end);
}

/** The last `count` lines of `text`. */
function lastLines(text: string, count: number): string {
  let start = text.endsWith('\n') ? text.length - 1 : text.length;
  for (let line = 0; line < count; line++) {
    const newline = text.lastIndexOf('\n', start - 1);
    if (newline === -1) return text;
    start = newline;
  }
  return text.slice(start + 1);
}

function cutAtLineEnd(text: string): string {
  const lastNewline = text.lastIndexOf('\n');
  return lastNewline > text.length / 2 ? text.slice(0, lastNewline + 1) : text;
}

function cutAtLineStart(text: string): string {
  const firstNewline = text.indexOf('\n');
  return firstNewline >= 0 && firstNewline < text.length / 2 ? text.slice(firstNewline + 1) : text;
}

function countLines(text: string): number {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

function sanitize(stem: string): string {
  return stem.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120);
}
