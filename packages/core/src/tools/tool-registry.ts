/**
 * The set of tools a session offers the model: the built-ins, plus tools discovered from
 * a command or from MCP servers, found in the background and kept in step as servers
 * arrive, fail and come back. Lookup and the settings filters live in tool-catalog.ts.
 */
import { closestNames } from '../utils/closest-names.js';
import {
  type DiscoveredDeclaration,
  DiscoveredTool,
  runDiscoveryCommand,
} from './discovered-tool.js';
import { assignToolNames, mcpQualifiedName, namesServerTool, validToolName } from './mcp/names.js';
import { McpToolCache } from './mcp/tool-cache.js';
import type { McpServerConnection } from './mcp-client.js';
import { ToolCatalog } from './tool-catalog.js';
import type { AnyTool, JsonSchema } from './tools.js';

export {
  DuplicateToolError,
  TOOL_NAME_ALIASES,
  type ToolSource,
} from './tool-catalog.js';

/** The pseudo-alias under which command-discovered tools are qualified when their names collide. */
const DISCOVERY_ALIAS = 'discovered';

export class ToolRegistry extends ToolCatalog {
  private mcpServers: McpServerConnection[] = [];
  private discoveryError: string | undefined;
  private commandDeclarations: DiscoveredDeclaration[] = [];
  /** Set while the discovery command runs. */
  private commandDiscovery: Promise<void> | undefined;
  private discovery: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<() => void>();
  private readonly noticeListeners = new Set<(text: string) => void>();
  private readonly failureListeners = new Set<(alias: string, error: string) => void>();
  private toolCache: McpToolCache | undefined;
  /** The MCP client modules, loaded when settings first name a server. */
  private mcp: McpModules | undefined;
  /** Resolves once the configured servers' connections exist (after the modules load). */
  private serversCreated: Promise<void> = Promise.resolve();

  /**
   * Starts discovering tools from `tools.discoveryCommand` and from every MCP server, in
   * the background and in parallel, replacing what an earlier discovery found; returns at
   * once. Each source's tools are added as it answers (listeners of onToolsChanged hear
   * of it). Failures are recorded (getDiscoveryError, getMcpServers), never thrown.
   */
  startDiscovery(): void {
    this.removeTools((source) => source.type !== 'builtin');
    const previous = this.mcpServers;
    this.mcpServers = [];
    const { settings } = this.config;
    const discoveryCommand = settings.tools?.discoveryCommand;
    this.commandDeclarations = [];
    this.discoveryError = undefined;
    this.commandDiscovery = discoveryCommand
      ? runDiscoveryCommand(this.config, discoveryCommand).then((discovered) => {
          this.commandDiscovery = undefined;
          this.discoveryError = 'error' in discovered ? discovered.error : undefined;
          this.commandDeclarations = 'declarations' in discovered ? discovered.declarations : [];
          this.syncDiscoveredTools();
        })
      : undefined;
    // The MCP SDK is loaded only when settings name a server: most sessions have none.
    const anyServer =
      Object.keys(settings.mcpServers ?? {}).length > 0 || Boolean(settings.mcp?.serverCommand);
    this.serversCreated = anyServer ? this.createServers() : Promise.resolve();
    this.discovery = Promise.all([
      ...previous.map((server) => server.close()),
      this.commandDiscovery,
      this.serversCreated.then(() =>
        Promise.all(this.mcpServers.map((server) => server.connect())),
      ),
    ]).then(() => undefined);
    this.syncDiscoveredTools();
  }

  private async createServers(): Promise<void> {
    const mcp = await loadMcpModules();
    this.mcp = mcp;
    this.toolCache ??= new McpToolCache(this.config.userDir);
    this.mcpServers = mcp.configuredServers(this.config).map(([alias, server]) => {
      const connection = new mcp.McpServerConnection(alias, server, this.config);
      connection.onChange = () => this.serverChanged(connection);
      connection.onNotice = (text) => {
        for (const listener of [...this.noticeListeners]) listener(text);
      };
      return connection;
    });
  }

  /** Discovers every source (see startDiscovery) and resolves when all have answered or failed. */
  async discoverAllTools(): Promise<void> {
    this.startDiscovery();
    await this.whenDiscoveryComplete();
  }

  /** Resolves when every source of the current discovery has answered or failed. */
  async whenDiscoveryComplete(): Promise<void> {
    await this.discovery;
  }

  /**
   * Calls the listener with what an MCP server's connection has to tell the person outside
   * any question (a page visit declined, a server reporting one done).
   */
  onServerNotice(listener: (text: string) => void): () => void {
    this.noticeListeners.add(listener);
    return () => this.noticeListeners.delete(listener);
  }

  /** Calls the listener whenever the set of tools changes (a server arrived, failed, came back). */
  onToolsChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The tool of that name, waiting for the sources that may still bring it: the server
   * an `alias__tool` name points to, the servers that offered the name last time, or,
   * without such knowledge, every source still starting. Each waits at most its own start
   * timeout. Undefined when no source brings it (see explainMissingTool) or on abort.
   */
  async waitForTool(name: string, signal?: AbortSignal): Promise<AnyTool | undefined> {
    if (!this.getTool(name)) await this.serversCreated;
    for (;;) {
      const found = this.getTool(name);
      if (found || this.getRegisteredTool(name) || signal?.aborted) return found;
      const pending = this.sourcesThatMayBring(name);
      if (pending.length === 0) return undefined;
      let stop: () => unknown = () => undefined;
      const changed = new Promise<void>((resolve) => {
        stop = this.onToolsChanged(resolve);
        signal?.addEventListener('abort', () => resolve(), { once: true });
      });
      try {
        await Promise.race([Promise.all(pending), changed]);
      } finally {
        stop();
      }
    }
  }

  /** The message for a name no tool has: the closest names, and servers that failed. */
  unknownToolMessage(name: string): string {
    if (this.getRegisteredTool(name)) {
      return `Tool "${name}" is turned off by this session's settings (tools.core / tools.exclude). Use one of the available tools instead: ${this.getAllToolNames().join(', ')}.`;
    }
    const suggestions = closestNames(name, this.getAllToolNames());
    const hint =
      suggestions.length > 0
        ? `Did you mean ${suggestions.map((s) => `"${s}"`).join(' or ')}?`
        : `Available tools: ${this.getAllToolNames().join(', ')}.`;
    const failedServers = this.explainMissingTool(name)?.message;
    return `Tool "${name}" does not exist. ${hint}${failedServers ? ` ${failedServers}` : ''}`;
  }

  /** Calls the listener each time an MCP server fails to start or to reconnect. */
  onMcpServerFailed(listener: (alias: string, error: string) => void): () => void {
    this.failureListeners.add(listener);
    return () => this.failureListeners.delete(listener);
  }

  /**
   * Why a name is not available when MCP servers are involved: `server` is set when the
   * name is known to be a tool of a server that failed or is still starting; otherwise
   * the message lists the servers that failed, one of which may have offered it.
   */
  explainMissingTool(name: string): { server?: string; message: string } | undefined {
    const owners = this.mcpServers.filter(
      (server) =>
        namesServerTool(name, server.alias) ||
        this.toolCache?.toolsOf(server.settings)?.some((tool) => validToolName(tool) === name),
    );
    for (const server of owners) {
      const { alias } = server;
      if (server.status === 'connecting')
        return {
          server: alias,
          message: `"${name}" is a tool of MCP server "${alias}", which is still starting; try again in a moment.`,
        };
      if (server.status === 'failed' || server.status === 'disconnected')
        return {
          server: alias,
          message: `"${name}" is a tool of MCP server "${alias}", which is not available: ${server.error ?? 'it did not start'}.`,
        };
    }
    const failed = this.mcpServers.filter((server) => server.status === 'failed');
    if (failed.length === 0) return undefined;
    const list = failed.map((s) => `"${s.alias}" (${s.error ?? 'did not start'})`).join(', ');
    return {
      message: `MCP server${failed.length === 1 ? '' : 's'} ${list} failed to start; if "${name}" is one of ${failed.length === 1 ? 'its' : 'their'} tools, it is not available now.`,
    };
  }

  private sourcesThatMayBring(name: string): Promise<void>[] {
    const starting = this.mcpServers.filter((server) => server.status === 'connecting');
    const byAlias = starting.filter((server) => namesServerTool(name, server.alias));
    if (byAlias.length > 0) return byAlias.map((server) => server.settled());
    const remembered = (server: McpServerConnection) =>
      this.toolCache?.toolsOf(server.settings)?.map(validToolName);
    const offeredIt = starting.filter((server) => remembered(server)?.includes(name));
    if (offeredIt.length > 0) return offeredIt.map((server) => server.settled());
    // A server never seen before might bring any name; one seen before brings what it had.
    const unknown = starting.filter((server) => remembered(server) === undefined);
    return [
      ...unknown.map((server) => server.settled()),
      ...(this.commandDiscovery ? [this.commandDiscovery] : []),
    ];
  }

  private serverChanged(server: McpServerConnection): void {
    if (!this.mcpServers.includes(server)) return;
    if (server.status === 'failed')
      for (const listener of [...this.failureListeners])
        listener(server.alias, server.error ?? 'it did not start');
    if (server.status === 'connected')
      this.toolCache?.remember(
        server.alias,
        server.settings,
        server.tools.map((tool) => tool.name),
      );
    this.syncDiscoveredTools();
  }

  /**
   * Re-registers every discovered tool under names computed from all sources that have
   * answered so far; names do not depend on the order in which they answered.
   */
  private syncDiscoveredTools(): void {
    const before = this.signature();
    this.removeTools((source) => source.type !== 'builtin');
    this.qualifiedNames.clear();
    const { settings } = this.config;
    const declarations = this.commandDeclarations;
    const builtins = this.registeredNames();
    const names = assignToolNames(
      [
        ...declarations.map((d): [string, string] => [DISCOVERY_ALIAS, d.name]),
        ...this.mcpServers.flatMap((server) =>
          server.tools.map((tool): [string, string] => [server.alias, tool.name]),
        ),
      ],
      builtins,
    );
    const nameOf = (alias: string, tool: string) => names.get(`${alias}\u0000${tool}`)!;
    for (const declaration of declarations) {
      const tool = new DiscoveredTool(
        this.config,
        declaration.name,
        nameOf(DISCOVERY_ALIAS, declaration.name),
        declaration.description,
        declaration.schema,
        settings.tools?.callCommand,
      );
      this.registerTool(tool, {
        type: 'discovered',
        command: settings.tools?.discoveryCommand ?? '',
      });
    }
    const { mcp } = this;
    for (const server of mcp ? this.mcpServers : []) {
      if (!mcp) break;
      for (const tool of server.tools) {
        const name = nameOf(server.alias, tool.name);
        const mcpTool = new mcp.DiscoveredMCPTool(
          this.config,
          server,
          tool.name,
          name,
          tool.description ?? '',
          tool.inputSchema as JsonSchema,
          tool.annotations ?? {},
        );
        this.registerTool(mcpTool, { type: 'mcp', serverName: server.alias });
        this.qualifiedNames.set(validToolName(`${server.alias}__${tool.name}`), name);
        this.qualifiedNames.set(mcpQualifiedName(server.alias, tool.name), name);
      }
    }
    if (this.signature() !== before) for (const listener of [...this.listeners]) listener();
  }

  /** What the model is offered, to tell whether a change is worth announcing. */
  private signature(): string {
    return JSON.stringify(this.getFunctionDeclarations());
  }

  /** The MCP servers of the last discovery, with their status, tools, prompts and errors. */
  getMcpServers(): readonly McpServerConnection[] {
    return this.mcpServers;
  }

  /** Why the discovery command failed, if it did. */
  getDiscoveryError(): string | undefined {
    return this.discoveryError;
  }

  /** Closes every MCP connection (ends stdio servers, including those still starting). */
  async closeMcpServers(): Promise<void> {
    await this.serversCreated;
    await Promise.all([
      ...this.mcpServers.map((server) => server.close()),
      this.toolCache?.flush(),
    ]);
  }
}

type McpModules = Awaited<ReturnType<typeof loadMcpModules>>;

async function loadMcpModules() {
  const [client, tool, servers] = await Promise.all([
    import('./mcp-client.js'),
    import('./mcp-tool.js'),
    import('../permissions/mcp-servers.js'),
  ]);
  return { ...client, ...tool, ...servers };
}
