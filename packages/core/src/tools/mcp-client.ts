/**
 * MCP servers as tool sources: each configured server is connected (stdio, SSE or
 * streamable HTTP, through the MCP SDK) in parallel with a start timeout; its tools and
 * prompts are listed, and a server that fails never stops the others. A server that dies
 * is started again on its next call.
 */

import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  ListRootsRequestSchema,
  type Tool as McpToolDefinition,
} from '@modelcontextprotocol/sdk/types.js';
import { parse as parseCommand } from 'shell-quote';
import type { Config } from '../config/config.js';
import type { McpServerSettings } from '../config/settings.js';
import { withoutSecrets } from '../shell/shell-environment.js';
import { schemaProblems } from '../utils/schema-validator.js';

export const DEFAULT_MCP_TIMEOUT_MS = 60_000;
/** Alias of the server started by `mcp.serverCommand`. */
export const SERVER_COMMAND_ALIAS = 'mcp';

export type McpServerStatus = 'connecting' | 'connected' | 'disconnected' | 'failed';

export interface McpPrompt {
  name: string;
  description?: string;
  arguments: { name: string; description?: string; required?: boolean }[];
}

/** Locale and terminal variables a stdio server may need, on top of the SDK's minimal set. */
const PASSED_THROUGH =
  /^(LANG|LANGUAGE|LC_[A-Z]+|TERM|TZ|TMPDIR|TEMP|TMP|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SystemRoot)$/;

export function stdioEnvironment(
  configured: Record<string, string> | undefined,
  base: NodeJS.ProcessEnv = process.env,
  allowEnv: readonly string[] = [],
): Record<string, string> {
  const inherited: Record<string, string> = { ...getDefaultEnvironment() };
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && PASSED_THROUGH.test(name)) inherited[name] = value;
  }
  // The server's own `env` entries are the person's explicit choice; what is inherited is filtered.
  return { ...withoutSecrets(inherited, allowEnv), ...configured };
}

export class McpServerConnection {
  status: McpServerStatus = 'disconnected';
  error: string | undefined;
  tools: McpToolDefinition[] = [];
  /** Tools left out because their schema is unusable, with the reason. */
  rejectedTools: { name: string; reason: string }[] = [];
  prompts: McpPrompt[] = [];
  private client: Client | undefined;
  private connecting: Promise<void> | undefined;
  /** The end of a stdio server's stderr, for explaining its failures. */
  private stderrTail = '';

  constructor(
    readonly alias: string,
    readonly settings: McpServerSettings,
    private readonly config: Config,
  ) {}

  get timeoutMs(): number {
    return this.settings.timeout ?? DEFAULT_MCP_TIMEOUT_MS;
  }

  get trusted(): boolean {
    return this.settings.trust === true;
  }

  /** Connects and lists the server's tools and prompts; failures are recorded, not thrown. */
  async connect(): Promise<void> {
    this.connecting ??= this.doConnect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async doConnect(): Promise<void> {
    this.status = 'connecting';
    this.error = undefined;
    const client = new Client(
      { name: 'toolhost', version: '0.1.0' },
      { capabilities: { roots: { listChanged: false } } },
    );
    // The workspace roots are what the server may work on.
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: this.config.workspace.roots.map((root) => ({
        uri: pathToFileURL(root).href,
        name: root,
      })),
    }));
    let transport: Transport;
    try {
      transport = this.createTransport();
    } catch (error) {
      this.fail((error as Error).message);
      return;
    }
    if (transport instanceof StdioClientTransport) {
      // Read stderr all the time: a server blocks once an unread pipe is full.
      this.stderrTail = '';
      transport.stderr?.on('data', (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-2000);
      });
    }
    const timeout = this.timeoutMs;
    try {
      await withTimeout(
        client.connect(transport, { timeout }),
        timeout,
        `did not start within ${timeout / 1000} s`,
      );
      const listed = await withTimeout(
        client.listTools(undefined, { timeout }),
        timeout,
        `did not list its tools within ${timeout / 1000} s`,
      );
      this.acceptTools(listed.tools);
      if (client.getServerCapabilities()?.prompts) {
        const prompts = await client
          .listPrompts(undefined, { timeout })
          .catch(() => ({ prompts: [] }));
        this.prompts = prompts.prompts.map((prompt) => ({
          name: prompt.name,
          ...(prompt.description ? { description: prompt.description } : {}),
          arguments: (prompt.arguments ?? []).map((arg) => ({
            name: arg.name,
            description: arg.description,
            required: arg.required,
          })),
        }));
      }
    } catch (error) {
      await client.close().catch(() => undefined);
      this.fail(describeError(error));
      return;
    }
    client.onclose = () => {
      if (this.client === client) {
        this.client = undefined;
        this.status = 'disconnected';
        this.error = 'the server closed the connection; it is started again on the next call';
      }
    };
    this.client = client;
    this.status = 'connected';
  }

  /** Calls a tool by its server-side name; reconnects first if the server had died. */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<CallToolResult> {
    if (!this.client) await this.connect();
    const client = this.client;
    if (!client)
      throw new Error(
        `MCP server "${this.alias}" is not available: ${this.error ?? 'it did not start'}`,
      );
    const result = await client.callTool({ name, arguments: args }, undefined, {
      signal,
      timeout: this.timeoutMs,
    });
    return result as CallToolResult;
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.status = 'disconnected';
    await client?.close().catch(() => undefined);
  }

  private acceptTools(tools: McpToolDefinition[]): void {
    const include = this.settings.includeTools;
    const exclude = new Set(this.settings.excludeTools ?? []);
    this.tools = [];
    this.rejectedTools = [];
    for (const tool of tools) {
      if (exclude.has(tool.name)) continue;
      if (include && !include.includes(tool.name)) continue;
      const problem = schemaProblems(tool.inputSchema as Record<string, unknown>, {}).find((p) =>
        p.message.startsWith('This tool'),
      );
      if (problem) {
        this.rejectedTools.push({ name: tool.name, reason: problem.message });
        continue;
      }
      this.tools.push(tool);
    }
  }

  private fail(message: string): void {
    const said = this.stderrTail.trim().split('\n').slice(-5).join('\n');
    this.status = 'failed';
    this.error = said ? `${message}; it wrote: ${said}` : message;
    this.tools = [];
  }

  private createTransport(): Transport {
    const { settings } = this;
    const headers = settings.headers ?? {};
    if (settings.httpUrl) {
      return new StreamableHTTPClientTransport(new URL(settings.httpUrl), {
        requestInit: { headers },
      });
    }
    if (settings.url) {
      return new SSEClientTransport(new URL(settings.url), {
        requestInit: { headers },
        eventSourceInit: {
          fetch: (url, init) =>
            fetch(url, {
              ...init,
              headers: { ...(init?.headers as Record<string, string>), ...headers },
            }),
        },
      });
    }
    if (settings.command) {
      return new StdioClientTransport({
        command: settings.command,
        args: settings.args ?? [],
        env: stdioEnvironment(
          settings.env,
          process.env,
          this.config.settings.tools?.shell?.allowEnv,
        ),
        cwd: settings.cwd ?? this.config.workspace.projectRoot,
        stderr: 'pipe',
      });
    }
    throw new Error('has no command, url or httpUrl; set one of them in its mcpServers entry');
  }
}

/** The servers settings ask for: mcpServers, plus mcp.serverCommand; filtered by mcp.allowed / mcp.excluded. */
export function configuredServers(config: Config): [string, McpServerSettings][] {
  const servers: [string, McpServerSettings][] = Object.entries(config.settings.mcpServers ?? {});
  const serverCommand = config.settings.mcp?.serverCommand;
  if (serverCommand) {
    const words = parseCommand(serverCommand).filter(
      (word): word is string => typeof word === 'string',
    );
    if (words.length > 0)
      servers.push([SERVER_COMMAND_ALIAS, { command: words[0]!, args: words.slice(1) }]);
  }
  const allowed = config.settings.mcp?.allowed;
  const excluded = new Set(config.settings.mcp?.excluded ?? []);
  return servers.filter(([alias]) => !excluded.has(alias) && (!allowed || allowed.includes(alias)));
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^MCP error -?\d+: /, '');
}
