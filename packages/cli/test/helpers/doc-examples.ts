/**
 * The documentation's examples, as tests find them: README.md and every page under docs/,
 * each example marked by an HTML comment (`<!-- example: NAME ... -->`, or the older
 * `<!-- readme-example: NAME ... -->`) right before its fenced block.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

export interface DocExample {
  /** The page, relative to the repository. */
  file: string;
  name: string;
  /** The fence's language (sh, json, ts, js). */
  language: string;
  code: string;
}

/** README.md and every Markdown page under docs/, relative to the repository. */
export function docPages(): string[] {
  const pages = ['README.md'];
  const walk = (folder: string) => {
    for (const entry of readdirSync(path.join(REPO, folder), { withFileTypes: true })) {
      const relative = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith('.md')) pages.push(relative);
    }
  };
  walk('docs');
  return pages.sort();
}

export function docExamples(): DocExample[] {
  const found: DocExample[] = [];
  const marker = /<!-- (?:readme-)?example: ([\w-]+)[^>]*-->\n+```(\w+)\n([\s\S]*?)```/g;
  for (const file of docPages()) {
    const text = readFileSync(path.join(REPO, file), 'utf8');
    for (const match of text.matchAll(marker)) {
      found.push({ file, name: match[1] ?? '', language: match[2] ?? '', code: match[3] ?? '' });
    }
  }
  return found;
}

/** The one example with this name; throws naming the pages looked in when there is none. */
export function docExample(name: string): DocExample {
  const matches = docExamples().filter((example) => example.name === name);
  if (matches.length !== 1) {
    throw new Error(
      `expected one example named "${name}" in README.md or docs/, found ${matches.length}`,
    );
  }
  return matches[0] as DocExample;
}
