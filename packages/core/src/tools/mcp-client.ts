/**
 * MCP servers as tool sources: each configured server is connected (stdio, SSE or
 * streamable HTTP, through the MCP SDK) with its own start timeout; its tools and prompts are
 * listed, and a server that fails never stops the others. A dropped connection fails its
 * running calls at once, naming the server; the next call connects again, with a growing
 * pause between failed attempts. Each progress notification gives a call more time, up to
 * `maxTotalTimeout`. This file owns connecting, liveness, timeouts and progress; not names
 * (mcp/names.ts), offerings (mcp/offerings.ts), failures' wording (mcp/errors.ts), a server's
 * requests (mcp/sdk-client.ts), results (mcp-tool.ts), which servers (permissions/mcp-servers.ts).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  ErrorCode,
  type GetPromptResult,
  McpError,
  type Tool as McpToolDefinition,
  type Progress,
  PromptListChangedNotificationSchema,
  type ReadResourceResult,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../config/config.js';
import { MCP_SERVER_DEFAULTS, type McpServerSettings } from '../config/settings.js';
import { refusedServerName } from '../permissions/mcp-servers.js';
import { UrlVisits } from './mcp/elicitation-url.js';
import {
  callTimeoutMessage,
  describeError,
  McpConnectionError,
  messageTooLarge,
  noteTooLarge,
  seconds,
  withTimeout,
} from './mcp/errors.js';
import { McpAuthRequiredError, ToolhostOAuthProvider } from './mcp/oauth.js';
import { McpOAuthStore } from './mcp/oauth-store.js';
import {
  listOfferings,
  type McpPrompt,
  type McpResource,
  type McpResourceTemplate,
} from './mcp/offerings.js';
import { createSdkClient } from './mcp/sdk-client.js';
import { closeClient, createTransport, probeReachable, remoteUrl } from './mcp/transport.js';
import type { ToolExecutionContext } from './tools.js';

export const DEFAULT_MCP_TIMEOUT_MS = MCP_SERVER_DEFAULTS.timeout;
/** How long a call that keeps reporting progress may run in all. */
export const DEFAULT_MCP_MAX_TOTAL_TIMEOUT_MS = MCP_SERVER_DEFAULTS.maxTotalTimeout;
/** Pauses between failed reconnection attempts: 1 s, doubling, at most 30 s. */
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

export type McpServerStatus = 'connecting' | 'connected' | 'disconnected' | 'failed';

export class McpServerConnection {
  status: McpServerStatus = 'disconnected';
  error: string | undefined;
  /** The server refused toolhost until someone signs in (`toolhost mcp auth <alias>`). */
  signInNeeded = false;
  tools: McpToolDefinition[] = [];
  /** Tools left out because their schema is unusable, with the reason. */
  rejectedTools: { name: string; reason: string }[] = [];
  prompts: McpPrompt[] = [];
  resources: McpResource[] = [];
  resourceTemplates: McpResourceTemplate[] = [];
  /** Called whenever status, tools, prompts or resources change. */
  onChange: (() => void) | undefined;
  /** Tells the person something outside any question (a page visit declined or done). */
  onNotice: ((text: string) => void) | undefined;
  /** Pages the server asked the person to visit (elicitation, URL mode). */
  readonly visits: UrlVisits;
  private client: Client | undefined;
  /** The client and transport of a connection attempt in progress, so close() can end it. */
  private starting: { client: Client; transport: Transport } | undefined;
  private connecting: Promise<void> | undefined;
  private closed = false;
  /** One controller per running call: aborted when the connection is lost. */
  private readonly running = new Set<AbortController>();
  /** How each running call asks the person; the server's questions go to the latest. */
  private readonly askers: ToolExecutionContext['ask'][] = [];
  private failedAttempts = 0;
  private retryAt = 0;
  /** The end of a stdio server's stderr, for explaining its failures. */
  private stderrTail = '';

  constructor(
    readonly alias: string,
    readonly settings: McpServerSettings,
    private readonly config: Config,
  ) {
    this.visits = new UrlVisits(alias, (text) => this.onNotice?.(text));
  }

  /** How long each call may go without an answer or progress. */
  get timeoutMs(): number {
    return this.settings.timeout ?? DEFAULT_MCP_TIMEOUT_MS;
  }

  /** How long the server has to start and list what it offers. */
  get startTimeoutMs(): number {
    return this.settings.startTimeout ?? this.timeoutMs;
  }

  get maxTotalTimeoutMs(): number {
    return Math.max(
      this.settings.maxTotalTimeout ?? DEFAULT_MCP_MAX_TOTAL_TIMEOUT_MS,
      this.timeoutMs,
    );
  }

  get trusted(): boolean {
    return this.settings.trust === true;
  }

  /** Connects and lists the server's tools and prompts; failures are recorded, not thrown. */
  async connect(): Promise<void> {
    if (this.closed) return;
    this.connecting ??= this.doConnect().finally(() => {
      this.connecting = undefined;
      this.onChange?.();
    });
    return this.connecting;
  }

  /** Settles when the current connection attempt (if any) has ended. */
  async settled(): Promise<void> {
    await this.connecting;
  }

  private async doConnect(): Promise<void> {
    this.status = 'connecting';
    this.error = undefined;
    this.onChange?.();
    const client = createSdkClient({
      alias: this.alias,
      config: this.config,
      visits: this.visits,
      // The server's questions go to the person through the latest running call.
      currentAsker: () => this.askers.at(-1),
    });
    const refused = refusedServerName(this.config, this.alias);
    if (refused) return this.fail(`is not started: ${refused}`);
    let transport: Transport;
    try {
      transport = createTransport(
        this.settings,
        this.config.workspace.projectRoot,
        this.oauthProvider(),
        this.config.settings.tools?.shell?.allowEnv,
      );
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
    this.starting = { client, transport };
    const timeout = this.startTimeoutMs;
    const tooLarge = noteTooLarge(client, this.alias);
    try {
      await withTimeout(
        client.connect(transport, { timeout }),
        timeout,
        `did not start within ${seconds(timeout)} s; raise ${this.startTimeoutKey} (milliseconds) in settings if it needs longer`,
      );
      await this.listEverything(client);
    } catch (error) {
      this.starting = undefined;
      await this.endClient(client, transport);
      if (this.closed) return;
      this.signInNeeded = error instanceof McpAuthRequiredError;
      this.fail(tooLarge() ?? describeError(error));
      return;
    } finally {
      this.starting = undefined;
    }
    if (this.closed) {
      await this.endClient(client, transport);
      return;
    }
    client.onclose = () => this.lose(client, 'closed the connection');
    client.onerror = (error) => this.checkLiveness(client, error);
    for (const schema of [
      ToolListChangedNotificationSchema,
      PromptListChangedNotificationSchema,
      ResourceListChangedNotificationSchema,
    ])
      client.setNotificationHandler(schema, async () => {
        if (this.client !== client) return;
        await this.listEverything(client).catch(() => undefined);
        this.onChange?.();
      });
    this.client = client;
    this.failedAttempts = 0;
    this.signInNeeded = false;
    this.status = 'connected';
  }

  /** The setting that bounds starting, as a person finds it in settings. */
  private get startTimeoutKey(): string {
    return `mcpServers.${this.alias}.startTimeout`;
  }

  private async listEverything(client: Client): Promise<void> {
    const timeout = this.startTimeoutMs;
    const offered = await listOfferings(
      client,
      this.settings,
      timeout,
      `did not list its tools within ${seconds(timeout)} s; raise ${this.startTimeoutKey} (milliseconds) in settings if it needs longer`,
    );
    this.tools = offered.tools;
    this.rejectedTools = offered.rejectedTools;
    if (offered.resources) this.resources = offered.resources;
    if (offered.resourceTemplates) this.resourceTemplates = offered.resourceTemplates;
    if (offered.prompts) this.prompts = offered.prompts;
  }

  /**
   * Calls a tool by its server-side name. Connects first when the server is down (at most
   * once per pause after a failed attempt). Progress reaches `onProgress` and extends the
   * call's time; a lost connection fails the call at once with an McpConnectionError.
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    onProgress?: (progress: Progress) => void,
    ask?: ToolExecutionContext['ask'],
  ): Promise<CallToolResult> {
    const client = await this.ready();
    const liveness = new AbortController();
    this.running.add(liveness);
    if (ask) this.askers.push(ask);
    try {
      const result = await client.callTool({ name, arguments: args }, undefined, {
        signal: AbortSignal.any([signal, liveness.signal]),
        timeout: this.timeoutMs,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: this.maxTotalTimeoutMs,
        // Passing a callback is what makes the SDK send a progress token.
        onprogress: (progress) => onProgress?.(progress),
      });
      return result as CallToolResult;
    } catch (error) {
      if (liveness.signal.aborted && !signal.aborted) throw liveness.signal.reason;
      if (error instanceof McpAuthRequiredError) {
        // A step-up: the server wants more scope than the sign-in gave.
        this.signInNeeded = true;
        throw new McpConnectionError(`MCP server "${this.alias}" ${error.message}`);
      }
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout && !signal.aborted)
        throw new McpConnectionError(callTimeoutMessage(this.alias, name, this.timeoutMs, error));
      throw error;
    } finally {
      this.running.delete(liveness);
      if (ask) this.askers.splice(this.askers.indexOf(ask), 1);
    }
  }

  /**
   * Stored OAuth tokens for a remote server, used and refreshed by the SDK. Nobody is
   * asked to sign in from here: a server that needs it fails, naming the command to run.
   */
  private oauthProvider(): ToolhostOAuthProvider | undefined {
    const url = remoteUrl(this.settings);
    if (!url || !(this.settings.oauth?.enabled ?? MCP_SERVER_DEFAULTS.oauth.enabled))
      return undefined;
    const store = new McpOAuthStore(this.config.userDir, url.href);
    return new ToolhostOAuthProvider(store, this.alias, this.settings.oauth ?? {}, undefined, {
      allowedHosts: this.config.settings.tools?.webFetch?.allowedHosts,
    });
  }

  /** Fills in one of the server's prompts (`/server:prompt` in a front end). */
  async getPrompt(
    name: string,
    args: Record<string, string> = {},
    signal?: AbortSignal,
  ): Promise<GetPromptResult> {
    const client = await this.ready();
    return client.getPrompt({ name, arguments: args }, { timeout: this.timeoutMs, signal });
  }

  /** Reads one of the server's resources (`@server:uri` in a front end). */
  async readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    const client = await this.ready();
    return client.readResource({ uri }, { timeout: this.timeoutMs, signal });
  }

  /** The connected client, connecting first if needed; throws a message naming the server. */
  private async ready(): Promise<Client> {
    if (this.client) return this.client;
    if (this.connecting) {
      await this.connecting;
    } else {
      const wait = this.retryAt - Date.now();
      if (wait > 0)
        throw new McpConnectionError(
          `MCP server "${this.alias}" is not available (${this.error ?? 'it did not start'}); toolhost tries to connect again in ${Math.ceil(wait / 1000)} s.`,
        );
      await this.connect();
    }
    if (this.client) return this.client;
    throw new McpConnectionError(
      `MCP server "${this.alias}" is not available: ${this.error ?? 'it did not start'}`,
    );
  }

  /**
   * A transport error: for a remote server, a broken stream means a dead server only if
   * nothing answers at its address any more; a live server's stream may be resumed.
   */
  private checkLiveness(client: Client, error: Error): void {
    // Said as what it is: the close that follows would read only "closed the connection".
    const tooLarge = messageTooLarge(this.alias, error);
    if (tooLarge) {
      this.lose(client, tooLarge);
      return;
    }
    const url = remoteUrl(this.settings);
    if (!url || this.client !== client) return;
    if (!/disconnected|reconnect|terminated|ECONNRESET|fetch failed|SSE error/i.test(error.message))
      return;
    void probeReachable(url).then((unreachable) => {
      if (unreachable) this.lose(client, `dropped the connection (${unreachable})`);
    });
  }

  /** The connection is gone: running calls fail now; the next call connects again. */
  private lose(client: Client, what: string): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.status = 'disconnected';
    const said = this.lastWords();
    const reason = `MCP server "${this.alias}" ${what}${said ? `; it wrote: ${said}` : ''}`;
    this.error = `${what}; it is connected again on the next call`;
    for (const call of this.running) call.abort(new McpConnectionError(reason));
    void client.close().catch(() => undefined);
    this.onChange?.();
  }

  /** Closes the connection for good (ends stdio servers, including ones still starting). */
  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    const starting = this.starting;
    this.client = undefined;
    this.starting = undefined;
    this.status = 'disconnected';
    await Promise.all([
      client && closeClient(client).catch(() => undefined),
      starting && this.endClient(starting.client, starting.transport),
    ]);
  }

  /** Ends a client; a stdio server that has not finished starting is stopped without grace. */
  private async endClient(client: Client, transport: Transport): Promise<void> {
    const pid = transport instanceof StdioClientTransport ? transport.pid : null;
    // The SDK's close waits for the process to exit, listening from this call on.
    const closing = closeClient(client, transport).catch(() => undefined);
    if (pid) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    await closing;
  }

  /** The last lines a stdio server wrote to stderr, to quote in a failure. */
  private lastWords(): string {
    return this.stderrTail.trim().split('\n').slice(-5).join('\n');
  }

  /**
   * Records a failed attempt. Tools listed by an earlier connection stay, so calls to them
   * say why the server is unavailable instead of "unknown tool".
   */
  private fail(message: string): void {
    const said = this.lastWords();
    this.status = 'failed';
    this.error = said ? `${message}; it wrote: ${said}` : message;
    this.failedAttempts++;
    this.retryAt =
      Date.now() + Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (this.failedAttempts - 1));
  }
}
