/**
 * Registers `toolhost mcp add`, `remove` and `list` below `toolhost mcp` (whose own action
 * still serves toolhost's tools). Each loads its code only when it runs.
 */
import type { Command } from 'commander';
import { createStyle, wantsColor } from '../../render.js';
import type { WorkspaceOptions } from '../../workspace-options.js';

/** Gathers a repeatable option's values. */
const collect = (value: string, previous: string[] = []) => [...previous, value];

export interface McpManageIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  warn: (line: string) => void;
  /** Receives the command's exit code. */
  done: (code: number) => void;
}

export function addMcpManageCommands(mcp: Command, io: McpManageIo): void {
  const { stdout, stderr, warn, done } = io;
  mcp
    .command('add')
    .description(
      "Add an MCP server to the settings (the project's by default, --scope user for yours).",
    )
    .argument('<name>', 'the name for it in mcpServers')
    .argument('[command-or-url]', 'the program to start, or the URL with --transport http|sse')
    .argument(
      '[args...]',
      "the program's arguments (after -- when they hold options of toolhost's)",
    )
    .option('-s, --scope <scope>', 'user (~/.toolhost/settings.json) or project (default)')
    .option('-t, --transport <transport>', 'stdio (default), http or sse')
    .option(
      '-e, --env <KEY=VALUE>',
      'an environment variable for the program (repeatable)',
      collect,
    )
    .option('-H, --header <header>', 'an HTTP header, "Name: value" (repeatable)', collect)
    .option('--timeout <ms>', 'time each call has to answer or report progress')
    .option('--trust', "run the server's tools without asking")
    .option('--description <text>', 'what the server is for')
    .option('--include-tools <tools>', 'only these tools, comma-separated')
    .option('--exclude-tools <tools>', 'leave these tools out, comma-separated')
    .allowUnknownOption()
    .action(async (name: string, target: string | undefined, args: string[], options) => {
      const { runMcpAdd } = await import('./mcp-add.js');
      const root = mcp.opts<WorkspaceOptions>().root;
      done(await runMcpAdd(name, target, args, { ...options, root }, stderr));
    });
  mcp
    .command('remove')
    .description(
      'Remove an MCP server from the settings (from both files unless --scope names one).',
    )
    .argument('<name>', 'the name in mcpServers')
    .option('-s, --scope <scope>', 'user or project')
    .action(async (name: string, options: { scope?: string }) => {
      const { runMcpRemove } = await import('./mcp-list.js');
      const root = mcp.opts<WorkspaceOptions>().root;
      done(await runMcpRemove(name, { ...options, root }, stderr));
    });
  mcp
    .command('list')
    .description('List the MCP servers toolhost uses here: each one started, its tools counted.')
    .option('--root <dir>', 'project root folder (default: the current folder)')
    .option('--mcp-config <file|json>', 'more MCP servers for this run (repeatable)', collect)
    .action(async (options: WorkspaceOptions) => {
      const { runMcpList } = await import('./mcp-list.js');
      // Options of "mcp" may stand before or after "list".
      const outer = mcp.opts<WorkspaceOptions>();
      const mcpConfig = [...(outer.mcpConfig ?? []), ...(options.mcpConfig ?? [])];
      const merged = { ...outer, ...options, mcpConfig };
      done(await runMcpList(merged, stdout, createStyle(wantsColor(stdout)), warn));
    });
}
