/**
 * Which matcher groups of an event fit: a matcher is empty or `*` (everything), plain names
 * joined by `|` (each compared whole), or a regular expression that must match a whole name.
 * A tool answers to every name people write for it: toolhost's, its display name, Claude
 * Code's (`Bash`, `Read`...) and, for an MCP tool, `mcp__<server>__<tool>`.
 */
import { claudeNamesOf } from '../permissions/tool-vocabulary.js';
import type { AnyTool } from '../tools/tools.js';

const PLAIN_NAMES = /^[A-Za-z0-9_\-|]+$/;

/** Whether `matcher` fits any of `names`; undefined, empty and `*` fit everything. */
export function matcherFits(matcher: string | undefined, names: readonly string[]): boolean {
  const pattern = matcher?.trim() ?? '';
  if (pattern === '' || pattern === '*') return true;
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
