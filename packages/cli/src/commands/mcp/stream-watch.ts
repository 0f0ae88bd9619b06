/**
 * Whether the clients of `toolhost mcp --http` still read their open event streams. A
 * stream stays open as long as its client wants it, and while it is open its session does
 * not expire; a client that froze (stopped, suspended, its machine gone) would hold its
 * session forever. The kernel keeps accepting a few hundred kilobytes for a frozen peer,
 * so writes alone show nothing for a long time: every interval, each session's GET stream
 * carries a ping the client must answer (every MCP client answers pings), and a stream
 * whose ping is still unanswered at the next tick is closed. Any open stream (a call's
 * answer too) whose writes have waited for the client to read for two ticks is closed as
 * well. A closed stream lets the session's idle clock run, so it expires as any idle
 * session does; a live client opens its stream again. The keep-alive comments themselves
 * are the SDK's (keepAliveMs); a write that fails closes its stream there and in Node.
 */
import type http from 'node:http';
import type { HttpSession, HttpSessions } from './http-sessions.js';
import type { ServiceLog } from './service-log.js';

interface StreamState {
  /** Ticks in a row at which the stream's writes waited for the client to read. */
  stalledTicks: number;
  /** A ping sent on this stream is not answered yet. */
  pinging: boolean;
}

/** Starts watching; the returned function stops it. */
export function watchStreams(
  sessions: HttpSessions,
  intervalMs: number,
  log: ServiceLog,
): () => void {
  const states = new WeakMap<http.ServerResponse, StreamState>();
  const close = (session: HttpSession, res: http.ServerResponse, reason: string) => {
    log({ event: 'stream_closed', session: session.transport.sessionId ?? '', reason });
    res.destroy();
  };
  const tick = () => {
    for (const session of sessions.all()) {
      for (const res of [...session.responses]) {
        if (!res.headersSent || res.writableEnded || res.destroyed) continue;
        let state = states.get(res);
        if (!state) {
          state = { stalledTicks: 0, pinging: false };
          states.set(res, state);
        }
        state.stalledTicks = res.writableNeedDrain ? state.stalledTicks + 1 : 0;
        if (state.stalledTicks >= 2) {
          close(session, res, 'unread');
          continue;
        }
        // Pings go on the session's own stream (GET); a call's stream ends with its answer.
        if (res.req.method !== 'GET' || res.statusCode !== 200) continue;
        if (state.pinging) {
          close(session, res, 'ping unanswered');
          continue;
        }
        state.pinging = true;
        const pinged = state;
        session.server.ping().then(
          () => {
            pinged.pinging = false;
          },
          () => undefined,
        );
      }
    }
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
