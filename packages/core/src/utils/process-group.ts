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

/**
 * Process groups of commands running now (foreground shell commands, discovery and call
 * commands, background commands), so that toolhost can end all of them when it is told to
 * stop (see utils/termination.ts). A group is removed once it has been ended or is empty.
 */
const runningGroups = new Set<number>();

/** Records a running process group; the returned function forgets it again. */
export function trackProcessGroup(pgid: number): () => void {
  runningGroups.add(pgid);
  return () => runningGroups.delete(pgid);
}

export function untrackProcessGroup(pgid: number): void {
  runningGroups.delete(pgid);
}

/** The recorded groups that still have members (empty ones are forgotten). */
export function runningProcessGroups(): number[] {
  for (const pgid of runningGroups) {
    if (processGroupMembers(pgid).length === 0) runningGroups.delete(pgid);
  }
  return [...runningGroups];
}

/** Ends every recorded process group (TERM, then KILL after the grace period). */
export async function endRunningProcessGroups(graceMs = 2000): Promise<void> {
  await Promise.all(
    runningProcessGroups().map(async (pgid) => {
      await endProcessGroup(pgid, graceMs);
      runningGroups.delete(pgid);
    }),
  );
}

/** KILL to every recorded group at once, for when there is no time to wait. */
export function killRunningProcessGroups(): void {
  for (const pgid of runningGroups) signalGroup(pgid, 'SIGKILL');
  runningGroups.clear();
}
