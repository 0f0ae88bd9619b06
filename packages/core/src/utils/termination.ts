/**
 * Stopping toolhost on a signal without leaving processes behind. Whatever entry point
 * runs tools (`toolhost call`, `toolhost mcp`, the agent) installs these handlers once;
 * sessions register their own cleanup (MCP servers, background commands). On the first
 * signal every cleanup runs and every running process group is ended (TERM, then KILL),
 * then the process exits with 128 + the signal number. A second signal does not wait:
 * the groups get KILL and the process exits at once.
 */
import os from 'node:os';
import { endRunningProcessGroups, killRunningProcessGroups } from './process-group.js';

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

let gracefulStop: ((signal: NodeJS.Signals) => void) | undefined;

/**
 * A service that stops gracefully (`toolhost mcp --http`: finish or cancel calls, then
 * exit 0) takes the first stop signal itself; a second signal stops toolhost as usual.
 * The returned function gives the signals back.
 */
export function stopGracefullyOnSignal(stop: (signal: NodeJS.Signals) => void): () => void {
  gracefulStop = stop;
  return () => {
    if (gracefulStop === stop) gracefulStop = undefined;
  };
}

/** Installs the handlers; the returned function removes them. */
export function exitCleanlyOnSignals(options: TerminationOptions = {}): () => void {
  const signals = options.signals ?? ['SIGTERM', 'SIGHUP'];
  const onSignal = (signal: NodeJS.Signals) => {
    const graceful = stopping ? undefined : gracefulStop;
    gracefulStop = undefined;
    if (graceful) graceful(signal);
    else stopWith(128 + (os.constants.signals[signal] ?? 15), options);
  };
  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
}

/**
 * A reader that stops reading (`toolhost call ... | head -2`) closes toolhost's output.
 * Node ignores SIGPIPE, so the next write fails with EPIPE; toolhost then stops as a
 * program killed by SIGPIPE would, quietly and with its exit code (141), after the same
 * cleanup as a signal. Any other failure of an output stream is a real error and is
 * reported as one.
 */
export function exitCleanlyOnClosedOutput(
  streams: NodeJS.WritableStream[],
  options: TerminationOptions = {},
): () => void {
  const onError = (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') {
      // Every later write fails the same way; only a signal escalates a stop under way.
      if (stoppingWith === undefined) stopWith(128 + os.constants.signals.SIGPIPE, options);
      return;
    }
    throw error;
  };
  for (const stream of streams) stream.on('error', onError);
  return () => {
    for (const stream of streams) stream.off('error', onError);
  };
}

let stopping = false;

/** The first stop runs every cleanup, then exits; a second one exits at once. */
function stopWith(code: number, options: TerminationOptions): void {
  const exit = options.exit ?? ((exitCode: number) => process.exit(exitCode));
  if (stopping) {
    killRunningProcessGroups();
    exit(code);
    return;
  }
  stopping = true;
  stoppingWith = code;
  void stopEverything(options.cleanupTimeoutMs ?? 5000).then(() => exit(code));
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
