/**
 * The catalogue of slash command names: the terminal's built-ins (their code is the
 * terminal's, ui/commands/builtin/), the person's command files, then the connected MCP
 * servers' prompts, the first of a name winning. The terminal's command catalog
 * (ui/commands/command-catalog.ts) and stream-json's init event both list commands in this
 * order; the built-ins are named here so that a front end listing them loads none of them.
 */
import type { Config } from '@toolhost/core/config';
import type { ToolRegistry } from '@toolhost/core/tools';
import { readUserCommandFiles, userCommandFolders } from './command-files.js';

export interface CommandName {
  name: string;
  aliases?: string[];
}

/** The terminal's built-in commands, in /help's order (ui/commands/command-catalog.ts). */
export const BUILTIN_COMMAND_NAMES: readonly CommandName[] = [
  { name: 'help', aliases: ['?'] },
  { name: 'clear' },
  { name: 'compress', aliases: ['summarize'] },
  { name: 'stats', aliases: ['usage'] },
  { name: 'model' },
  { name: 'context' },
  { name: 'copy' },
  { name: 'export' },
  { name: 'diff' },
  { name: 'settings' },
  { name: 'theme' },
  { name: 'vim' },
  { name: 'tools' },
  { name: 'mcp' },
  { name: 'hooks' },
  { name: 'skills' },
  { name: 'extensions' },
  { name: 'memory' },
  { name: 'approval-mode' },
  { name: 'agents' },
  { name: 'resume' },
  { name: 'restore', aliases: ['rewind'] },
  { name: 'init' },
  { name: 'quit', aliases: ['exit'] },
];

/** Every name and alias the commands take, lower-cased (what a later command may not reuse). */
export function namesTaken(commands: readonly CommandName[]): Set<string> {
  return new Set(
    commands.flatMap((command) =>
      [command.name, ...(command.aliases ?? [])].map((name) => name.toLowerCase()),
    ),
  );
}

/** The command an MCP server's prompt becomes is typed as `/server:prompt`. */
export function mcpPromptName(serverAlias: string, promptName: string): string {
  return `${serverAlias}:${promptName}`;
}

/** Built-ins, then user commands, then prompts; a name already taken drops the later one. */
export function inCatalogOrder<T extends CommandName>(
  builtins: readonly T[],
  user: readonly T[],
  prompts: readonly T[],
): T[] {
  const taken = namesTaken(builtins);
  const kept = (commands: readonly T[]) =>
    commands.filter((command) => {
      const key = command.name.toLowerCase();
      if (taken.has(key)) return false;
      taken.add(key);
      return true;
    });
  const ownCommands = kept(user);
  return [...builtins, ...ownCommands, ...kept(prompts)];
}

/** The names of every slash command the terminal would offer in this workspace now. */
export function slashCommandNames(config: Config, registry: ToolRegistry): string[] {
  const user = readUserCommandFiles(
    userCommandFolders(config),
    namesTaken(BUILTIN_COMMAND_NAMES),
  ).commands;
  const prompts = registry
    .getMcpServers()
    .filter((server) => server.status === 'connected')
    .flatMap((server) =>
      server.prompts.map((prompt) => ({ name: mcpPromptName(server.alias, prompt.name) })),
    );
  return inCatalogOrder(BUILTIN_COMMAND_NAMES, user, prompts).map((command) => command.name);
}
