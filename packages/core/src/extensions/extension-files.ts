/**
 * Where extensions live in toolhost's own folder, and reading an extension's files only
 * from inside it: a file (or a folder above it) that is a link leading out of the
 * extension's real folder is refused, so an extension cannot bring the person's keys or
 * another project's files into the prompt.
 */
import { closeSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConfinementError, openFileConfined } from '../utils/confined-fs.js';
import { isWithin, leadsOutside } from '../workspace/workspace-context.js';

/** `~/.toolhost/extensions/<name>/`: one folder per installed (or linked) extension. */
export const EXTENSIONS_FOLDER = 'extensions';
/** What was installed from where: in each extension's folder. */
export const INSTALL_METADATA_FILE = '.toolhost-extension-install.json';
/** Which extensions are on, for the person and per workspace: in ~/.toolhost. */
export const ENABLEMENT_FILE = 'extension-enablement.json';
/** The marketplaces the person added: in ~/.toolhost. */
export const MARKETPLACES_FILE = 'extension-marketplaces.json';
/** Copies of the marketplaces added from git: in ~/.toolhost. */
export const MARKETPLACES_FOLDER = 'marketplaces';
/** An extension's declared settings, as the person answered them: in its own folder. */
export const SETTINGS_ENV_FILE = '.env';

/** Names an extension folder may have: no separators, no leading dot. */
export const EXTENSION_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** A source as shown to the person: a password or token in a URL replaced by `***`. */
export function shownSource(source: string): string {
  return source.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/i, '$1***@');
}

export function extensionsDir(userDir: string): string {
  return path.join(userDir, EXTENSIONS_FOLDER);
}

export type ConfinedText = { text: string } | { outside: string } | undefined;

/**
 * A file of the extension whose real folder is `realRoot`: its text, `outside` (where it
 * really leads) when it or a folder above it is a link out, undefined when missing.
 */
export function readInside(realRoot: string, file: string): ConfinedText {
  const outside = leadsOutside(realRoot, file);
  if (outside && outside !== file) return { outside };
  let fd: number;
  try {
    if (!statSync(file).isFile()) return undefined;
    fd = openFileConfined(file, (real) => isWithin(realRoot, real));
  } catch (error) {
    if (error instanceof ConfinementError) return { outside: file };
    return undefined;
  }
  try {
    return { text: readFileSync(fd, 'utf8') };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** A folder of the extension, when it exists and really lies inside it. */
export function folderInside(
  realRoot: string,
  folder: string,
  warnings: string[],
): string | undefined {
  let real: string;
  try {
    if (!statSync(folder).isDirectory()) return undefined;
    real = realpathSync(folder);
  } catch {
    return undefined;
  }
  if (!isWithin(realRoot, real)) {
    warnings.push(
      `${folder}: leads outside the extension (to ${real}); an extension's files are read only inside its folder. It was skipped.`,
    );
    return undefined;
  }
  return folder;
}

/** The names in a folder, sorted; none when it cannot be read. */
export function listFolder(folder: string): string[] {
  try {
    return readdirSync(folder).sort();
  } catch {
    return [];
  }
}
