/**
 * A project folder that was moved or renamed keeps its checkpoints: the history folder is
 * named by the project's path, so on first use at the new path the history of a folder
 * that no longer exists but was this very folder (same device, inode and birth time, which
 * a move or rename on one file system keeps) is moved here, its records rewritten to the new paths,
 * and its sessions moved along. Each root keeps its old key in the shadow repository, so
 * the old snapshots and new ones compare file by file.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { writeOwnFileSync } from '../../utils/own-files.js';
import { isWithin } from '../../workspace/workspace-context.js';
import { sessionsDir } from '../sessions/session-file.js';

/** project.json in a project's history folder. */
export interface ProjectFile {
  projectRoot: string;
  /** The folder's identity when the history began (stat's dev, ino and birth time). */
  device?: number;
  inode?: number;
  born?: number;
  /** Keys of roots in the shadow repository that are not their path's digest (after a move). */
  keys?: Record<string, string>;
}

export const PROJECT_FILE = 'project.json';

export function readProjectFile(folder: string): ProjectFile | undefined {
  try {
    const data = JSON.parse(readFileSync(path.join(folder, PROJECT_FILE), 'utf8')) as ProjectFile;
    return typeof data.projectRoot === 'string' ? data : undefined;
  } catch {
    return undefined;
  }
}

export function writeProjectFile(folder: string, project: ProjectFile): void {
  writeOwnFileSync(
    path.dirname(folder),
    path.join(folder, PROJECT_FILE),
    `${JSON.stringify(project)}\n`,
  );
}

/** The folder's identity, or undefined when it cannot be read. */
export function folderIdentity(
  folder: string,
): { device: number; inode: number; born: number } | undefined {
  try {
    const stat = statSync(folder);
    return { device: stat.dev, inode: stat.ino, born: stat.birthtimeMs };
  } catch {
    return undefined;
  }
}

/**
 * Moves the history of this folder's former path to `dir` (which must not exist yet);
 * returns that former path, or undefined when there is none.
 */
export function adoptMovedHistory(
  historyDir: string,
  dir: string,
  projectRoot: string,
  userDir: string,
  recordsName: string,
): string | undefined {
  const identity = folderIdentity(projectRoot);
  if (!identity) return undefined;
  let names: string[];
  try {
    names = readdirSync(historyDir);
  } catch {
    return undefined;
  }
  for (const name of names) {
    const folder = path.join(historyDir, name);
    const project = readProjectFile(folder);
    if (
      !project ||
      project.device !== identity.device ||
      project.inode !== identity.inode ||
      // A deleted folder's inode may be given to a new one: the birth time tells them apart
      // (where the file system keeps none, the name must match too).
      project.born !== identity.born ||
      (!identity.born && path.basename(project.projectRoot) !== path.basename(projectRoot)) ||
      existsSync(project.projectRoot)
    ) {
      continue;
    }
    const from = project.projectRoot;
    const moved = (file: string) =>
      isWithin(from, file) ? path.join(projectRoot, path.relative(from, file)) : file;
    try {
      renameSync(folder, dir);
    } catch {
      return undefined;
    }
    const keys: Record<string, string> = {};
    for (const [root, key] of Object.entries(project.keys ?? {})) keys[moved(root)] = key;
    const records = path.join(dir, recordsName);
    let text = '';
    try {
      text = readFileSync(records, 'utf8');
    } catch {
      // no checkpoints recorded yet
    }
    const lines = text.split('\n').map((line) => {
      if (!line.trim()) return line;
      try {
        const record = JSON.parse(line) as { roots?: { key: string; path: string }[] };
        for (const root of record.roots ?? []) {
          keys[moved(root.path)] ??= root.key;
          root.path = moved(root.path);
        }
        return JSON.stringify(record);
      } catch {
        return line;
      }
    });
    if (text) writeOwnFileSync(path.dirname(dir), records, lines.join('\n'));
    writeProjectFile(dir, { projectRoot, ...identity, keys });
    const oldSessions = sessionsDir(userDir, from);
    const newSessions = sessionsDir(userDir, projectRoot);
    if (existsSync(oldSessions) && !existsSync(newSessions)) {
      try {
        mkdirSync(path.dirname(newSessions), { recursive: true });
        renameSync(oldSessions, newSessions);
      } catch {
        // the conversations stay where they were; the files come back all the same
      }
    }
    return from;
  }
  return undefined;
}
