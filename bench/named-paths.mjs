/**
 * The read_many_files case of the issue: 1,000 files named one by one, spread across the
 * corpus's generated packages (every 24th tracked file), with a response budget that
 * answers the first 20 of them: the rest must cost nothing but their listing.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CORPUS, capture } from './lib.mjs';

export const NAMED = 1000;
export const ANSWERED = 20;

export function namedPaths() {
  const tracked = capture('git', ['ls-files', '-z', 'packages']).split('\0').filter(Boolean);
  const step = Math.floor(tracked.length / NAMED);
  const paths = Array.from({ length: NAMED }, (_, i) => tracked[i * step]).sort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'toolhost-bench-named-'));
  const list = path.join(dir, 'paths.txt');
  writeFileSync(list, `${paths.join('\n')}\n`);
  // Each answered file is "--- <path> ---\n<text>\n"; the tool keeps 2,000 characters of
  // its budget for notes. Half of the next file fits too, so exactly ANSWERED are read.
  const block = (file) =>
    `--- ${path.join(CORPUS, file)} ---\n`.length +
    readFileSync(path.join(CORPUS, file)).length +
    1;
  const answered = paths.slice(0, ANSWERED).reduce((sum, file) => sum + block(file), 0);
  const threshold = 2_000 + answered + Math.floor(block(paths[ANSWERED]) / 2);
  const home = path.join(dir, 'home');
  mkdirSync(path.join(home, '.toolhost'), { recursive: true });
  writeFileSync(
    path.join(home, '.toolhost', 'settings.json'),
    JSON.stringify({ tools: { truncateOutputThreshold: threshold } }),
  );
  return { paths, list, home, threshold };
}
