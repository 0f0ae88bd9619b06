/**
 * The system's own program folders: a program named by its absolute path there (`/usr/bin/git`)
 * is the command its name says, as on PATH. Anything else given by a path (`./ls`,
 * `node_modules/.bin/rg`, a file in the workspace) may be a file the model wrote.
 */
import path from 'node:path';
import { resolveLikeKernel } from '../workspace/workspace-context.js';

const SYSTEM_PROGRAM_FOLDERS = new Set([
  '/bin',
  '/sbin',
  '/usr/bin',
  '/usr/sbin',
  '/usr/local/bin',
  '/usr/local/sbin',
]);

/**
 * True when `program` is an absolute path that resolves to a file directly in a system
 * program folder, outside the workspace (`inWorkspace` says whether a path lies in it).
 */
export function isSystemProgram(program: string, inWorkspace: (path: string) => boolean): boolean {
  if (!path.isAbsolute(program)) return false;
  const real = resolveLikeKernel(program);
  if (real === null || !SYSTEM_PROGRAM_FOLDERS.has(path.dirname(real))) return false;
  return !inWorkspace(real);
}
