/**
 * Ctrl+C, SIGTERM and SIGHUP during a headless run: the first one cancels the run (the
 * scheduler ends running commands, whole process groups, and the session file already
 * holds every completed exchange), the second one exits at once.
 */
const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export function cancelOnStopSignals(
  controller: AbortController,
  exitNow: (code: number) => void,
): () => void {
  let received = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    received++;
    if (received > 1) {
      exitNow(130);
      return;
    }
    controller.abort(new Error(`stopped by ${signal}`));
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  return () => {
    for (const signal of SIGNALS) process.off(signal, onSignal);
  };
}
