/** The person-facing view of a file change, shared by the tools that change files. */
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../config/config.js';
import { type ChangeStage, makeFileDiff } from '../utils/file-diff.js';
import type { FileDiff, ToolEditConfirmationDetails } from './tools.js';

/**
 * The diff of a change to `filePath`, named by its workspace-relative path; a file outside
 * the workspace (the global memory file) keeps its full path, `~` for the home folder, so
 * it is not mistaken for the project's file of the same name.
 */
export function fileChangeDiff(
  config: Config,
  filePath: string,
  before: string | null,
  after: string,
  stage: ChangeStage = 'proposed',
): FileDiff {
  const relative = config.workspace.relative(filePath);
  const name = relative === filePath ? homeRelative(filePath) : relative;
  return makeFileDiff(name, before, after, filePath, stage);
}

function homeRelative(filePath: string): string {
  const home = os.homedir();
  const inside = path.relative(home, filePath);
  return inside && !inside.startsWith('..') && !path.isAbsolute(inside)
    ? `~/${inside.split(path.sep).join('/')}`
    : filePath;
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
