/**
 * The person's command files (the terminal's custom slash commands, read by the same
 * loader, with its rules: a project's file that leads out of the project is skipped) as
 * the prompts `toolhost mcp` offers. Files are read again on every request, so an edit
 * shows at once. A prompt runs nothing here: its `!{command}` blocks ask the model to run
 * them, through the tools and their approvals.
 */
import type { Config } from '@toolhost/core/internal/config/config.js';
import type {
  OfferedPrompt,
  PromptSource,
} from '@toolhost/core/internal/mcp/workspace-offerings.js';
import { promptWithoutRunning } from '../../ui/commands/command-body.js';
import type { SlashCommand } from '../../ui/commands/command-types.js';
import { loadUserCommands, userCommandFolders } from '../../ui/commands/user-commands.js';

/** The one argument a command takes: the text typed after its name. */
const ARGUMENTS = 'arguments';

export function commandPrompts(config: Config): PromptSource {
  const commands = () => loadUserCommands(userCommandFolders(config)).commands;
  return {
    list: () => commands().map(offered),
    render(name, args) {
      const command = commands().find((candidate) => candidate.name === name);
      if (command?.body === undefined) return undefined;
      return {
        description: command.description,
        text: promptWithoutRunning(command.body, args[ARGUMENTS] ?? ''),
      };
    },
  };
}

function offered(command: SlashCommand): OfferedPrompt {
  return {
    name: command.name,
    description: command.description,
    ...(command.takesArguments
      ? {
          arguments: [
            {
              name: ARGUMENTS,
              description: command.argumentHint
                ? `What follows /${command.name} when typed: ${command.argumentHint}`
                : `What follows /${command.name} when typed`,
              required: false,
            },
          ],
        }
      : {}),
  };
}
