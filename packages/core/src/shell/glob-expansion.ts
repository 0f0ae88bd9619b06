/**
 * The file names a word with braces or glob characters becomes, as bash makes them before
 * the command runs: brace expansion (`{a,b}`, `{1..3}`), then pathname expansion against
 * the file system with bash's defaults (a name starting with a dot only for a pattern part
 * that starts with one, `.` and `..` never, nullglob off: a pattern matching nothing stays
 * as it is written). The read-only check judges every name this gives; a word that would
 * give more than it can look at is a problem, never a guess.
 */
import { lstatSync, readdirSync, statSync } from 'node:fs';

/** Names a word may become at most before it is not checked (bash's own limit is memory). */
export const MAX_EXPANDED = 1000;
/** Folder entries read at most for one word. */
const MAX_ENTRIES_READ = 20_000;

const GLOB_CHAR = /[*?[]/;

export type Expansion = { words: string[] } | { problem: string };

/**
 * The words `value` (an unquoted word's value, tilde already expanded by `tilde`) becomes.
 * Relative names are returned relative, as the command receives them; `cwd` is where
 * they are looked up.
 */
export function expandWord(
  value: string,
  cwd: string,
  tilde: (word: string) => string | null,
): Expansion {
  const braced = expandBraces(value);
  if (!braced) return { problem: `${value} expands to more than ${MAX_EXPANDED} words` };
  const budget = { entries: MAX_ENTRIES_READ };
  const words: string[] = [];
  for (const word of braced) {
    const expanded = tilde(word);
    if (expanded === null)
      return { problem: `${word} starts with a ~ form whose folder toolhost does not know` };
    if (!GLOB_CHAR.test(expanded)) {
      words.push(expanded);
      continue;
    }
    if (/[()|]/.test(expanded))
      return {
        problem: `the pattern ${expanded} uses extended globbing, which toolhost does not expand`,
      };
    const matches = globMatches(expanded, cwd, budget);
    if (!matches) return { problem: `the pattern ${expanded} matches too many files to check` };
    words.push(...(matches.length > 0 ? matches.sort() : [expanded]));
    if (words.length > MAX_EXPANDED)
      return { problem: `${value} matches more than ${MAX_EXPANDED} files to check` };
  }
  return { words };
}

/** Bash's brace expansion of one word, or null when it gives more than MAX_EXPANDED words. */
export function expandBraces(word: string): string[] | null {
  const results: string[] = [];
  const pending = [word];
  while (pending.length > 0) {
    const current = pending.pop()!;
    const found = firstBrace(current);
    if (!found) {
      results.push(current);
      if (results.length > MAX_EXPANDED) return null;
      continue;
    }
    const { start, end, items } = found;
    if (pending.length + items.length > MAX_EXPANDED) return null;
    const head = current.slice(0, start);
    const tail = current.slice(end + 1);
    for (const item of [...items].reverse()) pending.push(head + item + tail);
  }
  return results;
}

/** The first `{…}` that expands (a list with a top-level comma, or a sequence). */
function firstBrace(word: string): { start: number; end: number; items: string[] } | undefined {
  for (let start = word.indexOf('{'); start !== -1; start = word.indexOf('{', start + 1)) {
    let depth = 0;
    const commas: number[] = [];
    let end = -1;
    for (let i = start; i < word.length; i++) {
      const char = word[i];
      if (char === '{') depth++;
      else if (char === '}' && --depth === 0) {
        end = i;
        break;
      } else if (char === ',' && depth === 1) commas.push(i);
    }
    if (end === -1) return undefined;
    const inner = word.slice(start + 1, end);
    if (commas.length > 0) {
      const items: string[] = [];
      let from = start + 1;
      for (const comma of [...commas, end]) {
        items.push(word.slice(from, comma));
        from = comma + 1;
      }
      return { start, end, items };
    }
    const sequence = sequenceItems(inner);
    if (sequence) return { start, end, items: sequence };
  }
  return undefined;
}

/** `1..5`, `a..e`, `10..1..3`: the words of a sequence, or undefined when it is none. */
function sequenceItems(inner: string): string[] | undefined {
  const numbers = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(inner);
  const letters = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?$/.exec(inner);
  const match = numbers ?? letters;
  if (!match) return undefined;
  const from = numbers ? Number(match[1]) : match[1]!.charCodeAt(0);
  const to = numbers ? Number(match[2]) : match[2]!.charCodeAt(0);
  const step = Math.abs(Number(match[3] ?? 1)) || 1;
  const count = Math.floor(Math.abs(to - from) / step) + 1;
  if (count > MAX_EXPANDED) return Array.from({ length: MAX_EXPANDED + 1 }, () => '');
  // Bash pads to the width of the wider end when either is written with a leading zero.
  const padded = numbers && [match[1]!, match[2]!].some((end) => /^-?0\d/.test(end));
  const width = padded ? Math.max(match[1]!.length, match[2]!.length) : 0;
  const items: string[] = [];
  for (let i = 0; i < count; i++) {
    const value = from + (to >= from ? i : -i) * step;
    items.push(numbers ? String(value).padStart(width, '0') : String.fromCharCode(value));
  }
  return items;
}

/** The names a pattern matches (absolute, or relative to `cwd`), or null over the budget. */
function globMatches(pattern: string, cwd: string, budget: { entries: number }): string[] | null {
  const parts = pattern.split('/');
  // Each candidate: the name as the command gets it, and where it is on disk. An absolute
  // pattern's first part is empty, so joining gives `/name`.
  let candidates = [{ shown: '', disk: pattern.startsWith('/') ? '' : cwd }];
  // Whether names after the last pattern part must be looked up (`*/x` needs an x).
  let unchecked = false;
  let sawPattern = false;
  for (const [index, part] of parts.entries()) {
    const join = (base: string, name: string) => (index === 0 ? name : `${base}/${name}`);
    if (!GLOB_CHAR.test(part)) {
      unchecked ||= sawPattern;
      candidates = candidates.map((c) => ({
        shown: join(c.shown, part),
        disk: index === 0 && part === '' ? '' : `${c.disk}/${part}`,
      }));
      continue;
    }
    const matcher = componentMatcher(part);
    const next: { shown: string; disk: string }[] = [];
    for (const candidate of candidates) {
      let entries: string[];
      try {
        entries = readdirSync(candidate.disk || '/');
      } catch {
        continue; // no such folder: nothing here matches
      }
      budget.entries -= entries.length;
      if (budget.entries < 0) return null;
      for (const name of entries) {
        if (!matcher(name)) continue;
        next.push({ shown: join(candidate.shown, name), disk: `${candidate.disk}/${name}` });
        if (next.length > MAX_EXPANDED) return null;
      }
    }
    candidates = next;
    sawPattern = true;
    unchecked = false;
    if (candidates.length === 0) return [];
  }
  if (unchecked) candidates = candidates.filter((c) => exists(c.disk));
  return candidates.map((c) => c.shown);
}

/** Whether a name is there (a link counts, wherever it leads; `x/` needs a folder). */
function exists(file: string): boolean {
  try {
    if (file.endsWith('/')) return statSync(file).isDirectory();
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

const CLASSES: Record<string, string> = {
  alpha: 'A-Za-z',
  digit: '0-9',
  alnum: 'A-Za-z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: '\\s',
  blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~',
  xdigit: '0-9A-Fa-f',
  word: '\\w',
  print: ' -~',
  graph: '!-~',
  cntrl: '\\x00-\\x1f\\x7f',
};

/** A test of one folder entry against one part of a pattern, with bash's dot rule. */
export function componentMatcher(part: string): (name: string) => boolean {
  let source = '';
  for (let i = 0; i < part.length; i++) {
    const char = part[i]!;
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else if (char === '[') {
      const bracket = bracketExpression(part, i);
      if (bracket) {
        source += bracket.source;
        i = bracket.end;
      } else source += '\\[';
    } else source += char.replace(/[.+?^${}()|[\]\\*/-]/g, '\\$&');
  }
  const regex = new RegExp(`^${source}$`, 's');
  const dotExplicit = part.startsWith('.');
  return (name) =>
    name !== '.' && name !== '..' && (dotExplicit || !name.startsWith('.')) && regex.test(name);
}

/** `[abc]`, `[!a-z]`, `[^[:digit:]]` from `start`: the regex class and where it ends. */
function bracketExpression(
  part: string,
  start: number,
): { source: string; end: number } | undefined {
  let i = start + 1;
  let negate = false;
  if (part[i] === '!' || part[i] === '^') {
    negate = true;
    i++;
  }
  let body = '';
  let first = true;
  for (; i < part.length; i++) {
    const char = part[i]!;
    if (char === ']' && !first) return { source: `[${negate ? '^' : ''}${body}]`, end: i };
    first = false;
    const named = /^\[:(\w+):\]/.exec(part.slice(i));
    if (named) {
      body += CLASSES[named[1]!] ?? '';
      i += named[0].length - 1;
      continue;
    }
    body += char === '-' ? '-' : char.replace(/[\\\]^[]/g, '\\$&');
  }
  return undefined;
}
