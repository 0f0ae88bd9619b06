/**
 * A subagent's tools: a live view of the parent's registry limited to the names its file
 * lists, plus its own `task` tool when nesting may go deeper. A listed name stands for a
 * tool when the registry knows the tool by it (its name, display name, a name other models
 * use, `alias__tool`, `mcp__alias__tool`), when it is Claude Code's name for it (`Bash`),
 * or when it is an `mcp__` name that covers the tool as a permission rule would
 * (`mcp__my__srv` for every tool of the server `my__srv`, `mcp__my__srv__get_*`), read
 * against the configured server names (permissions/mcp-names.ts). Tools that arrive in the
 * parent later (an MCP server connecting) appear here too.
 */
import type { Config } from '../../config/config.js';
import { mcpNameCovers } from '../../permissions/mcp-names.js';
import { configuredServers } from '../../permissions/mcp-servers.js';
import { claudeToolTarget } from '../../permissions/tool-vocabulary.js';
import { ToolRegistry } from '../../tools/tool-registry.js';
import type { AnyTool } from '../../tools/tools.js';

export class ToolSubset extends ToolRegistry {
  private readonly wanted: Set<string> | undefined;

  constructor(
    config: Config,
    private readonly parent: ToolRegistry,
    toolNames: string[] | undefined,
    private readonly ownTask: AnyTool | undefined,
  ) {
    super(config);
    this.wanted = toolNames
      ? new Set(toolNames.map((name) => claudeToolTarget(name) ?? name))
      : undefined;
  }

  /** Names the file lists that match no tool of the parent (for a warning). */
  unknownNames(): string[] {
    if (!this.wanted) return [];
    const servers = this.servers();
    const tools = this.parent.getAllTools();
    return [...this.wanted].filter(
      (name) =>
        name !== 'task' &&
        !this.parent.getRegisteredTool(name) &&
        !tools.some((tool) => this.names(name, tool, servers)),
    );
  }

  private allowed(tool: AnyTool): boolean {
    if (tool.name === 'task') return false; // the parent's task: only our own is offered
    if (!this.wanted) return true;
    const servers = this.servers();
    return [...this.wanted].some((name) => this.names(name, tool, servers));
  }

  /** Whether the listed `name` stands for `tool`. */
  private names(name: string, tool: AnyTool, servers: readonly string[]): boolean {
    if (name === tool.name || name === tool.displayName) return true;
    if (this.parent.getRegisteredTool(name) === tool) return true;
    const { serverAlias, serverToolName } = tool as {
      serverAlias?: unknown;
      serverToolName?: unknown;
    };
    return (
      typeof serverAlias === 'string' &&
      typeof serverToolName === 'string' &&
      mcpNameCovers(name, { server: serverAlias, tool: serverToolName }, servers)
    );
  }

  private servers(): string[] {
    return configuredServers(this.config).map(([alias]) => alias);
  }

  private taskWanted(): boolean {
    return (
      Boolean(this.ownTask) && (!this.wanted || this.wanted.has('task') || this.wanted.has('Task'))
    );
  }

  override getTool(name: string): AnyTool | undefined {
    if (name === 'task') return this.taskWanted() ? this.ownTask : undefined;
    const tool = this.parent.getTool(name);
    return tool && this.allowed(tool) ? tool : undefined;
  }

  override getRegisteredTool(name: string): AnyTool | undefined {
    if (name === 'task') return this.ownTask;
    return this.parent.getRegisteredTool(name);
  }

  override getAllTools(): AnyTool[] {
    const tools = this.parent.getAllTools().filter((tool) => this.allowed(tool));
    return this.taskWanted() && this.ownTask ? [...tools, this.ownTask] : tools;
  }
}
