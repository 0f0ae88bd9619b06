/** The person-facing view of a file change, shared by the tools that change files. */
import path from 'node:path';
import type { Config } from '../config/config.js';
import { makeFileDiff } from '../utils/file-diff.js';
import type { FileDiff, ToolEditConfirmationDetails } from './tools.js';

/** The diff of a change to `filePath`, named by its workspace-relative path when it has one. */
export function fileChangeDiff(
  config: Config,
  filePath: string,
  before: string | null,
  after: string,
): FileDiff {
  const relative = config.workspace.relative(filePath);
  const name = relative === filePath ? path.basename(filePath) : relative;
  return makeFileDiff(name, before, after, filePath);
}

/** Confirmation details of type `edit` showing a change. */
export function editConfirmation(
  title: string,
  diff: FileDiff,
  options: { modifiable?: boolean } = {},
): ToolEditConfirmationDetails {
  return {
    type: 'edit',
    title,
    fileName: diff.fileName,
    filePath: diff.filePath ?? diff.fileName,
    fileDiff: diff.fileDiff,
    originalContent: diff.originalContent,
    newContent: diff.newContent,
    ...(options.modifiable ? { isModifiable: true } : {}),
    onConfirm: () => undefined,
  };
}
