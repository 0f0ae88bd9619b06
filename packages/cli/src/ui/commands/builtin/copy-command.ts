/** /copy: the model's last answer to the clipboard (OSC 52 and the system's clipboard program). */
import { plural } from '@toolhost/core/utils';
import { copyToClipboard } from '../../clipboard.js';
import type { SlashCommand } from '../command-types.js';
import { lastAnswer } from './conversation-markdown.js';

export const copyCommand: SlashCommand = {
  name: 'copy',
  description: "Copy the model's last answer to the clipboard",
  source: 'built-in',
  takesArguments: false,
  async run(context) {
    const answer = lastAnswer(context.agent.loop.history);
    if (answer === undefined) {
      context.print('There is no answer to copy yet.');
      return;
    }
    const ways = await copyToClipboard(answer, context.writeToTerminal);
    if (ways.length === 0) {
      context.print(
        'The answer is too long for the terminal to take (OSC 52) and no clipboard program (wl-copy, xclip, xsel, pbcopy) was found; /export saves the conversation to a file instead.',
        'error',
      );
      return;
    }
    context.print(
      `Copied the last answer (${plural(answer.length, 'character')}) through ${ways.join(' and ')}.`,
    );
  },
};
