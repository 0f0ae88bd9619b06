/**
 * How an `mcp__...` rule name is read against the configured MCP server names. A server's
 * name may itself hold `__` (`my__srv`), so the name is not split at its first `__`: the
 * longest configured name that prefixes it is the server (`mcp__my__srv__danger` is the
 * tool `danger` of `my__srv`). Two names where one could stand for the other plus a tool
 * (`my` and `my__srv`, `a` and `a_`) make some rule names mean two things; the longer is
 * refused at load (see ambiguousServerName), and deny and ask rules keep every reading.
 */
import { starMatches } from '../shell/command-rules.js';

const PREFIX = 'mcp__';

/** One way to read a rule name: a server, and a tool pattern unless it names the server. */
export interface McpReading {
  server: string;
  tool?: string;
}

/**
 * Every reading of an `mcp__` rule name against the server names, the longest server name
 * first; when no given name prefixes it, the reading split at the first `__` (a server not
 * configured). Empty for a name that is not an `mcp__` rule.
 */
export function mcpReadings(ruleName: string, servers: readonly string[]): McpReading[] {
  if (!ruleName.startsWith(PREFIX)) return [];
  const body = ruleName.slice(PREFIX.length);
  const readings: McpReading[] = [];
  for (const server of [...new Set(servers)].sort((a, b) => b.length - a.length)) {
    if (body === server) readings.push({ server });
    else if (body.startsWith(`${server}__`))
      readings.push({ server, tool: body.slice(server.length + 2) });
  }
  if (readings.length > 0) return readings;
  const [server, ...rest] = body.split('__');
  if (!server) return [];
  return [rest.length > 0 ? { server, tool: rest.join('__') } : { server }];
}

/** An MCP server's tool as names are read against it: the server's alias and the tool's own name. */
export interface McpToolName {
  server: string;
  tool: string;
}

/**
 * Whether `name` (`mcp__server`, or `mcp__server__tool` whose tool part may hold `*`)
 * names `target`, read as rules read it against the configured server names (the target's
 * own server always counts as configured). By default only the first reading decides, the
 * longest server name's, as for what grants a tool (allow rules, a subagent's tool list);
 * `everyReading` lets any reading count, for what must fail closed (deny and ask rules).
 */
export function mcpNameCovers(
  name: string,
  target: McpToolName,
  servers: readonly string[],
  everyReading = false,
): boolean {
  const readings = mcpReadings(name, [target.server, ...servers]);
  return (everyReading ? readings : readings.slice(0, 1)).some(
    (reading) =>
      reading.server === target.server &&
      (reading.tool === undefined || starMatches(reading.tool, target.tool)),
  );
}

/**
 * Why the server `name` cannot be used beside the others: some `mcp__` rule names would
 * name a tool of either (`my__srv` beside `my`: `mcp__my__srv__x`). Undefined when its
 * name is unambiguous. Only the longer of two such names is refused.
 */
export function ambiguousServerName(name: string, servers: readonly string[]): string | undefined {
  const other = servers.find(
    (shorter) => shorter !== name && `${name}__`.startsWith(`${shorter}__`),
  );
  if (other === undefined) return undefined;
  return `its name could be read two ways beside the server "${other}": a rule such as mcp__${name}__tool could name a tool of either. Rename one of them in mcpServers (a name without "__" is safest)`;
}
