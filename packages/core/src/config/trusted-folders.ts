/**
 * Folders the person trusts: only there do a project's own settings apply in full
 * (elsewhere they may only make toolhost stricter, see trust/). Kept in
 * ~/.toolhost/trustedFolders.json in Qwen Code's format:
 * `{ "<absolute path>": "TRUST_FOLDER" | "TRUST_PARENT" | "DO_NOT_TRUST" }`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../utils/atomic-write.js';
import { isWithin } from '../workspace/workspace-context.js';

export type TrustLevel = 'TRUST_FOLDER' | 'TRUST_PARENT' | 'DO_NOT_TRUST';

export function trustedFoldersPath(userDir: string): string {
  return path.join(userDir, 'trustedFolders.json');
}

function readRules(userDir: string): Record<string, TrustLevel> {
  try {
    const parsed = JSON.parse(readFileSync(trustedFoldersPath(userDir), 'utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null
      ? (parsed as Record<string, TrustLevel>)
      : {};
  } catch {
    return {};
  }
}

/** Whether `folder` is trusted: the most specific rule that covers it decides. */
export function isFolderTrusted(folder: string, userDir: string): boolean {
  const level = folderTrustLevel(folder, userDir);
  return level !== undefined && level !== 'DO_NOT_TRUST';
}

/** The most specific rule that covers `folder`, or undefined when the person never decided. */
export function folderTrustLevel(folder: string, userDir: string): TrustLevel | undefined {
  let best: { depth: number; level: TrustLevel } | undefined;
  for (const [rulePath, level] of Object.entries(readRules(userDir))) {
    const base = level === 'TRUST_PARENT' ? path.dirname(rulePath) : rulePath;
    if (!isWithin(path.resolve(base), folder)) continue;
    const depth = path.resolve(base).split(path.sep).length;
    if (!best || depth >= best.depth) best = { depth, level };
  }
  return best?.level;
}

export async function setFolderTrust(
  folder: string,
  userDir: string,
  level: TrustLevel,
): Promise<void> {
  const rules = { ...readRules(userDir), [path.resolve(folder)]: level };
  await writeFileAtomic(
    trustedFoldersPath(userDir),
    Buffer.from(`${JSON.stringify(rules, null, 2)}\n`),
    { createParents: true },
  );
}
