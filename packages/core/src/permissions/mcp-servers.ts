/**
 * Which MCP servers settings ask for: `mcpServers`, plus the one `mcp.serverCommand` starts,
 * filtered by `mcp.allowed` / `mcp.excluded`. It sits with the rules because `mcp__` rule
 * names are read against this list (mcp-names.ts), and the client connects to the same list.
 */
import type { Config } from '../config/config.js';
import type { McpServerSettings } from '../config/settings.js';
import { shellQuote } from '../utils/lazy-libraries.js';
import { ambiguousServerName } from './mcp-names.js';

/** Alias of the server started by `mcp.serverCommand`. */
export const SERVER_COMMAND_ALIAS = 'mcp';

/** The servers settings ask for: mcpServers, plus mcp.serverCommand; filtered by mcp.allowed / mcp.excluded. */
export function configuredServers(config: Config): [string, McpServerSettings][] {
  const servers: [string, McpServerSettings][] = Object.entries(config.settings.mcpServers ?? {});
  const serverCommand = config.settings.mcp?.serverCommand;
  if (serverCommand) {
    const words = shellQuote()
      .parse(serverCommand)
      .filter((word): word is string => typeof word === 'string');
    if (words.length > 0)
      servers.push([SERVER_COMMAND_ALIAS, { command: words[0]!, args: words.slice(1) }]);
  }
  const allowed = config.settings.mcp?.allowed;
  const excluded = new Set(config.settings.mcp?.excluded ?? []);
  return servers.filter(([alias]) => !excluded.has(alias) && (!allowed || allowed.includes(alias)));
}

/**
 * Why the server `alias` is not started though settings name it: a name that `mcp__`
 * rules could read as another server's plus a tool (permissions/mcp-names.ts).
 */
export function refusedServerName(config: Config, alias: string): string | undefined {
  return ambiguousServerName(
    alias,
    configuredServers(config).map(([name]) => name),
  );
}
