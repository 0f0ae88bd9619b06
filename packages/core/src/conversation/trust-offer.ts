/**
 * Whether a project should be offered trust: its folder was never decided about and one of
 * its settings files (every file settings loading reads, Qwen Code's included) asked for more
 * than an untrusted project may. The answer is recorded as `toolhost trust` records it, so
 * the question is asked once.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadSettings, projectSettingsFiles, userSettingsDir } from '../config/settings.js';
import { folderTrustLevel, setFolderTrust, trustedFoldersPath } from '../config/trusted-folders.js';

export interface TrustOffer {
  /** The project folder, resolved. */
  folder: string;
  /** The settings file whose keys were cut. */
  file: string;
  /** The keys an untrusted project may not set. */
  keys: string[];
}

export interface TrustOfferOptions {
  homeDir?: string;
  env?: NodeJS.ProcessEnv;
  systemSettingsPath?: string;
}

/** The offer to make for `root`, or undefined when there is nothing to ask. */
export function trustOfferFor(
  root: string | undefined,
  options: TrustOfferOptions = {},
): TrustOffer | undefined {
  const folder = path.resolve(root ?? '.');
  // Cheap checks first: most folders have no settings file or were decided about long ago.
  if (!projectSettingsFiles(folder).some((file) => existsSync(file.path))) return undefined;
  if (folderTrustLevel(folder, userSettingsDir(options.homeDir)) !== undefined) return undefined;
  const cut = loadSettings({ workspaceRoot: folder, ...options }).untrustedProject;
  return cut ? { folder, file: cut.file, keys: cut.keys } : undefined;
}

/** Records the person's answer; returns the file it was recorded in. */
export async function recordTrustAnswer(
  offer: TrustOffer,
  trusted: boolean,
  homeDir?: string,
): Promise<string> {
  const userDir = userSettingsDir(homeDir);
  await setFolderTrust(offer.folder, userDir, trusted ? 'TRUST_FOLDER' : 'DO_NOT_TRUST');
  return trustedFoldersPath(userDir);
}
