/**
 * Which tools exist and which are active: registration, lookup by name, by a name other
 * models know or by `alias__tool` / `mcp__alias__tool`, and the `tools.core` /
 * `tools.exclude` / `permissions.deny` filters. Knows
 * nothing of where discovered tools come from (tool-registry.ts does).
 */
import type { Config } from '../config/config.js';
import type { FunctionDeclaration } from '../contract/content.js';
import { toolRemovedBy } from '../permissions/call-rules.js';
import type { AnyTool } from './tools.js';

/** Tool names other models were trained on, mapped to toolhost's. */
export const TOOL_NAME_ALIASES: Readonly<Record<string, string>> = {
  search_file_content: 'grep_search',
  replace: 'edit',
};

export type ToolSource =
  | { type: 'builtin' }
  | { type: 'discovered'; command: string }
  | { type: 'mcp'; serverName: string };

/** Thrown at start-up when two built-in tools claim one name. */
export class DuplicateToolError extends Error {}

interface Entry {
  tool: AnyTool;
  source: ToolSource;
}

interface DeferredBuiltins {
  names: readonly string[];
  load: () => Promise<AnyTool[]>;
}

export class ToolCatalog {
  private readonly entries = new Map<string, Entry>();
  private readonly unavailable = new Map<string, string>();
  /** `alias__tool` for every discovered tool, even one that kept its own name. */
  protected readonly qualifiedNames = new Map<string, string>();
  /** Built-ins whose modules are not loaded yet (see deferBuiltins). */
  private deferred: DeferredBuiltins | undefined;
  private loadingDeferred: Promise<void> | undefined;

  constructor(protected readonly config: Config) {}

  /**
   * Adds a tool. Two built-ins with one name are a programming error and throw; a
   * discovered tool replaces an earlier discovered tool of the same name (rediscovery).
   */
  registerTool(tool: AnyTool, source: ToolSource = { type: 'builtin' }): void {
    const existing = this.entries.get(tool.name);
    if (existing) {
      if (existing.source.type === 'builtin' || source.type === 'builtin') {
        throw new DuplicateToolError(
          `Two tools are named "${tool.name}": ${describe(existing)} and ${describe({ tool, source })}. Give one of them another name.`,
        );
      }
    }
    this.entries.set(tool.name, { tool, source });
  }

  /**
   * The names of the registered tools, active or not, in registration order, and those of
   * deferred built-ins: a discovered tool never takes a built-in's name, loaded or not.
   */
  protected registeredNames(): string[] {
    const names = [...this.entries.keys()];
    for (const name of this.deferred?.names ?? []) if (!this.entries.has(name)) names.push(name);
    return names;
  }

  /**
   * For a command that runs one tool: the other built-ins are only named here, and their
   * modules load when loadDeferredBuiltins is called. `load` gives every built-in in
   * registration order (the ones registered already among them).
   */
  deferBuiltins(names: readonly string[], load: () => Promise<AnyTool[]>): void {
    this.deferred = { names, load };
  }

  /**
   * Registers the deferred built-ins, after which the built-ins and their order are those
   * of a registry that loaded them all at once.
   */
  loadDeferredBuiltins(): Promise<void> {
    const deferred = this.deferred;
    if (!deferred) return Promise.resolve();
    this.loadingDeferred ??= deferred.load().then((tools) => {
      this.deferred = undefined;
      this.loadingDeferred = undefined;
      this.removeTools((source) => source.type === 'builtin');
      for (const tool of tools) this.registerTool(tool);
    });
    return this.loadingDeferred;
  }

  /** Records a tool that is not offered, and why (shown by `toolhost tools`). */
  markUnavailable(name: string, reason: string): void {
    this.unavailable.set(name, reason);
  }

  getUnavailableTools(): { name: string; reason: string }[] {
    return [...this.unavailable].map(([name, reason]) => ({ name, reason }));
  }

  /** Registered tools that settings turn off, each with the setting that does it. */
  getInactiveTools(): { name: string; reason: string }[] {
    const inactive: { name: string; reason: string }[] = [];
    for (const { tool } of this.entries.values()) {
      const reason = this.inactiveReason(tool);
      if (reason) inactive.push({ name: tool.name, reason });
    }
    return inactive;
  }

  /** Removes every tool that came from a source (before rediscovery). */
  removeTools(predicate: (source: ToolSource) => boolean): void {
    for (const [name, entry] of this.entries) {
      if (predicate(entry.source)) this.entries.delete(name);
    }
  }

  /** An active tool by name or alias; undefined when unknown or disabled by settings. */
  getTool(name: string): AnyTool | undefined {
    const entry = this.lookup(name);
    return entry && this.isActive(entry.tool) ? entry.tool : undefined;
  }

  /** A registered tool even when settings disable it (to tell the model why it cannot call it). */
  getRegisteredTool(name: string): AnyTool | undefined {
    return this.lookup(name)?.tool;
  }

  /** By name, by a name models know from elsewhere, or by `alias__tool` for discovered tools. */
  private lookup(name: string): Entry | undefined {
    return (
      this.entries.get(name) ??
      this.entries.get(TOOL_NAME_ALIASES[name] ?? '') ??
      this.entries.get(this.qualifiedNames.get(name) ?? '')
    );
  }

  /** Every active tool, in a stable order: built-ins as registered, then the rest by name. */
  getAllTools(): AnyTool[] {
    const builtin: AnyTool[] = [];
    const other: AnyTool[] = [];
    for (const { tool, source } of this.entries.values()) {
      if (!this.isActive(tool)) continue;
      (source.type === 'builtin' ? builtin : other).push(tool);
    }
    other.sort((a, b) => a.name.localeCompare(b.name));
    return [...builtin, ...other];
  }

  getAllToolNames(): string[] {
    return this.getAllTools().map((tool) => tool.name);
  }

  getFunctionDeclarations(): FunctionDeclaration[] {
    return this.getAllTools().map((tool) => tool.schema);
  }

  /** The active tools that came from one MCP server. */
  getToolsByServer(serverName: string): AnyTool[] {
    return this.getAllTools().filter((tool) => {
      const source = this.entries.get(tool.name)?.source;
      return source?.type === 'mcp' && source.serverName === serverName;
    });
  }

  getSource(name: string): ToolSource | undefined {
    return this.entries.get(name)?.source;
  }

  /**
   * Whether settings leave a tool active. Entries name a tool by its API name, display name
   * or alias; a `name(argument)` entry in `tools.core` keeps the tool active, while in
   * `tools.exclude` it restricts arguments (shell commands) and leaves the tool active.
   */
  isActive(tool: AnyTool): boolean {
    return this.inactiveReason(tool) === undefined;
  }

  private inactiveReason(tool: AnyTool): string | undefined {
    const names = namesOf(tool);
    // A discovered tool is named by `alias__tool` and `mcp__alias__tool` too.
    for (const [qualified, registryName] of this.qualifiedNames)
      if (registryName === tool.name) names.add(qualified);
    const { core, exclude } = this.config.settings.tools ?? {};
    const excludedBy = exclude?.find((entry) => names.has(entry));
    if (excludedBy !== undefined) return `turned off by tools.exclude ("${excludedBy}")`;
    const removedBy = toolRemovedBy(this.config, tool);
    if (removedBy !== undefined) return `turned off by ${removedBy}`;
    if (core && core.length > 0) {
      const listed = core.some((entry) => names.has(entry.replace(/\(.*\)$/s, '')));
      if (!listed) return 'not listed in tools.core, which names the only tools to offer';
    }
    return undefined;
  }
}

function namesOf(tool: AnyTool): Set<string> {
  const names = new Set([tool.name, tool.displayName]);
  for (const [alias, canonical] of Object.entries(TOOL_NAME_ALIASES)) {
    if (canonical === tool.name) names.add(alias);
  }
  return names;
}

function describe({ tool, source }: Entry): string {
  const origin =
    source.type === 'builtin'
      ? 'built-in'
      : source.type === 'mcp'
        ? `from MCP server "${source.serverName}"`
        : `from discovery command "${source.command}"`;
  return `${tool.displayName} (${tool.constructor.name}, ${origin})`;
}
