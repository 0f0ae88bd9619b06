/**
 * Changes one key of the person's own settings file (~/.toolhost/settings.json), through
 * the one settings writer (settings-file-edit.ts): comments and the other keys kept, the
 * file replaced whole. Used by the interactive terminal's /theme and /vim, which remember
 * the choice.
 */
import path from 'node:path';
import { editSettingsFile } from './settings-file-edit.js';

/** Sets `key` (its parts, e.g. ['ui', 'theme']) to `value`; resolves with the file written. */
export async function saveUserSetting(
  userDir: string,
  key: string[],
  value: unknown,
): Promise<string> {
  const file = path.join(userDir, 'settings.json');
  await editSettingsFile({ file, followLink: true }, () => [{ path: key, value }]);
  return file;
}
