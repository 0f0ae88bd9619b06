/**
 * Changes one key of the person's own settings file (~/.toolhost/settings.json) the way a
 * person would: comments and the other keys kept as written, the file replaced whole.
 * Used by the interactive terminal's /theme and /vim, which remember the choice.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { applyEdits, modify, type ParseError, parse } from 'jsonc-parser';
import { writeOwnFileSync } from '../utils/own-files.js';

/** Sets `key` (its parts, e.g. ['ui', 'theme']) to `value`; returns the file written. */
export function saveUserSetting(userDir: string, key: string[], value: unknown): string {
  const file = path.join(userDir, 'settings.json');
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const errors: ParseError[] = [];
  if (text.trim()) parse(text, errors, { allowTrailingComma: true });
  if (errors.length > 0)
    throw new Error(
      `${file} is not valid JSON, so it was left as it is; fix it, or set ${key.join('.')} there by hand.`,
    );
  const edits = modify(text.trim() ? text : '{}\n', key, value, {
    formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' },
  });
  const updated = applyEdits(text.trim() ? text : '{}\n', edits);
  writeOwnFileSync(userDir, file, updated.endsWith('\n') ? updated : `${updated}\n`);
  return file;
}
