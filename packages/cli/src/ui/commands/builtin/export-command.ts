/** /export: the conversation as a Markdown file (in the project folder unless a path is given). */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { plural } from '@toolhost/core/utils';
import type { SlashCommand } from '../command-types.js';
import { conversationMarkdown } from './conversation-markdown.js';

export function defaultExportName(sessionId: string, at: Date): string {
  const stamp = at.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
  return `toolhost-${stamp}-${sessionId.slice(0, 8)}.md`;
}

export const exportCommand: SlashCommand = {
  name: 'export',
  description: 'Save the conversation as a Markdown file',
  argumentHint: '[file.md]',
  source: 'built-in',
  takesArguments: true,
  run(context, args) {
    const { config, agent } = context;
    const history = agent.loop.history;
    if (history.length === 0) {
      context.print('There is no conversation to export yet.');
      return;
    }
    const at = new Date();
    const wanted = args.trim() || defaultExportName(config.sessionId, at);
    const file = path.resolve(config.targetDir, wanted);
    const markdown = conversationMarkdown(history, {
      sessionId: config.sessionId,
      model: agent.model.model,
      folder: config.targetDir,
      at,
    });
    try {
      writeFileSync(file, markdown);
    } catch (error) {
      context.print(
        `Could not write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}. Give another path: /export <file.md>.`,
        'error',
      );
      return;
    }
    context.print(`Exported ${plural(history.length, 'message')} to \`${file}\`.`);
  },
};
