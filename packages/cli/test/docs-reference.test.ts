/**
 * The documentation's promises about itself: the reference pages are what `npm run docs`
 * writes from the code today, every relative link leads to a file (and a heading) that
 * exists, no page under docs/ is over 700 lines and README.md stays within 300.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { docPages, REPO } from './helpers/doc-examples.js';

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#+ (.*)$/gm)].map((match) => anchorOf(match[1] ?? '')));
}

describe('the documentation', () => {
  it('has reference pages written from the code as it is (npm run docs)', {
    timeout: 60_000,
  }, () => {
    let problem = '';
    try {
      execFileSync(process.execPath, [path.join(REPO, 'scripts', 'docs.mjs'), '--check'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      problem = (error as { stderr?: string }).stderr ?? String(error);
    }
    expect(problem).toBe('');
  });

  it('links only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const page of docPages()) {
      const text = readFileSync(path.join(REPO, page), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1] ?? '';
        if (/^[a-z]+:/.test(target)) continue; // https:, mailto:
        const [file = '', anchor] = target.split('#');
        const resolved = file
          ? path.resolve(path.dirname(path.join(REPO, page)), file)
          : path.join(REPO, page);
        if (!existsSync(resolved)) broken.push(`${page}: ${target}`);
        else if (anchor && resolved.endsWith('.md') && !anchors(resolved).has(anchor))
          broken.push(`${page}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('keeps README.md within 300 lines and each page under docs/ within 700', () => {
    const long = docPages()
      .map((page) => ({
        page,
        lines: readFileSync(path.join(REPO, page), 'utf8').split('\n').length - 1,
      }))
      .filter(({ page, lines }) => lines > (page === 'README.md' ? 300 : 700));
    expect(long).toEqual([]);
  });
});
