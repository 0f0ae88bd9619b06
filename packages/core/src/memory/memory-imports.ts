/**
 * `@path` references in memory files (Qwen Code's QWEN.md imports): `See @README.md` or
 * `@docs/git-workflow.md` on a line of its own brings that file's text in, relative to the
 * file that names it, up to five levels deep. A reference in a code block or inline code,
 * to a file that does not exist, or seen before on the way (a cycle) stays as written.
 * Where an imported file may be is the caller's rule (a project's memory imports only what
 * really lies inside the workspace).
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

const MAX_DEPTH = 5;
/** `@` at the start of a line or after white space, then a path (no spaces). */
const REFERENCE = /(^|\s)@((?:\.{1,2}\/|\/|~\/)?[\w.\-/]+[\w\-/])/g;
const FENCE = /^\s*(```|~~~)/;

/**
 * `read(file)` gives a file's text, or 'outside' / undefined when it may not or cannot be
 * read; `outside` receives the files refused as outside.
 */
export function expandImports(
  text: string,
  fromFile: string,
  read: (file: string) => string | 'outside' | undefined,
  outside: string[],
  homeDir: string,
  chain: readonly string[] = [fromFile],
): string {
  if (chain.length > MAX_DEPTH) return text;
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
        segment.replace(REFERENCE, (match, before: string, reference: string) => {
          const file = resolveReference(reference, fromFile, homeDir);
          if (!file || chain.includes(file)) return match;
          const content = read(file);
          if (content === 'outside') {
            if (!outside.includes(file)) outside.push(file);
            return match;
          }
          if (content === undefined) return match;
          const expanded = expandImports(content, file, read, outside, homeDir, [...chain, file]);
          return `${before}\n<!-- Imported from: ${reference} -->\n${expanded}\n<!-- End of import from: ${reference} -->\n`;
        }),
      );
    })
    .join('\n');
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
