/**
 * The person's command files (the terminal's custom slash commands, read by the same
 * loader, with its rules: a project's file that leads out of the project is skipped) as
 * the prompts `toolhost mcp` offers. Files are read again on every request, so an edit
 * shows at once. A prompt runs nothing here: its `!{command}` blocks ask the model to run
 * them, through the tools and their approvals.
 */
import type { Config } from '@toolhost/core/config';
import type { OfferedPrompt, PromptSource } from '@toolhost/core/mcp-server';
import type { SlashCommand } from '../../ui/commands/command-types.js';

/** The one argument a command takes: the text typed after its name. */
const ARGUMENTS = 'arguments';

/**
 * The command loader (with its YAML and TOML parsers) is imported on the first prompts
 * request, so a server whose clients never ask for prompts does not load it.
 */
export function commandPrompts(config: Config): PromptSource {
  const commands = async () => {
    const { loadUserCommands, userCommandFolders } = await import(
      '../../ui/commands/user-commands.js'
    );
    return loadUserCommands(userCommandFolders(config)).commands;
  };
  return {
    list: async () => (await commands()).map(offered),
    async render(name, args) {
      const command = (await commands()).find((candidate) => candidate.name === name);
      if (command?.body === undefined) return undefined;
      const { promptWithoutRunning } = await import('../../ui/commands/command-body.js');
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
