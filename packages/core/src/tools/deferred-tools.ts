/**
 * Deferred tools: when MCP servers bring more tools than a request should declare, their
 * declarations are held back and the model finds them through `tool_search`
 * (tool-search.ts), as Qwen Code 0.24 and Claude Code do. A tool the search returned is
 * declared from the next request on, for the rest of the session. Built-in and
 * command-discovered tools are always declared.
 *
 * The budget: OpenAI's limit of 128 tools per request, and MCP declarations above a tenth
 * of the model's context window. `tools.deferLoading` overrides it (true: always defer
 * MCP tools; false: never). This file decides and searches; it runs nothing.
 */
import type { FunctionDeclaration } from '../contract/content.js';
import { estimateJsonTokens } from '../models/token-usage.js';
import type { AnyTool } from './tools.js';

export const TOOL_SEARCH_NAME = 'tool_search';
/** OpenAI's Chat Completions refuses more tools than this in one request. */
export const MAX_DECLARED_TOOLS = 128;
/** MCP declarations may take this share of the context window before they are deferred. */
export const MCP_SHARE_OF_WINDOW = 0.1;

/** The part of a registry this reads (a subagent's view is one too). */
export interface ToolSource {
  getAllTools(): AnyTool[];
}

export interface ToolMatch {
  name: string;
  server: string;
  description: string;
}

/** The MCP server a tool came from, if it is an MCP tool. */
export function mcpServerOf(tool: AnyTool): string | undefined {
  const alias = (tool as { serverAlias?: unknown }).serverAlias;
  return typeof alias === 'string' ? alias : undefined;
}

export class DeferredTools {
  /** Tools the search returned: declared from then on. */
  private readonly loaded = new Set<string>();

  constructor(private readonly setting: () => boolean | undefined) {}

  /**
   * The declarations for the next request: every tool while the budget allows; past it,
   * the non-MCP tools, the MCP tools already found, and `tool_search` describing the rest.
   */
  declarations(source: ToolSource, contextWindow: number): FunctionDeclaration[] {
    const tools = source.getAllTools();
    const search = tools.find((tool) => tool.name === TOOL_SEARCH_NAME);
    const others = tools.filter((tool) => tool !== search);
    const deferrable = others.filter((tool) => mcpServerOf(tool) !== undefined);
    if (!search || !this.shouldDefer(others, deferrable, contextWindow)) {
      return others.map((tool) => tool.schema);
    }
    const held = deferrable.filter((tool) => !this.loaded.has(tool.name));
    const declared = others.filter((tool) => !held.includes(tool));
    if (held.length === 0) return declared.map((tool) => tool.schema);
    return [
      ...declared.map((tool) => tool.schema),
      { ...search.schema, description: searchDescription(search.description, held) },
    ];
  }

  private shouldDefer(all: AnyTool[], deferrable: AnyTool[], contextWindow: number): boolean {
    const setting = this.setting();
    if (setting === false || deferrable.length === 0) return false;
    if (setting === true) return true;
    if (all.length > MAX_DECLARED_TOOLS) return true;
    const tokens = estimateJsonTokens(deferrable.map((tool) => tool.schema));
    return tokens > contextWindow * MCP_SHARE_OF_WINDOW;
  }

  /**
   * The MCP tools not yet declared that best match the query (words of their name,
   * server and description; an exact name first), marked for declaration from now on.
   */
  search(source: ToolSource, query: string, limit: number): ToolMatch[] {
    const words = query
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word.length > 1);
    const exact = query.trim();
    const scored = source
      .getAllTools()
      .filter((tool) => mcpServerOf(tool) !== undefined)
      .map((tool) => ({ tool, score: score(tool, words, exact) }))
      .filter(({ score }) => score > 0)
      .sort((a, b) => b.score - a.score || a.tool.name.localeCompare(b.tool.name))
      .slice(0, limit);
    for (const { tool } of scored) this.loaded.add(tool.name);
    return scored.map(({ tool }) => ({
      name: tool.name,
      server: mcpServerOf(tool) ?? '',
      description: tool.description,
    }));
  }
}

function score(tool: AnyTool, words: string[], exact: string): number {
  if (tool.name === exact) return 1000;
  const name = tool.name.toLowerCase();
  const server = (mcpServerOf(tool) ?? '').toLowerCase();
  const description = tool.description.toLowerCase();
  let total = 0;
  for (const word of words) {
    if (name.includes(word)) total += 5;
    if (server.includes(word)) total += 2;
    if (description.includes(word)) total += 1;
  }
  return total;
}

/** tool_search's description, with how many tools of which servers are held back. */
function searchDescription(base: string, held: AnyTool[]): string {
  const perServer = new Map<string, number>();
  for (const tool of held) {
    const server = mcpServerOf(tool) ?? '';
    perServer.set(server, (perServer.get(server) ?? 0) + 1);
  }
  const servers = [...perServer].map(([server, count]) => `${server} (${count})`).join(', ');
  return `${base}\n\n${held.length} tools of MCP servers are not declared yet, to save context: ${servers}.`;
}
