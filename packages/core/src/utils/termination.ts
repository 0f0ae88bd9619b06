/**
 * Stopping toolhost on a signal without leaving processes behind. Whatever entry point
 * runs tools (`toolhost call`, `toolhost mcp`, the agent) installs these handlers once;
 * sessions register their own cleanup (MCP servers, background commands). On the first
 * signal every cleanup runs and every running process group is ended (TERM, then KILL),
 * then the process exits with 128 + the signal number. A second signal does not wait:
 * the groups get KILL and the process exits at once.
 */
import os from 'node:os';
import { endRunningProcessGroups, killRunningProcessGroups } from '../shell/process-group.js';

type Cleanup = () => Promise<void> | void;

const cleanups = new Set<Cleanup>();
let stoppingWith: number | undefined;

/**
 * The exit code toolhost is stopping with after a signal, else undefined. An entry point
 * that finishes its work meanwhile leaves the exit to the signal handler, which exits once
 * everything has been ended.
 */
export function stoppingBySignal(): number | undefined {
  return stoppingWith;
}

/** Runs `cleanup` when toolhost is stopped by a signal; the returned function removes it. */
export function addTerminationCleanup(cleanup: Cleanup): () => void {
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

export interface TerminationOptions {
  /** Default SIGTERM and SIGHUP; SIGINT where the command has no Ctrl+C handling of its own. */
  signals?: NodeJS.Signals[];
  /** How long cleanups may take before the process exits anyway. */
  cleanupTimeoutMs?: number;
  exit?: (code: number) => void;
}

/** Installs the handlers; the returned function removes them. */
export function exitCleanlyOnSignals(options: TerminationOptions = {}): () => void {
  const signals = options.signals ?? ['SIGTERM', 'SIGHUP'];
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    const code = 128 + (os.constants.signals[signal] ?? 15);
    if (stopping) {
      killRunningProcessGroups();
      exit(code);
      return;
    }
    stopping = true;
    stoppingWith = code;
    void stopEverything(options.cleanupTimeoutMs ?? 5000).then(() => exit(code));
  };
  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
}

async function stopEverything(timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  const work = Promise.allSettled([
    endRunningProcessGroups(),
    ...[...cleanups].map(async (cleanup) => cleanup()),
  ]);
  await Promise.race([work, timeUp]);
  clearTimeout(timer);
  // Whatever a slow cleanup left running does not outlive toolhost.
  killRunningProcessGroups();
}
