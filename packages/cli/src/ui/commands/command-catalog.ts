/**
 * Every command the prompt offers: the built-ins, the user commands (read again when
 * their files may have changed) and the connected MCP servers' prompts, in the order and
 * with the precedence of conversation/command-names.ts (BUILTIN_COMMAND_NAMES names the
 * built-ins listed here, for front ends that list them without loading them).
 */
import type { Config } from '@toolhost/core/config';
import type { ToolRegistry } from '@toolhost/core/tools';
import { inCatalogOrder, namesTaken } from '../../conversation/command-names.js';
import { agentsCommand } from './builtin/agents-command.js';
import { approvalModeCommand } from './builtin/approval-mode-command.js';
import { contextCommand } from './builtin/context-command.js';
import {
  clearCommand,
  compressCommand,
  quitCommand,
  resumeCommand,
  statsCommand,
} from './builtin/conversation-commands.js';
import { copyCommand } from './builtin/copy-command.js';
import { diffCommand } from './builtin/diff-command.js';
import { exportCommand } from './builtin/export-command.js';
import { extensionsCommand } from './builtin/extensions-command.js';
import { helpCommand } from './builtin/help-command.js';
import { hooksCommand } from './builtin/hooks-command.js';
import { initCommand } from './builtin/init-command.js';
import { themeCommand, vimCommand } from './builtin/look-commands.js';
import { memoryCommand } from './builtin/memory-command.js';
import { modelCommand } from './builtin/model-command.js';
import { restoreSlashCommand } from './builtin/restore-slash-command.js';
import { settingsCommand } from './builtin/settings-command.js';
import { skillsCommand } from './builtin/skills-command.js';
import { mcpCommand, toolsCommand } from './builtin/tool-commands.js';
import type { SlashCommand } from './command-types.js';
import { mcpPromptCommands } from './mcp-prompts.js';
import { loadUserCommands, userCommandFolders } from './user-commands.js';

export const BUILTIN_COMMANDS: readonly SlashCommand[] = [
  helpCommand,
  clearCommand,
  compressCommand,
  statsCommand,
  modelCommand,
  contextCommand,
  copyCommand,
  exportCommand,
  diffCommand,
  settingsCommand,
  themeCommand,
  vimCommand,
  toolsCommand,
  mcpCommand,
  hooksCommand,
  skillsCommand,
  extensionsCommand,
  memoryCommand,
  approvalModeCommand,
  agentsCommand,
  resumeCommand,
  restoreSlashCommand,
  initCommand,
  quitCommand,
];

/** User command files are read again at most this often. */
const RELOAD_AFTER_MS = 2_000;

export class CommandCatalog {
  private userCommands: SlashCommand[] = [];
  private loadedAt = 0;
  private readonly reported = new Set<string>();

  constructor(
    private readonly config: Config,
    private readonly registry: ToolRegistry,
    private readonly builtins: readonly SlashCommand[] = BUILTIN_COMMANDS,
    /** Told once about each user command file that cannot be used. */
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

  all(): SlashCommand[] {
    if (Date.now() - this.loadedAt > RELOAD_AFTER_MS) this.reload();
    return inCatalogOrder(this.builtins, this.userCommands, mcpPromptCommands(this.registry));
  }

  private reload(): void {
    const reserved = namesTaken(this.builtins);
    const { commands, warnings } = loadUserCommands(userCommandFolders(this.config), reserved);
    this.userCommands = commands;
    this.loadedAt = Date.now();
    for (const warning of warnings) {
      if (this.reported.has(warning)) continue;
      this.reported.add(warning);
      this.warn(warning);
    }
  }
}
