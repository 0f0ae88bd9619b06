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
import {
  CTRL_C,
  dropTypeahead,
  ESCAPE,
  keyReader,
  wrapForTerminal,
} from './input/raw-questions.js';

export type TrustAnswer = 'trusted' | 'declined' | 'not asked' | 'quit';

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

  const say = (text: string) => io.stdout.write(wrapForTerminal(text, io.stdout.columns));
  say(
    `\n${cut.file} asks for more than a folder you have not trusted may:\n  ${cut.keys.join(', ')}\n` +
      `Until you trust ${folder}, its settings may only make toolhost stricter, and these are ignored.\n\n`,
  );
  // Keys typed before the question was on screen are not its answer.
  if ((await dropTypeahead(io.stdin)) === 'quit') {
    io.stdout.write('\n');
    return 'quit';
  }
  say('Trust this folder, so that its settings apply in full? (y/n) ');
  const keys = keyReader(io.stdin);
  try {
    for (;;) {
      const key = await keys.next();
      if (key === CTRL_C) {
        io.stdout.write('\n');
        return 'quit';
      }
      const answer = key.toLowerCase();
      if (answer === 'y' || answer === 'n' || key === ESCAPE) {
        keys.close();
        const trusted = answer === 'y';
        await setFolderTrust(folder, userDir, trusted ? 'TRUST_FOLDER' : 'DO_NOT_TRUST');
        say(
          trusted
            ? `yes\nTrusted: ${folder} (recorded in ${trustedFoldersPath(userDir)}).\n`
            : `no\nNot trusted: its settings stay cut. "toolhost trust" trusts it later.\n`,
        );
        return trusted ? 'trusted' : 'declined';
      }
    }
  } finally {
    keys.close();
  }
}
