/**
 * The interactive terminal's side of the trust question: the conversation core decides
 * whether a project is offered trust (conversation/trust-offer.ts, for every settings file
 * toolhost reads) and records the answer; this asks it with one key. Headless runs never
 * ask: they keep the cut.
 */
import { trustedFoldersPath, userSettingsDir } from '@toolhost/core/config';
import type { TrustOffer } from '@toolhost/core/conversation';

/** What the person answered: yes, no, or Ctrl+C (quit). */
export type TrustAnswer = 'trusted' | 'declined' | 'quit';

const CTRL_C = '\u0003';
const ESCAPE = '\u001b';

/** Asks whether to trust the offer's folder (the conversation records the answer). */
export async function askTrust(
  offer: TrustOffer,
  io: { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream },
): Promise<TrustAnswer> {
  io.stdout.write(
    `\n${offer.file} asks for more than a folder you have not trusted may:\n  ${offer.keys.join(', ')}\n` +
      `Until you trust ${offer.folder}, its settings may only make toolhost stricter, and these are ignored.\n\n` +
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
      io.stdout.write(
        trusted
          ? `yes\nTrusted: ${offer.folder} (recorded in ${trustedFoldersPath(userSettingsDir())}).\n`
          : 'no\nNot trusted: its settings stay cut. "toolhost trust" trusts it later.\n',
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
