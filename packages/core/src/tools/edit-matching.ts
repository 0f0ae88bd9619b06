/**
 * Finds where an edit applies. The exact, literal text is tried first; when it is not in
 * the file, three recoveries are tried in order, each used only when it finds exactly the
 * expected number of places:
 *   1. Unicode look-alikes (curly quotes, dashes, non-breaking spaces) treated as equal;
 *   2. lines compared without trailing whitespace;
 *   3. lines compared without leading and trailing whitespace (the replacement re-indented).
 * Replacements are spans of the original text, so everything outside them stays byte for
 * byte, and lines the edit does not change keep the file's own text.
 */
import { detectLineEnding } from '../utils/file-content.js';

export type MatchStrategy = 'exact' | 'unicode' | 'trailing_whitespace' | 'indentation';

export interface Replacement {
  start: number;
  end: number;
  text: string;
}

export type MatchOutcome =
  | { kind: 'matched'; strategy: MatchStrategy; replacements: Replacement[] }
  | { kind: 'count_mismatch'; strategy: MatchStrategy; found: number; lines: number[] }
  | { kind: 'not_found'; closest: ClosestRegion | null };

export interface ClosestRegion {
  startLine: number;
  endLine: number;
  similarity: number;
  text: string;
}

export const STRATEGY_NOTES: Record<MatchStrategy, string> = {
  exact: 'matched exactly',
  unicode:
    'matched after treating typographic look-alikes (curly quotes, dashes, non-breaking spaces) as their plain forms',
  trailing_whitespace: 'matched after ignoring whitespace at the ends of lines',
  indentation: 'matched after ignoring indentation; the new text was re-indented to fit',
};

export function planReplacements(
  content: string,
  oldString: string,
  newString: string,
  expected: number,
): MatchOutcome {
  const eol = detectLineEnding(content);
  const oldText = withLineEnding(oldString, eol);
  const newText = withLineEnding(newString, eol);

  const exact = findAll(content, oldText);
  if (exact.length > 0) {
    if (exact.length !== expected) {
      return {
        kind: 'count_mismatch',
        strategy: 'exact',
        found: exact.length,
        lines: lineNumbers(content, exact),
      };
    }
    return {
      kind: 'matched',
      strategy: 'exact',
      replacements: exact.map((start) => ({ start, end: start + oldText.length, text: newText })),
    };
  }

  const recoveries: [MatchStrategy, () => Replacement[]][] = [
    ['unicode', () => unicodeMatches(content, oldText, newText)],
    [
      'trailing_whitespace',
      () => lineMatches(content, oldText, newText, (line) => line.trimEnd(), false),
    ],
    ['indentation', () => lineMatches(content, oldText, newText, (line) => line.trim(), true)],
  ];
  for (const [strategy, find] of recoveries) {
    const found = find();
    if (found.length === 0) continue;
    if (found.length !== expected) {
      return {
        kind: 'count_mismatch',
        strategy,
        found: found.length,
        lines: lineNumbers(
          content,
          found.map((r) => r.start),
        ),
      };
    }
    return { kind: 'matched', strategy, replacements: found };
  }
  return { kind: 'not_found', closest: closestRegion(content, oldText) };
}

/** Applies non-overlapping replacements to `content`. */
export function applyReplacements(content: string, replacements: Replacement[]): string {
  const sorted = [...replacements].sort((a, b) => a.start - b.start);
  let result = '';
  let cursor = 0;
  for (const { start, end, text } of sorted) {
    result += content.slice(cursor, start) + text;
    cursor = end;
  }
  return result + content.slice(cursor);
}

/** 1-based line number of each offset. */
export function lineNumbers(content: string, offsets: number[]): number[] {
  return offsets.map((offset) => {
    let line = 1;
    for (let i = content.indexOf('\n'); i !== -1 && i < offset; i = content.indexOf('\n', i + 1))
      line++;
    return line;
  });
}

function withLineEnding(text: string, eol: '\n' | '\r\n'): string {
  const lf = text.replace(/\r\n/g, '\n');
  return eol === '\r\n' ? lf.replace(/\n/g, '\r\n') : lf;
}

function findAll(haystack: string, needle: string): number[] {
  if (needle === '') return [];
  const found: number[] = [];
  for (
    let at = haystack.indexOf(needle);
    at !== -1;
    at = haystack.indexOf(needle, at + needle.length)
  ) {
    found.push(at);
  }
  return found;
}

// ---- 1. Unicode look-alikes -------------------------------------------------------------

const LOOK_ALIKES: Record<string, string> = {};
for (const ch of '\u2018\u2019\u201a\u201b\u2032\u00b4\u0060') LOOK_ALIKES[ch] = "'";
for (const ch of '\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb') LOOK_ALIKES[ch] = '"';
for (const ch of '\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d')
  LOOK_ALIKES[ch] = '-';
for (const ch of '\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000') {
  LOOK_ALIKES[ch] = ' ';
}

/** One character for one, so offsets in the normalised text are offsets in the original. */
function plainForm(text: string): string {
  let result = '';
  for (const ch of text) result += ch.length === 1 ? (LOOK_ALIKES[ch] ?? ch) : ch;
  return result;
}

function unicodeMatches(content: string, oldText: string, newText: string): Replacement[] {
  const starts = findAll(plainForm(content), plainForm(oldText));
  if (starts.length === 0) return [];
  // The parts new_string shares with old_string at its start and end are taken from the
  // file, so the file keeps its own quotes and dashes there; only the changed middle is
  // the model's text, with a look-alike mapped to the file's form where that is unambiguous.
  const prefix = commonPrefixLength(oldText, newText);
  const suffix = commonSuffixLength(oldText.slice(prefix), newText.slice(prefix));
  const mapping = new Map<string, string | null>();
  for (const start of starts) {
    for (let i = 0; i < oldText.length; i++) {
      const typed = oldText[i]!;
      const inFile = content[start + i]!;
      if (typed === inFile) continue;
      const previous = mapping.get(typed);
      mapping.set(typed, previous === undefined || previous === inFile ? inFile : null);
    }
  }
  const middle = [...newText.slice(prefix, newText.length - suffix)]
    .map((ch) => mapping.get(ch) ?? ch)
    .join('');
  return starts.map((start) => {
    const region = content.slice(start, start + oldText.length);
    const text = region.slice(0, prefix) + middle + region.slice(region.length - suffix);
    return { start, end: start + oldText.length, text };
  });
}

function commonPrefixLength(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

function commonSuffixLength(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[a.length - 1 - i] === b[b.length - 1 - i]) i++;
  return i;
}

// ---- 2 and 3. Line-based recoveries -----------------------------------------------------

interface Line {
  start: number;
  /** End of the line's text, before its line break. */
  end: number;
  text: string;
}

function splitWithOffsets(content: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (;;) {
    const newline = content.indexOf('\n', start);
    const end = newline === -1 ? content.length : newline;
    const raw = content.slice(start, end);
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    lines.push({ start, end: start + text.length, text });
    if (newline === -1) break;
    start = newline + 1;
  }
  return lines;
}

function lineMatches(
  content: string,
  oldText: string,
  newText: string,
  normalize: (line: string) => string,
  reindent: boolean,
): Replacement[] {
  const oldLines = splitWithOffsets(oldText).map((line) => line.text);
  // A trailing line break in old_string ends the last line; it is not an extra empty line.
  if (oldLines.length > 1 && oldLines[oldLines.length - 1] === '') oldLines.pop();
  if (oldLines.every((line) => normalize(line) === '')) return [];
  const fileLines = splitWithOffsets(content);
  const wanted = oldLines.map(normalize);
  const replacements: Replacement[] = [];
  for (let i = 0; i + wanted.length <= fileLines.length; ) {
    let same = true;
    for (let j = 0; j < wanted.length && same; j++)
      same = normalize(fileLines[i + j]!.text) === wanted[j];
    if (!same) {
      i++;
      continue;
    }
    const window = fileLines.slice(i, i + wanted.length);
    const eol = detectLineEnding(content);
    const text = rewriteLines(
      window.map((l) => l.text),
      oldLines,
      newText,
      normalize,
      reindent,
      eol,
    );
    replacements.push({ start: window[0]!.start, end: window[window.length - 1]!.end, text });
    i += wanted.length;
  }
  return replacements;
}

/**
 * The replacement for one matched window: new_string's lines, where a line the edit leaves
 * as it was keeps the file's own text, and (for indentation) the rest are re-indented.
 */
function rewriteLines(
  fileWindow: string[],
  oldLines: string[],
  newText: string,
  normalize: (line: string) => string,
  reindent: boolean,
  eol: string,
): string {
  const newLines = newText.split(eol);
  if (newLines.length > 1 && newLines[newLines.length - 1] === '' && newText.endsWith(eol))
    newLines.pop();
  const oldIndent = commonIndent(oldLines);
  const fileIndent = commonIndent(fileWindow);
  const out = newLines.map((line, index) => {
    const oldLine = oldLines[index];
    if (
      oldLine !== undefined &&
      line === oldLine &&
      normalize(fileWindow[index] ?? '') === normalize(oldLine)
    ) {
      return fileWindow[index]!;
    }
    if (!reindent || line.trim() === '') return line;
    return line.startsWith(oldIndent)
      ? fileIndent + line.slice(oldIndent.length)
      : fileIndent + line.trimStart();
  });
  return out.join(eol);
}

function commonIndent(lines: string[]): string {
  let common: string | null = null;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const indent = /^[ \t]*/.exec(line)![0];
    if (common === null || indent.length < common.length) common = indent;
  }
  return common ?? '';
}

// ---- Closest region, for the error message -----------------------------------------------

function bigrams(text: string): Set<string> {
  const grams = new Set<string>();
  const s = text.trim().replace(/\s+/g, ' ');
  for (let i = 0; i < s.length - 1; i++) grams.add(s.slice(i, i + 2));
  return grams;
}

function dice(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const gram of a) if (b.has(gram)) shared++;
  return (2 * shared) / (a.size + b.size);
}

const MAX_CANDIDATES = 60;

function closestRegion(content: string, oldText: string): ClosestRegion | null {
  const fileLines = splitWithOffsets(content).map((line) => line.text);
  const oldLines = splitWithOffsets(oldText).map((line) => line.text);
  if (oldLines.length > 1 && oldLines[oldLines.length - 1] === '') oldLines.pop();
  const size = Math.min(oldLines.length, fileLines.length);
  if (size === 0) return null;
  const fileGrams = fileLines.map(bigrams);
  const oldGrams = oldLines.map(bigrams);
  // Score each start by its first line, then score whole windows for the best few.
  const firstScores = fileGrams
    .slice(0, fileLines.length - size + 1)
    .map((grams, index) => ({ index, score: dice(grams, oldGrams[0]!) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, MAX_CANDIDATES);
  let best: { index: number; score: number } | null = null;
  for (const { index } of firstScores) {
    let total = 0;
    for (let j = 0; j < size; j++) total += dice(fileGrams[index + j]!, oldGrams[j]!);
    const score = total / oldLines.length;
    if (!best || score > best.score || (score === best.score && index < best.index))
      best = { index, score };
  }
  if (!best || best.score < 0.3) return null;
  return {
    startLine: best.index + 1,
    endLine: best.index + size,
    similarity: best.score,
    text: fileLines.slice(best.index, best.index + size).join('\n'),
  };
}
