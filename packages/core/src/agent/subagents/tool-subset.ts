/**
 * A subagent's tools: a live view of the parent's registry limited to the names its file
 * lists (tool names, display names, aliases, Claude Code names, MCP tool names, also as
 * `mcp__server__tool`), plus its
 * own `task` tool when nesting may go deeper. Tools that arrive in the parent later (an
 * MCP server connecting) appear here too.
 */
import type { Config } from '../../config/config.js';
import { claudeToolTarget } from '../../permissions/tool-vocabulary.js';
import { mcpQualifiedNameOf } from '../../tools/mcp/names.js';
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
    return [...this.wanted].filter(
      (name) => name !== 'task' && !this.parent.getRegisteredTool(name),
    );
  }

  private allowed(tool: AnyTool): boolean {
    if (tool.name === 'task') return false; // the parent's task: only our own is offered
    if (!this.wanted) return true;
    if (this.wanted.has(tool.name) || this.wanted.has(tool.displayName)) return true;
    // Qwen Code's agent files name MCP tools `mcp__server__tool`.
    const qualified = mcpQualifiedNameOf(tool);
    return qualified !== undefined && this.wanted.has(qualified);
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
