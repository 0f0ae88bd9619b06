/**
 * Changes one key of a settings file the way a person would: the rest of the file stays as
 * it was, comments and layout included (settings files are JSON with comments), and the
 * new text replaces the old in one rename, so a crash leaves the old file or the new one.
 * A file that does not parse is left alone, with a message saying where it is wrong. The
 * one writer for rules saved from an approval question and for `toolhost mcp add/remove`.
 */
import { lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import type { FormattingOptions, JSONPath, ParseError } from 'jsonc-parser';
import { writeFileAtomic } from '../utils/atomic-write.js';
import { jsonc } from '../utils/lazy-libraries.js';

export class SettingsEditError extends Error {}

export interface EditTarget {
  file: string;
  /**
   * Follow a link at the file to where it leads (the person's own file in a dotfiles
   * folder); without it a link is refused, so a project cannot point its settings file at
   * another of the person's files and have toolhost write there.
   */
  followLink?: boolean;
  /** The file will hold a key: readable by its owner only, in a folder of the owner's. */
  secret?: boolean;
}

function formatting(text: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  return {
    insertSpaces: !indent.startsWith('\t'),
    tabSize: indent.startsWith('\t') ? 1 : indent.length,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

function readCurrent(target: EditTarget): { file: string; text: string; mode?: number } {
  let file = target.file;
  let isLink = false;
  try {
    isLink = lstatSync(file).isSymbolicLink();
  } catch {
    return { file, text: '' };
  }
  if (isLink) {
    if (!target.followLink)
      throw new SettingsEditError(
        `${file} is a symbolic link; toolhost does not write through it. Replace it with a file, or edit the file it leads to yourself.`,
      );
    file = realpathSync(file);
  }
  return { file, text: readFileSync(file, 'utf8'), mode: statSync(file).mode & 0o777 };
}

/** The parsed text (JSON with comments), or a message naming `name` and the first problem. */
export function parseSettingsText(text: string, name: string): unknown {
  const { parse, printParseErrorCode } = jsonc();
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true });
  const first = errors[0];
  if (first) {
    const line = text.slice(0, first.offset).split('\n').length;
    throw new SettingsEditError(
      `${name} is not valid JSON (${printParseErrorCode(first.error)} on line ${line})`,
    );
  }
  return value;
}

/** The parsed file, or a message naming the first problem. */
function parsed(file: string, text: string): unknown {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = parseSettingsText(text, file);
  } catch (error) {
    throw new SettingsEditError(
      `${(error as Error).message}; it was left as it is. Fix it, then try again.`,
    );
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new SettingsEditError(`${file} does not hold a JSON object; it was left as it is.`);
  return value;
}

function valueAt(root: unknown, keyPath: JSONPath): unknown {
  let node = root;
  for (const key of keyPath) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}

/**
 * Rewrites the file with `change` applied. `change` gets the parsed content and returns
 * the edits (a key path and its new value, undefined to remove it; a path ending in -1
 * appends to a list); none leaves the file
 * untouched. Returns whether the file changed.
 */
export async function editSettingsFile(
  target: EditTarget,
  change: (current: unknown) => { path: JSONPath; value: unknown }[],
): Promise<boolean> {
  const { file, text, mode } = readCurrent(target);
  const edits = change(parsed(file, text));
  if (edits.length === 0) return false;
  let next = text.trim() === '' ? '{}\n' : text;
  const options = formatting(next);
  const { applyEdits, modify } = jsonc();
  for (const edit of edits) {
    const isArrayInsertion = edit.path.at(-1) === -1;
    next = applyEdits(
      next,
      modify(next, edit.path, edit.value, { formattingOptions: options, isArrayInsertion }),
    );
  }
  if (!next.endsWith('\n')) next += '\n';
  const fileMode = target.secret ? 0o600 : mode;
  await writeFileAtomic(file, Buffer.from(next, 'utf8'), {
    createParents: true,
    ...(fileMode === undefined ? {} : { mode: fileMode }),
    ...(target.secret ? { folderMode: 0o700 } : {}),
  });
  return true;
}

/** Adds `entry` to the list at `keyPath` unless it is there already; whether it was added. */
export function addToSettingsList(
  target: EditTarget,
  keyPath: JSONPath,
  entry: string,
): Promise<boolean> {
  return editSettingsFile(target, (current) => {
    const list = valueAt(current, keyPath);
    if (Array.isArray(list))
      return list.includes(entry) ? [] : [{ path: [...keyPath, list.length], value: entry }];
    return [{ path: keyPath, value: [entry] }];
  });
}

/** The value at `keyPath` in a settings file, or undefined when the file or key is missing. */
export function readSettingsValue(file: string, keyPath: JSONPath): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  return valueAt(parsed(file, text), keyPath);
}
