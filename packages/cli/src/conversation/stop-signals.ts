/**
 * Ctrl+C during a headless run: the first one cancels the run (the scheduler ends running
 * commands, whole process groups; the session file already holds every completed
 * exchange) and the run ends with 130; the second one exits at once. SIGTERM and SIGHUP
 * go through core's termination handlers (utils/termination.ts): the conversation's close
 * cancels the run the same way before the process exits with 128 + the signal.
 */
const SIGNALS: NodeJS.Signals[] = ['SIGINT'];

export function cancelOnStopSignals(
  cancel: (reason: string) => void,
  exitNow: (code: number) => void,
): () => void {
  let received = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    received++;
    if (received > 1) {
      exitNow(130);
      return;
    }
    cancel(`stopped by ${signal}`);
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  return () => {
    for (const signal of SIGNALS) process.off(signal, onSignal);
  };
}
