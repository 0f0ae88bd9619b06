/**
 * Changes keys of a settings file in place, keeping the person's comments, order and
 * layout (jsonc-parser's edits), written atomically. A file that holds a key is left
 * readable by its owner only.
 */
import { readFileSync } from 'node:fs';
import { applyEdits, type JSONPath, modify } from 'jsonc-parser';
import { writeFileAtomic } from '../utils/atomic-write.js';

export interface SettingsChange {
  /** The key's path; `-1` as the last segment appends to a list. */
  path: JSONPath;
  value: unknown;
}

export async function editSettingsFile(
  file: string,
  changes: readonly SettingsChange[],
  options: { secret?: boolean } = {},
): Promise<void> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    text = '{}\n';
  }
  if (text.trim() === '') text = '{}\n';
  for (const change of changes) {
    const edits = modify(text, change.path, change.value, {
      formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' },
      isArrayInsertion: change.path.at(-1) === -1,
    });
    text = applyEdits(text, edits);
  }
  await writeFileAtomic(file, Buffer.from(text.endsWith('\n') ? text : `${text}\n`), {
    createParents: true,
    folderMode: 0o700,
    ...(options.secret ? { mode: 0o600 } : {}),
  });
}
