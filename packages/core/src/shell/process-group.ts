/** Process groups: finding their members and ending all of them. */
import { readdirSync, readFileSync } from 'node:fs';

/** PIDs of the live processes in a process group (Linux /proc). */
export function processGroupMembers(pgid: number): number[] {
  const members: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return isGroupAlive(pgid) ? [pgid] : [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces) start after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const state = fields[0];
      const group = Number(fields[2]);
      if (group === pgid && state !== 'Z') members.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return members.sort((a, b) => a - b);
}

export function isGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

/** TERM to the whole group, then KILL to whatever is left after the grace period. */
export async function endProcessGroup(pgid: number, graceMs = 2000): Promise<void> {
  signalGroup(pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (processGroupMembers(pgid).length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  signalGroup(pgid, 'SIGKILL');
  // Wait briefly for the kernel to reap, so callers can rely on the group being gone.
  const killDeadline = Date.now() + 1000;
  while (Date.now() < killDeadline && processGroupMembers(pgid).length > 0) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
