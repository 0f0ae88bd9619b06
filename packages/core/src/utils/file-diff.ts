/** Builds the person-facing view of a file change: a unified diff and its counts. */
import { createRequire } from 'node:module';
import type * as Diff from 'diff';
import type { DiffStat, FileDiff } from '../contract/tool-shapes.js';

// The diff library is required when a diff is first made, not when the file tools load.
const requireHere = createRequire(import.meta.url);
const diff = (): typeof Diff => requireHere('diff') as typeof Diff;

/**
 * A change is `proposed` while the person is asked about it and `applied` once written;
 * the diff's labels say which, so a diff shown after the write does not read as pending.
 */
export type ChangeStage = 'proposed' | 'applied';

export function makeFileDiff(
  fileName: string,
  originalContent: string | null,
  newContent: string,
  filePath?: string,
  stage: ChangeStage = 'proposed',
): FileDiff {
  const before = originalContent ?? '';
  const [oldLabel, newLabel] =
    stage === 'applied' ? ['before', 'written'] : ['current', 'proposed'];
  // git's a/ b/ prefixes suit workspace-relative names, not `~/...` or absolute ones.
  const prefixed = !fileName.startsWith('/') && !fileName.startsWith('~');
  const [oldName, newName] = prefixed ? [`a/${fileName}`, `b/${fileName}`] : [fileName, fileName];
  const patch = diff().createTwoFilesPatch(
    originalContent === null ? '/dev/null' : oldName,
    newName,
    before,
    newContent,
    originalContent === null ? '' : oldLabel,
    newLabel,
    { context: 3 },
  );
  // Drop the separator line the library puts first and the tabs after empty headers.
  const fileDiff = patch
    .split('\n')
    .filter((line, index) => !(index === 0 && /^=+$/.test(line)))
    .map((line) => (line.startsWith('---') || line.startsWith('+++') ? line.trimEnd() : line))
    .join('\n');
  return {
    fileDiff,
    fileName,
    ...(filePath ? { filePath } : {}),
    originalContent,
    newContent,
    diffStat: diffStat(before, newContent),
  };
}

export function diffStat(before: string, after: string): DiffStat {
  const stat: DiffStat = { linesAdded: 0, linesRemoved: 0, charsAdded: 0, charsRemoved: 0 };
  for (const change of diff().diffLines(before, after)) {
    if (change.added) stat.linesAdded += change.count ?? 0;
    if (change.removed) stat.linesRemoved += change.count ?? 0;
  }
  // Character counts only for changes of a size a person reads; a huge rewrite is all changed.
  if (before.length + after.length <= 200_000) {
    for (const change of diff().diffChars(before, after)) {
      if (change.added) stat.charsAdded += change.value.length;
      if (change.removed) stat.charsRemoved += change.value.length;
    }
  } else {
    stat.charsAdded = after.length;
    stat.charsRemoved = before.length;
  }
  return stat;
}
