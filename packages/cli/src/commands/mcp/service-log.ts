/**
 * The structured log of `toolhost mcp --http --log-json`: one JSON object per line on
 * stderr for each session start and end and each refused request, for a log collector.
 * Without the flag nothing is written, so stdio clients and people see no noise.
 */
export type ServiceEvent =
  | { event: 'listening'; url: string }
  | { event: 'session_start'; session: string; sessions: number }
  | {
      event: 'session_end';
      session: string;
      reason: 'delete' | 'idle' | 'shutdown' | 'closed';
      durationMs: number;
      sessions: number;
    }
  | { event: 'refused'; status: number; reason: string; session?: string }
  | { event: 'shutdown'; signal: string; inFlight: number }
  | { event: 'stopped'; cancelled: number };

export type ServiceLog = (entry: ServiceEvent) => void;

export function serviceLog(stderr: NodeJS.WritableStream, enabled: boolean): ServiceLog {
  if (!enabled) return () => undefined;
  return (entry) => {
    const level = entry.event === 'refused' ? 'warn' : 'info';
    stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, ...entry })}\n`);
  };
}
