/**
 * What every grep_search engine is given and gives back, and the line and path rules they
 * share, so that the engines give the same answers.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileFilter } from '../utils/glob-match.js';
import type { IgnoreFlags } from '../utils/ripgrep.js';

export type GrepEngineName = 'ripgrep' | 'git' | 'javascript';

export interface GrepRequest {
  /** The workspace root that contains `target` (ignore files are read from it). */
  root: string;
  roots: readonly string[];
  /** What the ignore files leave out (default: everything they exclude). */
  ignore?: IgnoreFlags;
  /** Absolute folder or file to search. */
  target: string;
  pattern: string;
  ignoreCase: boolean;
  glob?: string;
  signal: AbortSignal;
  /**
   * Whether a match at this place would be shown; an engine may leave the text of the
   * others empty (they are only counted), which spares decoding millions of lines.
   */
  wouldShow?: (file: string, line: number) => boolean;
}

export interface GrepMatch {
  /** Absolute path. */
  file: string;
  line: number;
  text: string;
}

/**
 * Where an engine delivers what it finds, a file's matches together and in line order.
 * A match that `wouldShow` turned down is only counted: no object, no text.
 */
export interface GrepSink {
  match(match: GrepMatch): void;
  hidden(file: string): void;
}

/** The pattern is not a valid regular expression for the engine. */
export class GrepPatternError extends Error {}

/** Longest line text kept per match; longer lines are cut with a marker. */
export const MAX_MATCH_LINE = 1000;
/** Bytes that always decode to more than MAX_MATCH_LINE characters (UTF-8: at most 4 a character). */
export const MAX_MATCH_LINE_BYTES = 4 * MAX_MATCH_LINE + 4;
/** Room for a path, a line number and MAX_MATCH_LINE_BYTES of text in one output line. */
export const MAX_LINE_BYTES = 64 * 1024;

export function cutLine(text: string): string {
  return text.length > MAX_MATCH_LINE ? `${text.slice(0, MAX_MATCH_LINE)}… [line cut]` : text;
}

/** The glob as a test on absolute paths, relative to the searched folder (case-sensitive, as rg). */
export function globFilterFor(request: GrepRequest): ((file: string) => boolean) | null {
  if (!request.glob) return null;
  const filter = fileFilter(request.glob, { caseSensitive: true });
  return (file) => filter(path.relative(request.target, file) || path.basename(file));
}

export async function isDirectory(target: string): Promise<boolean> {
  try {
    return (await stat(target)).isDirectory();
  } catch {
    return false;
  }
}
