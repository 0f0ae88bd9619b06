/**
 * `@path` references in memory files (Qwen Code's QWEN.md imports): `See @README.md` or
 * `@docs/git-workflow.md` on a line of its own brings that file's text in, relative to the
 * file that names it, up to five levels deep. A reference in a code block or inline code,
 * to a file that does not exist, or seen before on the way (a cycle) stays as written.
 * Where an imported file may be is the caller's rule (a project's memory imports only what
 * really lies inside the workspace).
 *
 * The expansion runs within a budget (depth, number of imports, characters) counted while
 * it goes, not after: a project's file that fans out (40 imports on each of 5 levels is
 * 100 million imports) stops at the first import over the budget, which stays as written,
 * and the file that named it is reported.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

export const MAX_IMPORT_DEPTH = 5;
/** Imports per memory load, all memory files together. */
export const MAX_IMPORTS = 100;
/** `@` at the start of a line or after white space, then a path (no spaces). */
const REFERENCE = /(^|\s)@((?:\.{1,2}\/|\/|~\/)?[\w.\-/]+[\w\-/])/g;
const ONE_REFERENCE = new RegExp(REFERENCE.source);
const FENCE = /^\s*(```|~~~)/;

/** What one memory load may still spend on imports; shared by every file it expands. */
export interface ImportBudget {
  /** Imports left. */
  imports: number;
  /** Characters of imported text left. */
  chars: number;
  /** One line per file whose imports went over the budget, naming it. */
  overruns: string[];
}

export function importBudget(maxChars: number, maxImports = MAX_IMPORTS): ImportBudget {
  return { imports: maxImports, chars: maxChars, overruns: [] };
}

export interface ImportContext {
  /** A file's text, or 'outside' / undefined when it may not or cannot be read. */
  read: (file: string) => string | 'outside' | undefined;
  /** Receives the files refused as outside. */
  outside: string[];
  homeDir: string;
  budget: ImportBudget;
}

/** The text with its `@` references replaced by the files they name, within the budget. */
export function expandImports(
  text: string,
  fromFile: string,
  context: ImportContext,
  chain: readonly string[] = [fromFile],
): string {
  if (chain.length > MAX_IMPORT_DEPTH) {
    if (text.split('\n').some((line) => ONE_REFERENCE.test(line)))
      overrun(context.budget, fromFile, `imports more than ${MAX_IMPORT_DEPTH} levels deep`);
    return text;
  }
  let inFence = false;
  return text
    .split('\n')
    .map((line) => {
      if (FENCE.test(line)) {
        inFence = !inFence;
        return line;
      }
      if (inFence || !line.includes('@')) return line;
      return replaceOutsideInlineCode(line, (segment) =>
        segment.replace(REFERENCE, (match, before: string, reference: string) =>
          importOne(match, before, reference, fromFile, context, chain),
        ),
      );
    })
    .join('\n');
}

function importOne(
  match: string,
  before: string,
  reference: string,
  fromFile: string,
  context: ImportContext,
  chain: readonly string[],
): string {
  const { budget } = context;
  const file = resolveReference(reference, fromFile, context.homeDir);
  if (!file || chain.includes(file)) return match;
  if (budget.imports <= 0) {
    overrun(budget, fromFile, `imports more than ${MAX_IMPORTS} files in all`);
    return match;
  }
  if (budget.chars <= 0) {
    overrun(budget, fromFile, 'imports more text than the memory limit holds');
    return match;
  }
  budget.imports--;
  const content = context.read(file);
  if (content === 'outside') {
    if (!context.outside.includes(file)) context.outside.push(file);
    return match;
  }
  if (content === undefined) return match;
  // Charged before going deeper, so a level below sees what is left, not what was.
  const own = content.length > budget.chars ? content.slice(0, budget.chars) : content;
  if (own.length < content.length) overrun(budget, file, 'is cut at the memory limit');
  budget.chars -= own.length;
  const expanded = expandImports(own, file, context, [...chain, file]);
  return `${before}\n<!-- Imported from: ${reference} -->\n${expanded}\n<!-- End of import from: ${reference} -->\n`;
}

function overrun(budget: ImportBudget, file: string, what: string): void {
  const line = `memory: ${file} ${what}; the rest of its @ imports were left as written.`;
  if (!budget.overruns.includes(line)) budget.overruns.push(line);
}

function resolveReference(
  reference: string,
  fromFile: string,
  homeDir: string,
): string | undefined {
  const file = reference.startsWith('~/')
    ? path.join(homeDir, reference.slice(2))
    : path.resolve(path.dirname(fromFile), reference);
  try {
    return existsSync(file) && statSync(file).isFile() ? file : undefined;
  } catch {
    return undefined;
  }
}

/** Applies `change` to the parts of a line outside `inline code`. */
function replaceOutsideInlineCode(line: string, change: (segment: string) => string): string {
  return line
    .split(/(`[^`]*`)/)
    .map((part) =>
      part.startsWith('`') && part.endsWith('`') && part.length > 1 ? part : change(part),
    )
    .join('');
}
