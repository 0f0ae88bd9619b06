/**
 * The person's command files (read and named by conversation/command-files.ts) as the
 * terminal's slash commands: the prompt's placeholders expanded (command-body.ts), then
 * sent as if typed.
 */
import {
  type CommandFolder,
  readUserCommandFiles,
  type UserCommandFile,
} from '../../conversation/command-files.js';
import { renderCommandBody, usesArguments } from './command-body.js';
import type { SlashCommand } from './command-types.js';

export { type CommandFolder, userCommandFolders } from '../../conversation/command-files.js';

export interface LoadedUserCommands {
  commands: SlashCommand[];
  warnings: string[];
}

export function loadUserCommands(
  folders: readonly CommandFolder[],
  reservedNames: ReadonlySet<string> = new Set(),
): LoadedUserCommands {
  const { commands, warnings } = readUserCommandFiles(folders, reservedNames);
  return { commands: commands.map(userCommand), warnings };
}

function userCommand(parsed: UserCommandFile): SlashCommand {
  return {
    name: parsed.name,
    description: parsed.description ?? firstLine(parsed.body),
    ...(parsed.argumentHint ? { argumentHint: parsed.argumentHint } : {}),
    source: parsed.source,
    file: parsed.file,
    body: parsed.body,
    takesArguments: usesArguments(parsed.body) || Boolean(parsed.argumentHint),
    async run(context, args) {
      const rendered = await renderCommandBody(parsed.body, args, context.runTool, context.signal);
      if ('error' in rendered) context.print(rendered.error, 'error');
      else context.submitPrompt(rendered.prompt);
    },
  };
}

function firstLine(body: string): string {
  const line = body.split('\n').find((candidate) => candidate.trim()) ?? '';
  const clean = line.replace(/^#+\s*/, '').trim();
  return clean.length > 70 ? `${clean.slice(0, 69)}…` : clean;
}
