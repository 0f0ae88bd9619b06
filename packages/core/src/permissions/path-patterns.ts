/**
 * Path specifiers of `Read(...)`, `Edit(...)` and `Write(...)` rules, compiled once into
 * matchers of canonical absolute paths. A specifier is read as Claude Code and Qwen Code
 * read it: `//abs/path` from the file system's root, `~/path` from the home folder, `/path`
 * and `./path` (or a bare `path`) from the project root. Patterns follow .gitignore: `*`
 * and `?` stay in one folder, `**` crosses folders, `[abc]` is a class, `\` makes the next
 * character plain, `{a,b}` stands for either; a pattern without a slash (`.env`, `*.pem`)
 * matches that name at any depth, and a pattern naming a folder covers everything inside.
 *
 * Why compiled by hand and not pasted into a glob library: the project root and the home
 * folder are data, whatever characters their names hold (`repo (1)`, `[a]`, `{b,c}`,
 * `@(x)`), so they never reach a pattern syntax at all. Each pattern is split into its
 * literal folder (its root, compared by whole path components) and the wildcard rest
 * (matched by a regular expression built here). The root is resolved through links, so a
 * rule written through a link matches the real path and the written one.
 */
import path from 'node:path';
import { isWithin, resolveLikeKernel } from '../workspace/workspace-context.js';

export interface PathBases {
  projectRoot: string;
  homeDir: string;
}

/** One alternative of a compiled specifier. */
export interface CompiledPathPattern {
  /** The literal folder or file the pattern starts at: as written, then as links resolve. */
  roots: string[];
  /** The wildcard rest relative to a root; undefined when the root covers everything below. */
  rest?: RegExp;
}

export interface CompiledPathSpecifier {
  specifier: string;
  patterns: CompiledPathPattern[];
  /** Why the specifier could not be compiled as written (then `patterns` is its fallback). */
  problem?: string;
}

/** At most this many alternatives from `{a,b}` in one specifier. */
const MAX_ALTERNATIVES = 64;

/**
 * Compiles a specifier (trimmed by the rule parser). When it cannot be read (an unclosed `[`, a `..` after a wildcard),
 * `problem` says why, and the patterns are its literal folder covering everything below it:
 * a deny or ask rule stays at least as strict as meant; an allow rule's caller drops it.
 */
export function compilePathSpecifier(specifier: string, bases: PathBases): CompiledPathSpecifier {
  try {
    const patterns = expandBraces(specifier).map((one) => compileOne(one, bases));
    return { specifier, patterns };
  } catch (error) {
    const literal = literalFolderOf(specifier, bases);
    return {
      specifier,
      patterns: [{ roots: canonicalForms(literal) }],
      problem: (error as Error).message,
    };
  }
}

/** Whether an absolute path (one form, not resolved here) is covered by a compiled pattern. */
export function patternCovers(pattern: CompiledPathPattern, file: string): boolean {
  for (const root of pattern.roots) {
    if (!isWithin(root, file)) continue;
    if (!pattern.rest) return true;
    // The path or a folder above it (below the root) matches: a folder covers its contents.
    const parts = path.relative(root, file).split(path.sep);
    const { rest } = pattern;
    if (parts.some((_, index) => rest.test(parts.slice(0, index + 1).join('/')))) return true;
  }
  return false;
}

/** Whether any alternative of a compiled specifier covers the path (one form). */
export function specifierCovers(compiled: CompiledPathSpecifier, file: string): boolean {
  return compiled.patterns.some((pattern) => patternCovers(pattern, file));
}

/**
 * The forms a path is compared in: as written (normalised) and as the kernel resolves it
 * (the deepest existing ancestor for a file not made yet). A loop of links leaves the
 * written form alone; nothing can be opened through it anyway.
 */
export function pathForms(file: string): string[] {
  const written = path.resolve(file);
  const real = resolveLikeKernel(written);
  return real === null || real === written ? [written] : [written, real];
}

/** A matcher for absolute paths as written (kept for callers of the older helper). */
export function pathMatcher(specifier: string, bases: PathBases): (file: string) => boolean {
  const compiled = compilePathSpecifier(specifier, bases);
  return (file) => specifierCovers(compiled, path.resolve(file));
}

function canonicalForms(root: string): string[] {
  const real = resolveLikeKernel(root);
  return real === null || real === root ? [root] : [root, real];
}

interface Located {
  /** The absolute folder the specifier's text is relative to. */
  base: string;
  /** The specifier's segments below `base`, still in pattern syntax. */
  segments: string[];
  /** A bare name without a slash: it matches at any depth. */
  anyDepth: boolean;
}

function locate(specifier: string, bases: PathBases): Located {
  const trimmed = specifier.replace(/\/+$/, '');
  const split = (text: string) => text.split('/').filter((part) => part !== '' && part !== '.');
  if (trimmed.startsWith('//')) return { base: '/', segments: split(trimmed), anyDepth: false };
  if (trimmed === '~' || trimmed.startsWith('~/'))
    return { base: bases.homeDir, segments: split(trimmed.slice(1)), anyDepth: false };
  // `/x` and `./x` have a slash too: only a bare name matches at any depth.
  const anyDepth = !trimmed.includes('/');
  return { base: bases.projectRoot, segments: split(trimmed), anyDepth };
}

function compileOne(specifier: string, bases: PathBases): CompiledPathPattern {
  const { base, segments, anyDepth } = locate(specifier, bases);
  let root = path.resolve(base);
  let index = 0;
  // The literal folders become the root; `..` among them goes up, as the kernel reads it.
  for (; index < segments.length && !anyDepth; index++) {
    const segment = segments[index]!;
    if (hasWildcard(segment)) break;
    // path.join applies `..` itself (never above `/`).
    root = path.join(root, withoutEscapes(segment));
  }
  const rest = anyDepth ? ['**', ...segments] : segments.slice(index);
  if (rest.some((segment) => segment === '..'))
    throw new Error('".." after a wildcard cannot be resolved to a folder');
  if (rest.length === 0 || (rest.length === 1 && rest[0] === '**'))
    return { roots: canonicalForms(root) };
  return { roots: canonicalForms(root), rest: new RegExp(`^${restSource(rest)}$`, 's') };
}

/** The folder a specifier starts at, for a fallback: everything before its first wildcard. */
function literalFolderOf(specifier: string, bases: PathBases): string {
  const { base, segments, anyDepth } = locate(specifier, bases);
  let root = path.resolve(base);
  // A bare name's only segment is the one that failed, so it stays at the project root.
  for (const segment of anyDepth ? [] : segments) {
    if (/[*?[\\{]/.test(segment)) break;
    root = path.join(root, segment);
  }
  return root;
}

function restSource(segments: string[]): string {
  let source = '';
  let needSeparator = false;
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    if (segment === '**') {
      // After a name, nothing: a folder covers its contents anyway (patternCovers).
      if (last) source += needSeparator ? '' : '.*';
      else source += needSeparator ? '/(?:.*/)?' : '(?:.*/)?';
      needSeparator = false;
      return;
    }
    if (needSeparator) source += '/';
    source += segmentSource(segment);
    needSeparator = true;
  });
  return source;
}

/** One folder name of a pattern as a regular expression: `*`, `?`, classes and escapes. */
function segmentSource(segment: string): string {
  let source = '';
  for (let i = 0; i < segment.length; i++) {
    const char = segment[i]!;
    if (char === '\\') {
      if (i + 1 >= segment.length) throw new Error('it ends with a lone "\\"');
      source += escapeRegex(segment[++i]!);
    } else if (char === '*') {
      // `**` inside a name is two stars, as in .gitignore: any characters but `/`.
      while (segment[i + 1] === '*') i++;
      source += '[^/]*';
    } else if (char === '?') {
      source += '[^/]';
    } else if (char === '[') {
      const end = classEnd(segment, i);
      source += classSource(segment.slice(i + 1, end));
      i = end;
    } else {
      source += escapeRegex(char);
    }
  }
  return source;
}

/** The index of the `]` closing the class opened at `start`. */
function classEnd(segment: string, start: number): number {
  let i = start + 1;
  if (segment[i] === '!' || segment[i] === '^') i++;
  // A `]` right after the opening is a member, as in .gitignore and the shell.
  if (segment[i] === ']') i++;
  for (; i < segment.length; i++) {
    if (segment[i] === '\\') i++;
    else if (segment[i] === ']') return i;
  }
  throw new Error('a "[" is not closed by "]" (write "\\[" for the character itself)');
}

function classSource(body: string): string {
  let negate = false;
  let i = 0;
  if (body[0] === '!' || body[0] === '^') {
    negate = true;
    i = 1;
  }
  let members = '';
  for (; i < body.length; i++) {
    const char = body[i]!;
    // A `-` between members is a range; first, it is itself (escaped, since `/` comes
    // before it in a negated class); last, a regular expression reads it as itself too.
    if (char === '-' && members !== '') members += '-';
    // classEnd skipped the character after a `\`, so one always follows it here.
    else members += (char === '\\' ? body[++i]! : char).replace(/[\\\]^-]/g, '\\$&');
  }
  // A class never matches the separator, negated or not.
  return negate ? `[^/${members}]` : `(?!/)[${members}]`;
}

function hasWildcard(segment: string): boolean {
  return /[*?[]/.test(segment.replace(/\\./gs, ''));
}

function withoutEscapes(segment: string): string {
  return segment.replace(/\\(.)/gs, '$1');
}

function escapeRegex(char: string): string {
  return char.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/**
 * `{a,b}` alternatives, expanded into separate specifiers (nested braces too). A brace
 * without a comma, or escaped, is a plain character.
 */
export function expandBraces(specifier: string): string[] {
  const open = findBrace(specifier);
  if (!open) return [specifier];
  const { start, end, options } = open;
  const expanded: string[] = [];
  for (const option of options) {
    for (const one of expandBraces(specifier.slice(0, start) + option + specifier.slice(end + 1))) {
      expanded.push(one);
      if (expanded.length > MAX_ALTERNATIVES)
        throw new Error(`its {...} alternatives make more than ${MAX_ALTERNATIVES} patterns`);
    }
  }
  return expanded;
}

function findBrace(text: string): { start: number; end: number; options: string[] } | undefined {
  for (let start = 0; start < text.length; start++) {
    if (text[start] === '\\') {
      start++;
      continue;
    }
    if (text[start] !== '{') continue;
    let depth = 0;
    const commas: number[] = [];
    for (let i = start; i < text.length; i++) {
      const char = text[i]!;
      if (char === '\\') i++;
      else if (char === '{') depth++;
      else if (char === ',' && depth === 1) commas.push(i);
      else if (char === '}' && --depth === 0) {
        if (commas.length === 0) break;
        const cuts = [start, ...commas, i];
        const options = cuts.slice(1).map((cut, k) => text.slice(cuts[k]! + 1, cut));
        return { start, end: i, options };
      }
    }
  }
  return undefined;
}

/** A path written so that a specifier reads every character of it as itself. */
export function escapeForPattern(literal: string): string {
  return literal.replace(/[\\*?[{}]/g, '\\$&');
}
