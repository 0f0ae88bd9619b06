/**
 * Paths inside a `.git` folder: git's config and hooks there run programs, so a file tool
 * that changes them always asks the person (except in yolo mode), even in auto-edit mode
 * or when the tool is otherwise allowed.
 */
import path from 'node:path';
import type { WorkspaceContext } from './workspace-context.js';

/** True when `file`, as written or as resolved through links, lies inside a `.git` folder. */
export function isInsideGitFolder(file: string, workspace: WorkspaceContext): boolean {
  const check = workspace.check(file, 'write');
  const candidates = [path.resolve(file), ...(check.ok ? [check.realPath] : [])];
  return candidates.some((candidate) =>
    candidate.split(path.sep).some((part) => part.toLowerCase() === '.git'),
  );
}

export const GIT_FOLDER_REASON =
  'it changes a file inside .git/, where git keeps the config and hooks that decide which programs git runs';
