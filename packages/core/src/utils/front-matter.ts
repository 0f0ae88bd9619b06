/**
 * Markdown files that begin with YAML front matter (subagent files, user commands): the
 * fields and the body, or a message for the person saying what is wrong with the file.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml, stringify as toYaml } from 'yaml';

export interface FrontMatterFile {
  /** The front matter's fields; undefined when the file has none. */
  fields: Record<string, unknown> | undefined;
  /** The text after the front matter, trimmed. */
  body: string;
}

// The closing line must be a line of its own: a value ending in "---" does not end the block.
const FRONT_MATTER = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)([\s\S]*)$/;

/**
 * Reads and splits a file. `expected` names the fields in the message for front matter
 * that is not a set of fields (e.g. "name, description, tools, model").
 */
export function readFrontMatterFile(file: string, expected: string): FrontMatterFile | string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return `cannot be read (${(error as Error).message}).`;
  }
  return splitFrontMatter(text, expected);
}

export function splitFrontMatter(text: string, expected: string): FrontMatterFile | string {
  const clean = text.replace(/^\uFEFF/, '');
  const match = FRONT_MATTER.exec(clean);
  if (!match) return { fields: undefined, body: clean.trim() };
  let data: unknown;
  try {
    data = parseYaml(match[1] ?? '') ?? {};
  } catch (error) {
    return `its front matter is not valid YAML: ${(error as Error).message.split('\n')[0]}`;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return `its front matter must be a set of fields (${expected}).`;
  }
  return { fields: data as Record<string, unknown>, body: (match[2] ?? '').trim() };
}

/** The file text for `fields` as front matter and `body` after it: what splitFrontMatter reads back. */
export function joinFrontMatter(fields: Record<string, unknown>, body: string): string {
  return `---\n${toYaml(fields).trimEnd()}\n---\n\n${body.trim()}\n`;
}
