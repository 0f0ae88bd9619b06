/**
 * The interactive terminal's side of the trust question: the conversation core decides
 * whether a project is offered trust (conversation/trust-offer.ts, for every settings file
 * toolhost reads) and records the answer; this asks it with one key. Headless runs never
 * ask: they keep the cut.
 */
import { trustedFoldersPath, userSettingsDir } from '@toolhost/core/config';
import type { TrustOffer } from '@toolhost/core/conversation';
import {
  CTRL_C,
  dropTypeahead,
  ESCAPE,
  keyReader,
  wrapForTerminal,
} from './input/raw-questions.js';

/** What the person answered: yes, no, or Ctrl+C (quit). */
export type TrustAnswer = 'trusted' | 'declined' | 'quit';

/** Asks whether to trust the offer's folder (the conversation records the answer). */
export async function askTrust(
  offer: TrustOffer,
  io: { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream },
): Promise<TrustAnswer> {
  const say = (text: string) => io.stdout.write(wrapForTerminal(text, io.stdout.columns));
  say(
    `\n${offer.file} asks for more than a folder you have not trusted may:\n  ${offer.keys.join(', ')}\n` +
      `Until you trust ${offer.folder}, its settings may only make toolhost stricter, and these are ignored.\n\n`,
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
        say(
          trusted
            ? `yes\nTrusted: ${offer.folder} (recorded in ${trustedFoldersPath(userSettingsDir())}).\n`
            : 'no\nNot trusted: its settings stay cut. "toolhost trust" trusts it later.\n',
        );
        return trusted ? 'trusted' : 'declined';
      }
    }
  } finally {
    keys.close();
  }
}
