/**
 * The live client sessions of `toolhost mcp --http`, each with its transport and its own
 * MCP server (approvals, registry listeners, background processes). A session ends on
 * DELETE, after it has been idle too long, or when the service stops; ending it closes
 * the server, which aborts its running calls and frees everything it held. The table
 * holds at most a set number of sessions and refuses new ones beyond that.
 */
import { randomUUID } from 'node:crypto';
import type { createToolhostMcpServer } from '@toolhost/core/mcp';
import { StreamableHTTPServerTransport } from '@toolhost/core/mcp-http';
import type { ServiceLog } from './service-log.js';

type Server = ReturnType<typeof createToolhostMcpServer>;

export interface HttpSession {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: Server;
  readonly startedAt: number;
  lastSeen: number;
  /** HTTP requests of this session still open (a call being answered, a GET stream). */
  openRequests: number;
  /** Calls running, by JSON-RPC id. */
  readonly inFlight: Set<string | number>;
}

export interface SessionLimits {
  idleTimeoutMs: number;
  maxSessions: number;
}

type EndReason = 'delete' | 'idle' | 'shutdown' | 'closed';

export class HttpSessions {
  private readonly live = new Map<string, HttpSession>();
  /** Sessions being initialised: they hold a place, so a burst cannot pass the cap. */
  private pending = 0;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly limits: SessionLimits,
    private readonly newServer: () => Server,
    private readonly log: ServiceLog,
  ) {
    const every = Math.max(50, Math.min(limits.idleTimeoutMs / 2, 30_000));
    this.sweeper = setInterval(() => this.expireIdle(), every);
    this.sweeper.unref();
  }

  get size(): number {
    return this.live.size;
  }

  get(id: string): HttpSession | undefined {
    return this.live.get(id);
  }

  hasRoom(): boolean {
    return this.live.size + this.pending < this.limits.maxSessions;
  }

  /** A transport and server for an initialize request; the session counts once it has an id. */
  async open(): Promise<HttpSession> {
    this.pending++;
    let counted = true;
    const release = () => {
      if (counted) this.pending--;
      counted = false;
    };
    const server = this.newServer();
    let session: HttpSession | undefined;
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        release();
        if (!session) return;
        this.live.set(id, session);
        this.log({ event: 'session_start', session: id, sessions: this.live.size });
      },
    });
    session = {
      transport,
      server,
      startedAt: Date.now(),
      lastSeen: Date.now(),
      openRequests: 0,
      inFlight: new Set(),
    };
    const opened = session;
    // The SDK closes the transport itself after a DELETE.
    transport.onclose = () => {
      release();
      this.forget(opened, 'delete');
    };
    await server.connect(transport);
    return session;
  }

  /** Marks the start of a request; the returned function marks its end. */
  track(session: HttpSession, ids: (string | number)[]): () => void {
    session.openRequests++;
    session.lastSeen = Date.now();
    for (const id of ids) session.inFlight.add(id);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      session.openRequests--;
      session.lastSeen = Date.now();
      for (const id of ids) session.inFlight.delete(id);
    };
  }

  /** Aborts calls as `notifications/cancelled` would: their signals fire, their processes end. */
  cancel(session: HttpSession, ids: Iterable<string | number>, reason: string): void {
    for (const requestId of [...ids])
      session.transport.onmessage?.({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId, reason },
      });
  }

  inFlightCount(): number {
    let count = 0;
    for (const session of this.live.values()) count += session.inFlight.size;
    return count;
  }

  async end(session: HttpSession, reason: EndReason): Promise<void> {
    this.forget(session, reason);
    // Closing the server closes the transport and aborts every call still running.
    await session.server.close().catch(() => undefined);
  }

  async endAll(reason: EndReason): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.live.values()].map((session) => this.end(session, reason)));
  }

  private forget(session: HttpSession, reason: EndReason): void {
    const id = session.transport.sessionId;
    if (id === undefined || this.live.get(id) !== session) return;
    this.live.delete(id);
    this.log({
      event: 'session_end',
      session: id,
      reason,
      durationMs: Date.now() - session.startedAt,
      sessions: this.live.size,
    });
  }

  private expireIdle(): void {
    const cutoff = Date.now() - this.limits.idleTimeoutMs;
    for (const session of this.live.values())
      if (session.openRequests === 0 && session.lastSeen < cutoff) void this.end(session, 'idle');
  }
}
