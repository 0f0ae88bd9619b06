/**
 * The interactive terminal's first start in a folder the person never decided about, whose
 * project settings asked for more than an untrusted project may: one question, one key.
 * Yes records the trust as `toolhost trust` does (the session then loads the settings in
 * full); no records that too, so the question is not asked again. Headless runs never come
 * here: they keep the cut.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadSettings, userSettingsDir } from '@toolhost/core/internal/config/settings.js';
import {
  folderTrustLevel,
  setFolderTrust,
  trustedFoldersPath,
} from '@toolhost/core/internal/config/trusted-folders.js';

export type TrustAnswer = 'trusted' | 'declined' | 'not asked' | 'quit';

const CTRL_C = '\u0003';
const ESCAPE = '\u001b';

/** Asks whether to trust `root` when its settings were cut and nobody decided yet. */
export async function offerTrust(
  root: string | undefined,
  io: { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream },
): Promise<TrustAnswer> {
  const folder = path.resolve(root ?? '.');
  // Cheap checks first: most folders have no settings file or were decided about long ago.
  if (!io.stdin.isTTY || !existsSync(path.join(folder, '.toolhost', 'settings.json')))
    return 'not asked';
  const userDir = userSettingsDir();
  if (folderTrustLevel(folder, userDir) !== undefined) return 'not asked';
  const cut = loadSettings({ workspaceRoot: folder }).untrustedProject;
  if (!cut) return 'not asked';

  io.stdout.write(
    `\n${cut.file} asks for more than a folder you have not trusted may:\n  ${cut.keys.join(', ')}\n` +
      `Until you trust ${folder}, its settings may only make toolhost stricter, and these are ignored.\n\n` +
      'Trust this folder, so that its settings apply in full? (y/n) ',
  );
  for (;;) {
    const key = await readKey(io.stdin);
    if (key === CTRL_C) {
      io.stdout.write('\n');
      return 'quit';
    }
    const answer = key.toLowerCase();
    if (answer === 'y' || answer === 'n' || key === ESCAPE) {
      const trusted = answer === 'y';
      await setFolderTrust(folder, userDir, trusted ? 'TRUST_FOLDER' : 'DO_NOT_TRUST');
      io.stdout.write(
        trusted
          ? `yes\nTrusted: ${folder} (recorded in ${trustedFoldersPath(userDir)}).\n`
          : `no\nNot trusted: its settings stay cut. "toolhost trust" trusts it later.\n`,
      );
      return trusted ? 'trusted' : 'declined';
    }
  }
}

/** One key press (what the terminal sends for it), in raw mode, leaving stdin as it was. */
function readKey(stdin: NodeJS.ReadStream): Promise<string> {
  return new Promise((resolve) => {
    const wasRaw = stdin.isRaw;
    stdin.setRawMode(true);
    stdin.resume();
    stdin.once('data', (data: Buffer) => {
      stdin.setRawMode(wasRaw);
      stdin.pause();
      resolve(data.toString('utf8'));
    });
  });
}
