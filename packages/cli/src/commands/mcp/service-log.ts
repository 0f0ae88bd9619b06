/**
 * The structured log of `toolhost mcp --http --log-json`: one JSON object per line on
 * stderr for each session start and end, each refused request and each stream closed for
 * an unresponsive client, for a log collector. Without the flag only what a person must
 * act on is written, as one line: a session ended to make room (the limits are too low
 * for the clients, or clients leave without ending their sessions).
 */
/** Why a session ended: its client's DELETE, idle expiry, the service's stop, or a new client needed its place. */
export type EndReason = 'delete' | 'idle' | 'shutdown' | 'closed' | 'evicted';

export type ServiceEvent =
  | { event: 'listening'; url: string }
  | { event: 'session_start'; session: string; sessions: number }
  | {
      event: 'session_end';
      session: string;
      reason: EndReason;
      durationMs: number;
      sessions: number;
      /** For an eviction: how long the session had been idle, and the limit it made room under. */
      idleMs?: number;
      limit?: string;
    }
  | { event: 'stream_closed'; session: string; reason: string }
  | { event: 'refused'; status: number; reason: string; session?: string }
  | { event: 'shutdown'; signal: string; inFlight: number }
  | { event: 'stopped'; cancelled: number };

export type ServiceLog = (entry: ServiceEvent) => void;

export function serviceLog(stderr: NodeJS.WritableStream, enabled: boolean): ServiceLog {
  if (!enabled)
    return (entry) => {
      if (entry.event === 'session_end' && entry.reason === 'evicted')
        stderr.write(
          `toolhost mcp: ended session ${entry.session} (idle ${Math.round((entry.idleMs ?? 0) / 1000)} s, the least recently used) to make room for a new client under ${entry.limit}; raise the limit if your clients need more sessions at once.\n`,
        );
    };
  return (entry) => {
    const evicted = entry.event === 'session_end' && entry.reason === 'evicted';
    const level = entry.event === 'refused' || evicted ? 'warn' : 'info';
    stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, ...entry })}\n`);
  };
}
