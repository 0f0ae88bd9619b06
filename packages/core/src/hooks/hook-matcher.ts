/**
 * Which matcher groups of an event fit: a matcher is empty or `*` (everything), plain names
 * joined by `|` (each compared whole), or a regular expression that must match a whole name.
 * A tool answers to every name people write for it: toolhost's, its display name, Claude
 * Code's (`Bash`, `Read`...) and, for an MCP tool, `mcp__<server>__<tool>`. An `mcp__` name
 * also means what it means in a permission rule (`mcp__my__srv`: every tool of the server
 * `my__srv`; `mcp__my__srv__get_*`), read against the configured server names, longest
 * first (permissions/mcp-names.ts): a server's name may hold `__`.
 */
import { type McpToolName, mcpNameCovers } from '../permissions/mcp-names.js';
import { claudeNamesOf } from '../permissions/tool-vocabulary.js';
import type { AnyTool } from '../tools/tools.js';

const PLAIN_NAMES = /^[A-Za-z0-9_\-|]+$/;
/** Names joined by `|` where `*` may stand for any characters, as in permission rules. */
const RULE_NAMES = /^[A-Za-z0-9_\-*|]+$/;

/** What a matcher is compared with: a tool's names, and for an MCP tool its server's reading. */
export interface MatchTarget {
  names: readonly string[];
  mcp?: McpToolName & { servers: readonly string[] };
}

/** Whether `matcher` fits any of the names; undefined, empty and `*` fit everything. */
export function matcherFits(
  matcher: string | undefined,
  target: MatchTarget | readonly string[],
): boolean {
  const { names, mcp } = 'names' in target ? target : { names: target, mcp: undefined };
  const pattern = matcher?.trim() ?? '';
  if (pattern === '' || pattern === '*') return true;
  if (mcp && RULE_NAMES.test(pattern)) {
    const wanted = pattern.split('|').filter((name) => name.startsWith('mcp__'));
    if (wanted.some((name) => mcpNameCovers(name, mcp, mcp.servers))) return true;
  }
  if (PLAIN_NAMES.test(pattern)) {
    const wanted = pattern.split('|').filter(Boolean);
    return names.some((name) => wanted.includes(name));
  }
  const regex = compileMatcher(pattern);
  if (!regex) return names.includes(pattern);
  return names.some((name) => regex.test(name));
}

/** The matcher as a whole-name regular expression, or undefined when it is not one. */
export function compileMatcher(pattern: string): RegExp | undefined {
  try {
    return new RegExp(`^(?:${pattern})$`);
  } catch {
    return undefined;
  }
}

/** The name a tool has in hooks' input (`tool_name`): toolhost's, or `mcp__server__tool`. */
export function hookToolName(tool: AnyTool): string {
  const mcp = mcpParts(tool);
  return mcp ? `mcp__${mcp.server}__${mcp.tool}` : tool.name;
}

/** What matchers are compared with for this tool; `servers`: every configured server's name. */
export function toolMatchTarget(tool: AnyTool, servers: readonly string[]): MatchTarget {
  const mcp = mcpParts(tool);
  return { names: toolMatchNames(tool), ...(mcp ? { mcp: { ...mcp, servers } } : {}) };
}

/** Every name a matcher may use for this tool. */
export function toolMatchNames(tool: AnyTool): string[] {
  return [
    ...new Set([tool.name, tool.displayName, hookToolName(tool), ...claudeNamesOf(tool.name)]),
  ];
}

function mcpParts(tool: AnyTool): { server: string; tool: string } | undefined {
  const candidate = tool as unknown as { serverAlias?: unknown; serverToolName?: unknown };
  return typeof candidate.serverAlias === 'string' && typeof candidate.serverToolName === 'string'
    ? { server: candidate.serverAlias, tool: candidate.serverToolName }
    : undefined;
}
