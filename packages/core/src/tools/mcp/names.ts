/**
 * Names for discovered tools: a tool keeps its own name while it is unique among all
 * tools; every colliding discovered tool becomes `<alias>__<tool>` (built-ins keep theirs).
 * Names are made valid for strict model APIs (letters, digits, _ and -, at most 64), and a
 * shortened name gets a stable hash suffix. The result does not depend on the order in
 * which servers answered.
 */
import { createHash } from 'node:crypto';

export const MAX_TOOL_NAME = 64;

export function validToolName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_-]/g, '_') || '_';
  if (cleaned.length <= MAX_TOOL_NAME && cleaned === name) return cleaned;
  if (cleaned.length <= MAX_TOOL_NAME) return cleaned;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${cleaned.slice(0, MAX_TOOL_NAME - 9)}_${hash}`;
}

/**
 * Assigns a registry name to every discovered tool.
 * @param discovered `[alias, toolName]` pairs from all servers
 * @param reserved names already taken (built-ins)
 * @returns a map from `alias\u0000toolName` to the registry name
 */
export function assignToolNames(
  discovered: [string, string][],
  reserved: Iterable<string>,
): Map<string, string> {
  const taken = new Set(reserved);
  const counts = new Map<string, number>();
  for (const [, tool] of discovered)
    counts.set(validToolName(tool), (counts.get(validToolName(tool)) ?? 0) + 1);
  const names = new Map<string, string>();
  const sorted = [...discovered].sort(([a1, t1], [a2, t2]) =>
    a1 === a2 ? (t1 < t2 ? -1 : 1) : a1 < a2 ? -1 : 1,
  );
  for (const [alias, tool] of sorted) {
    const own = validToolName(tool);
    const collides = (counts.get(own) ?? 0) > 1 || taken.has(own);
    let name = collides ? validToolName(`${alias}__${tool}`) : own;
    // Cleaning can make two different names equal; the hash of the original tells them apart.
    if ([...names.values()].includes(name) || (collides && taken.has(name))) {
      const hash = createHash('sha256').update(`${alias}\u0000${tool}`).digest('hex').slice(0, 8);
      name = `${name.slice(0, MAX_TOOL_NAME - 9)}_${hash}`;
    }
    names.set(`${alias}\u0000${tool}`, name);
  }
  return names;
}

/**
 * Qwen Code's (and Claude Code's) name of an MCP server's tool, `mcp__<server>__<tool>`,
 * made valid as above. toolhost declares its tools to the model under their registry names;
 * this one is accepted everywhere a tool is named (calls, tools.core / tools.exclude), so
 * that rules and hooks written for Qwen Code match.
 */
export function mcpQualifiedName(serverAlias: string, toolName: string): string {
  return validToolName(`${MCP_PREFIX}${serverAlias}__${toolName}`);
}

const MCP_PREFIX = 'mcp__';

/**
 * The `mcp__server__tool` name of a tool, or undefined for a tool that does not come from an
 * MCP server (one that does has the server's alias and its own name on it).
 */
export function mcpQualifiedNameOf(tool: object): string | undefined {
  const { serverAlias, serverToolName } = tool as {
    serverAlias?: unknown;
    serverToolName?: unknown;
  };
  return typeof serverAlias === 'string' && typeof serverToolName === 'string'
    ? mcpQualifiedName(serverAlias, serverToolName)
    : undefined;
}

/** Whether `name` is one of the server's in either qualified form (`alias__` or `mcp__alias__`). */
export function namesServerTool(name: string, serverAlias: string): boolean {
  const alias = validToolName(serverAlias);
  return name.startsWith(`${alias}__`) || name.startsWith(`${MCP_PREFIX}${alias}__`);
}
