/**
 * The live client sessions of `toolhost mcp --http`, each with its transport and its own
 * MCP server (approvals, registry listeners, background processes). A session ends on
 * DELETE, after it has been idle too long, when the service stops, or when a new client
 * needs its place; ending it closes the server, which aborts its running calls and frees
 * everything it held. The table holds at most a set number of sessions (optionally, at
 * most so many per client address): at the limit the least recently used idle session
 * makes room, one with a request being answered never does, and only when every session
 * is busy is a new client refused. Whether the peers behind open streams still read them
 * is stream-watch.ts's concern.
 */
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { createToolhostMcpServer, StreamableHTTPServerTransport } from '@toolhost/core/mcp';
import type { EndReason, ServiceLog } from './service-log.js';

type Server = ReturnType<typeof createToolhostMcpServer>;

export interface HttpSession {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: Server;
  /** The client's address, for the per-client limit. */
  readonly address: string;
  readonly startedAt: number;
  lastSeen: number;
  /** HTTP requests of this session still open (a call being answered, a GET stream). */
  openRequests: number;
  /** POST and DELETE requests still open: while there are any, the session is busy. */
  openPosts: number;
  /** The open responses of this session: a GET stream, the event streams of calls. */
  readonly responses: Set<http.ServerResponse>;
  /** Calls running, by JSON-RPC id. */
  readonly inFlight: Set<string | number>;
}

export interface SessionLimits {
  idleTimeoutMs: number;
  maxSessions: number;
  /** Sessions one client address may hold at most; 0 for no limit of its own. */
  maxSessionsPerClient: number;
  /** Stream keep-alive interval (see stream-watch.ts). */
  keepAliveMs: number;
}

/** Why a new session has no place: every session (or every one of its address) is busy. */
export type NoRoom = 'service full' | 'client full';

export class HttpSessions {
  private readonly live = new Map<string, HttpSession>();
  /** Sessions being initialised, by address: they hold a place, so a burst cannot pass the cap. */
  private readonly pending = new Map<string, number>();
  private pendingCount = 0;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly limits: SessionLimits,
    private readonly newServer: () => Server,
    private readonly log: ServiceLog,
    /** The SDK's transport class (loadStreamableHttpTransport: its HTTP stack loads with --http only). */
    private readonly Transport: typeof StreamableHTTPServerTransport,
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

  /**
   * Makes a place for a new session from `address`: at a limit, the least recently used
   * idle session (of that address, for its own limit) is ended. Undefined when there is a
   * place; otherwise which limit every session under it is too busy to make room under.
   */
  makeRoom(address: string): NoRoom | undefined {
    const { maxSessions, maxSessionsPerClient: perClient } = this.limits;
    if (perClient > 0) {
      const mine = (session: HttpSession) => session.address === address;
      const held = (this.pending.get(address) ?? 0) + [...this.live.values()].filter(mine).length;
      if (held >= perClient && !this.evictOne(mine, `--max-sessions-per-client ${perClient}`))
        return 'client full';
    }
    if (this.live.size + this.pendingCount < maxSessions) return undefined;
    return this.evictOne(() => true, `--max-sessions ${maxSessions}`) ? undefined : 'service full';
  }

  /** A transport and server for an initialize request; the session counts once it has an id. */
  async open(address: string): Promise<HttpSession> {
    this.pending.set(address, (this.pending.get(address) ?? 0) + 1);
    this.pendingCount++;
    let counted = true;
    const release = () => {
      if (!counted) return;
      counted = false;
      this.pendingCount--;
      const left = (this.pending.get(address) ?? 1) - 1;
      if (left > 0) this.pending.set(address, left);
      else this.pending.delete(address);
    };
    const server = this.newServer();
    let session: HttpSession | undefined;
    const transport: StreamableHTTPServerTransport = new this.Transport({
      sessionIdGenerator: () => randomUUID(),
      // Comments on open event streams keep routers from closing quiet ones and make a
      // write happen, which fails once a peer is gone.
      keepAliveMs: this.limits.keepAliveMs,
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
      address,
      startedAt: Date.now(),
      lastSeen: Date.now(),
      openRequests: 0,
      openPosts: 0,
      responses: new Set(),
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
  track(
    session: HttpSession,
    req: http.IncomingMessage,
    res: http.ServerResponse,
    ids: (string | number)[],
    /** Whether the request is the client's own use (false for answers to the server). */
    use = true,
  ): () => void {
    const busy = req.method !== 'GET';
    session.openRequests++;
    if (busy) session.openPosts++;
    session.responses.add(res);
    if (use) session.lastSeen = Date.now();
    for (const id of ids) session.inFlight.add(id);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      session.openRequests--;
      if (busy) session.openPosts--;
      session.responses.delete(res);
      if (use) session.lastSeen = Date.now();
      for (const id of ids) session.inFlight.delete(id);
    };
  }

  /** The live sessions, for the stream watch. */
  all(): IterableIterator<HttpSession> {
    return this.live.values();
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

  async end(
    session: HttpSession,
    reason: EndReason,
    eviction?: { idleMs: number; limit: string },
  ): Promise<void> {
    this.forget(session, reason, eviction);
    // Closing the server closes the transport and aborts every call still running.
    await session.server.close().catch(() => undefined);
  }

  async endAll(reason: EndReason): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.live.values()].map((session) => this.end(session, reason)));
  }

  /**
   * Ends the session that has waited longest since its last request among those `which`
   * picks and none of whose requests is being answered; sessions whose client holds no
   * stream open go first (a client that vanished without DELETE holds none). False when
   * every such session is busy.
   */
  private evictOne(which: (session: HttpSession) => boolean, limit: string): boolean {
    let victim: HttpSession | undefined;
    for (const session of this.live.values())
      if (
        session.openPosts === 0 &&
        which(session) &&
        (!victim || usedLessRecently(session, victim))
      )
        victim = session;
    if (!victim) return false;
    void this.end(victim, 'evicted', { idleMs: Date.now() - victim.lastSeen, limit });
    return true;
  }

  private forget(
    session: HttpSession,
    reason: EndReason,
    eviction?: { idleMs: number; limit: string },
  ): void {
    const id = session.transport.sessionId;
    if (id === undefined || this.live.get(id) !== session) return;
    this.live.delete(id);
    this.log({
      event: 'session_end',
      session: id,
      reason,
      durationMs: Date.now() - session.startedAt,
      sessions: this.live.size,
      ...eviction,
    });
  }

  private expireIdle(): void {
    const cutoff = Date.now() - this.limits.idleTimeoutMs;
    for (const session of this.live.values())
      if (session.openRequests === 0 && session.lastSeen < cutoff) void this.end(session, 'idle');
  }
}

/** Whether `a` goes before `b` when a place is needed: no open stream first, then the older. */
function usedLessRecently(a: HttpSession, b: HttpSession): boolean {
  // Only idle sessions are compared: an open request of theirs is a stream.
  const aStreams = a.openRequests > 0;
  const bStreams = b.openRequests > 0;
  if (aStreams !== bStreams) return bStreams;
  return a.lastSeen < b.lastSeen;
}
