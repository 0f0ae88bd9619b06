/** Looks for live processes whose command line contains a marker (via ps), and waits for effects. */
import { execFileSync } from 'node:child_process';
import { isDeepStrictEqual } from 'node:util';

export function processesMatching(marker: string): string[] {
  const out = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter(
      (line) => line.includes(marker) && !/\sZ/.test(line.slice(0, 16)) && !line.includes('ps -eo'),
    );
}

/**
 * A number that makes a `sleep` command line unique to one test, among the suites of every
 * test run on the machine. All have the same number of digits, so no marker is the start of
 * another (`sleep 412.5` would also match, and killMatching end, `sleep 412.53`).
 */
export function uniqueSleep(): string {
  const fraction = String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0');
  return `${300 + Math.floor(Math.random() * 600)}.${fraction}1`;
}

/**
 * Polls until `check` holds. The deadline only bounds a wait for something that should
 * happen; tests assert on the returned value, never on how long it took.
 */
export async function waitUntil(
  check: () => boolean,
  timeoutMs = 5000,
  intervalMs = 50,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return check();
}

/** PIDs of live processes whose whole command line is exactly `args` (not one that mentions it). */
export function processesRunning(args: string): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return out.split('\n').flatMap((line) => {
    const match = /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    return match && match[3] === args && !match[2]!.startsWith('Z') ? [Number(match[1])] : [];
  });
}

/**
 * Kills (SIGKILL) every live process whose command line contains `marker`, again until none
 * is left, so a failed test cannot leave a loop behind that keeps starting new ones.
 */
export function killMatching(marker: string): void {
  for (let round = 0; round < 20; round++) {
    const lines = processesMatching(marker);
    if (lines.length === 0) return;
    for (const line of lines) {
      try {
        process.kill(Number(line.trim().split(/\s+/)[0]), 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

/**
 * Reads `read()` until it returns a value deeply equal to `expected` (a read that throws, a
 * file not written yet, counts as not yet), within a bound; returns the last value read, or
 * the last error, for the test to assert on. For effects that land after what the test saw
 * (a setting saved after the screen changed, a file a child process writes).
 */
export async function settledValue<T>(
  read: () => T,
  expected: unknown,
  timeoutMs = 10_000,
): Promise<T | Error> {
  let last: T | Error = new Error('never read');
  await waitUntil(() => {
    try {
      last = read();
      return isDeepStrictEqual(last, expected);
    } catch (error) {
      last = error as Error;
      return false;
    }
  }, timeoutMs);
  return last;
}
