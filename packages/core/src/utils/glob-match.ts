/** Glob matching shared by the search tools, so one pattern means the same everywhere. */
import path from 'node:path';
import { picomatch } from './lazy-libraries.js';

export interface GlobOptions {
  caseSensitive?: boolean;
}

/** Matches a path relative to the search folder against a glob (`**`, braces, classes). */
export function globMatcher(
  pattern: string,
  options: GlobOptions = {},
): (relativePath: string) => boolean {
  const matcher = picomatch()(toPosix(pattern), {
    dot: true,
    nocase: !(options.caseSensitive ?? false),
  });
  return (relativePath) => matcher(toPosix(relativePath));
}

/**
 * Whether a path matches any of several globs, as one regular expression: picomatch's own
 * list matcher calls each glob's matcher in turn, which was most of the cost of testing a
 * thousand paths against a dozen patterns.
 */
export function anyGlobMatcher(
  patterns: readonly string[],
  options: GlobOptions = {},
): (relativePath: string) => boolean {
  if (patterns.length === 0) return () => false;
  const nocase = !(options.caseSensitive ?? false);
  const sources = patterns.map(
    (pattern) => `(?:${picomatch().makeRe(toPosix(pattern), { dot: true, nocase }).source})`,
  );
  const regex = new RegExp(sources.join('|'), nocase ? 'i' : '');
  return (relativePath) => regex.test(toPosix(relativePath));
}

/**
 * A file filter as ripgrep's --glob reads one: a pattern without a slash (`*.ts`,
 * `*.{ts,tsx}`) matches the file name at any depth; a pattern with a slash matches the
 * path relative to the search folder.
 */
export function fileFilter(
  pattern: string,
  options: GlobOptions = {},
): (relativePath: string) => boolean {
  const posix = toPosix(pattern);
  if (posix.includes('/')) return globMatcher(posix.replace(/^\.\//, ''), options);
  const matchName = globMatcher(posix, options);
  return (relativePath) => matchName(path.posix.basename(toPosix(relativePath)));
}

/** The folder part of a glob before its first wildcard (`src/**\/*.ts` → `src`). */
export function globBase(pattern: string): string {
  const scanned = picomatch().scan(toPosix(pattern));
  return scanned.isGlob ? scanned.base : path.posix.dirname(toPosix(pattern));
}

/**
 * Whether a glob can match below the folder its literal part names (`src/**\/*.ts`,
 * `src/*\/index.ts`) rather than only that folder's own entries (`src/*.ts`).
 */
export function globReachesSubfolders(pattern: string): boolean {
  const scanned = picomatch().scan(toPosix(pattern));
  return scanned.isGlob && (scanned.glob.includes('/') || scanned.glob.includes('**'));
}

export function isGlobPattern(pattern: string): boolean {
  return picomatch().scan(toPosix(pattern)).isGlob;
}

function toPosix(p: string): string {
  return path.sep === '/' ? p : p.split(path.sep).join('/');
}

/**
 * The file-name part of a glob (`*.{ts,tsx}` in `src/**\/*.{ts,tsx}`) in the syntax of
 * ripgrep's file types, which select names without overriding ignore rules as --glob
 * does. Undefined when ripgrep's syntax cannot say the same thing (`**`, classes, nested
 * or numeric braces, extglobs). Without case sensitivity each letter is spelled both ways.
 */
export function ripgrepNameGlob(pattern: string, options: GlobOptions = {}): string | undefined {
  const posix = toPosix(pattern);
  const name = posix.slice(posix.lastIndexOf('/') + 1);
  if (name === '' || name.includes('**') || !/^[\w.*?{},\- ~#$%=]+$/.test(name)) return undefined;
  let depth = 0;
  for (const char of name) {
    depth += char === '{' ? 1 : char === '}' ? -1 : 0;
    if (depth < 0 || depth > 1) return undefined;
  }
  if (depth !== 0 || /\{[^}]*\.\.[^}]*\}/.test(name)) return undefined;
  if (options.caseSensitive) return name;
  return name.replace(/[a-zA-Z]/g, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`);
}
