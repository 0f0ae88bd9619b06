/**
 * toolhost as an MCP server on stdio, answering a client's opening before the MCP SDK is
 * loaded: the SDK's server and its schemas are most of what `toolhost mcp` would otherwise
 * load before the client sees the tools. The opening answers only the usual first messages,
 * well formed (`initialize`, `notifications/initialized`, `tools/list`), exactly as the SDK's
 * server would (stdio-opening.test.ts compares the two). The first message it does not
 * answer, anything unusual included, hands the connection over: the SDK's server and stdio
 * transport start, the `initialize` request is replayed to them under an id of the
 * opening's own (their answer, already given, is dropped), the `initialized` notification
 * too, then every waiting line in the order it came, so from there on the SDK serves as if
 * it had from the start. A client that stays quiet after listing the tools gets the SDK
 * loaded meanwhile, so that its first call does not wait for it.
 */
import { PassThrough, type Readable, Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Config } from '../config/config.js';
import { configuredServers } from '../permissions/mcp-servers.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { ToolhostMcpServerOptions } from './mcp-server.js';
import { isId, isInitializeParams, isListParams, isPlainObject } from './opening-params.js';
import { agreedProtocolVersion, SERVER_CAPABILITIES, serverInfo } from './server-identity.js';
import { listedTools } from './tool-listing.js';

export interface StdioServiceOptions extends ToolhostMcpServerOptions {
  /**
   * How long the client may stay quiet after its tools/list before the SDK is loaded
   * anyway, so that its first call does not wait for it (a client that hangs up at once
   * never pays for it). 100 ms by default; Infinity loads it only when a message needs it.
   */
  loadSdkAfterQuietMs?: number;
}

/** The id the replayed `initialize` carries, so that its second answer can be told apart. */
const REPLAYED_INITIALIZE_ID = 'toolhost-opening-initialize';

type Message = Record<string, unknown>;

export interface StdioStreams {
  input: Readable;
  output: NodeJS.WritableStream;
}

/**
 * Serves the registry's tools to the MCP client on `streams` (the process's stdin and
 * stdout by default) until the input ends; then the SDK's server, if it was started, is
 * closed (which ends the background commands this client started).
 */
export function serveMcpOverStdio(
  config: Config,
  registry: ToolRegistry,
  options: StdioServiceOptions = {},
  streams: StdioStreams = { input: process.stdin, output: process.stdout },
): Promise<void> {
  return new StdioOpening(config, registry, options, streams).served;
}

class StdioOpening {
  readonly served: Promise<void>;
  private finish: () => void = () => undefined;
  private fail: (error: Error) => void = () => undefined;
  private state: 'opening' | 'handing over' | 'handed over' = 'opening';
  private partial: Buffer = Buffer.alloc(0);
  /** Whole lines (and, once the hand-over has begun, raw chunks) for the SDK, in order. */
  private waiting: Buffer[] = [];
  private initialize: Message | undefined;
  private initialized: Message | undefined;
  private toolsListed = false;
  /** The tools changed after the client listed them, while the SDK was loading. */
  private changedWhileLoading = false;
  private inputEnded = false;
  private quietTimer: NodeJS.Timeout | undefined;
  private server: Server | undefined;
  private sdkInput: PassThrough | undefined;
  private readonly stopWatchingTools: () => void;

  constructor(
    private readonly config: Config,
    private readonly registry: ToolRegistry,
    private readonly options: StdioServiceOptions,
    private readonly streams: StdioStreams,
  ) {
    this.served = new Promise((resolve, reject) => {
      this.finish = resolve;
      this.fail = reject;
    });
    // Once the client has the list, a change to it is news the client must hear: told at
    // once, or by the SDK's server as soon as it is connected (it watches for itself after).
    this.stopWatchingTools = registry.onToolsChanged(() => {
      if (!this.toolsListed) return;
      if (this.state === 'opening')
        this.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      else this.changedWhileLoading = true;
    });
    streams.input.on('data', this.onData);
    // An input error (a closed pipe) ends nothing by itself, as with the SDK's transport:
    // the input's end does.
    streams.input.on('error', () => undefined);
    streams.input.once('end', () => this.onEnd());
    // Warnings go to the client when it says it is initialized, and configured servers'
    // failures when they happen: the SDK's server does both, so it serves from the start.
    if ((options.warnings?.length ?? 0) > 0 || configuredServers(config).length > 0)
      this.handOver();
  }

  private readonly onData = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (this.state !== 'opening') {
      this.passOn(bytes);
      return;
    }
    let rest: Buffer = this.partial.length > 0 ? Buffer.concat([this.partial, bytes]) : bytes;
    for (let end = rest.indexOf(0x0a); end !== -1; end = rest.indexOf(0x0a)) {
      const line = rest.subarray(0, end + 1);
      rest = rest.subarray(end + 1);
      if (this.state === 'opening' && this.answer(line)) continue;
      this.waiting.push(line);
      this.handOver();
    }
    this.partial = rest;
    if (this.state !== 'opening' && rest.length > 0) {
      this.waiting.push(rest);
      this.partial = Buffer.alloc(0);
    }
  };

  /** Answers a line of the opening; false for anything the SDK must answer. */
  private answer(line: Buffer): boolean {
    const message = parseMessage(line);
    if (!message) return false;
    const { method, id, params } = message;
    if (method === 'initialize' && !this.initialize && isId(id) && isInitializeParams(params)) {
      this.initialize = message;
      this.send({
        jsonrpc: '2.0',
        id,
        result: {
          protocolVersion: agreedProtocolVersion(params.protocolVersion),
          capabilities: SERVER_CAPABILITIES,
          serverInfo: serverInfo(this.options.version),
        },
      });
      return true;
    }
    if (
      method === 'notifications/initialized' &&
      this.initialize &&
      !this.initialized &&
      !('id' in message) &&
      (params === undefined || isPlainObject(params))
    ) {
      this.initialized = message;
      return true;
    }
    if (method === 'tools/list' && this.initialize && isId(id) && isListParams(params)) {
      this.toolsListed = true;
      this.send({ jsonrpc: '2.0', id, result: { tools: listedTools(this.registry) } });
      this.loadSdkWhenQuiet();
      return true;
    }
    return false;
  }

  private loadSdkWhenQuiet(): void {
    const quietMs = this.options.loadSdkAfterQuietMs ?? 100;
    clearTimeout(this.quietTimer);
    if (Number.isFinite(quietMs))
      this.quietTimer = setTimeout(() => this.handOver(), quietMs).unref();
  }

  private send(message: Message): void {
    this.streams.output.write(`${JSON.stringify(message)}\n`);
  }

  private passOn(bytes: Buffer): void {
    if (this.sdkInput) this.sdkInput.write(bytes);
    else this.waiting.push(bytes);
  }

  private handOver(): void {
    if (this.state !== 'opening') return;
    this.state = 'handing over';
    clearTimeout(this.quietTimer);
    this.startSdk().catch((error: unknown) => {
      this.streams.input.off('data', this.onData);
      // The SDK is part of the install: failing to load it means a broken install.
      this.fail(
        new Error(
          `the MCP SDK could not be started (${error instanceof Error ? error.message : String(error)}); reinstall toolhost`,
        ),
      );
    });
  }

  private async startSdk(): Promise<void> {
    const [{ createToolhostMcpServer }, { StdioServerTransport }] = await Promise.all([
      import('./mcp-server.js'),
      import('./stdio-transport.js'),
    ]);
    const server = createToolhostMcpServer(this.config, this.registry, this.options);
    const sdkInput = new PassThrough();
    await server.connect(new StdioServerTransport(sdkInput, this.sdkOutput()));
    this.server = server;
    const replay = [this.initialize, this.initialized].filter((m) => m !== undefined);
    for (const message of replay) {
      const replayed = 'id' in message ? { ...message, id: REPLAYED_INITIALIZE_ID } : message;
      sdkInput.write(`${JSON.stringify(replayed)}\n`);
    }
    for (const bytes of this.waiting) sdkInput.write(bytes);
    this.waiting = [];
    this.sdkInput = sdkInput;
    this.state = 'handed over';
    // The server's own watcher speaks from here on (a change it also heard is told twice).
    this.stopWatchingTools();
    if (this.changedWhileLoading) server.sendToolListChanged().catch(() => undefined);
    if (this.inputEnded) await this.close();
  }

  /** The process's output, less the SDK's answer to the replayed `initialize`. */
  private sdkOutput(): Writable {
    const output = this.streams.output;
    let replayAnswered = this.initialize === undefined;
    return new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        if (!replayAnswered && answersReplay(chunk)) {
          replayAnswered = true;
          done();
          return;
        }
        if (output.write(chunk)) done();
        else output.once('drain', () => done());
      },
    });
  }

  private onEnd(): void {
    this.inputEnded = true;
    if (this.state === 'opening') {
      clearTimeout(this.quietTimer);
      this.stopWatchingTools();
      this.finish();
    } else if (this.state === 'handed over') void this.close();
    // While handing over, startSdk closes once the server is connected.
  }

  private async close(): Promise<void> {
    this.sdkInput?.end();
    await this.server?.close().catch(() => undefined);
    this.finish();
  }
}

function parseMessage(line: Buffer): Message | undefined {
  try {
    const message: unknown = JSON.parse(line.toString('utf8'));
    return isPlainObject(message) && message.jsonrpc === '2.0' ? message : undefined;
  } catch {
    return undefined;
  }
}

function answersReplay(chunk: Buffer | string): boolean {
  try {
    const message: unknown = JSON.parse(chunk.toString());
    return isPlainObject(message) && message.id === REPLAYED_INITIALIZE_ID;
  } catch {
    return false;
  }
}
