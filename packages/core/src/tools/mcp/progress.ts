/**
 * A call's progress notifications as live output: one line per notification, all of
 * them so far (front ends print what is new, as with a command's output). A front end
 * that passes progress on to its own MCP client (`toolhost mcp`) takes it as it came
 * instead, so `total` and the server's own numbers reach that client.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';

type ProgressSink = (progress: Progress) => void;

const forwarding = new AsyncLocalStorage<ProgressSink>();

/** Runs `work` with the progress of every MCP call it makes handed to `sink` unchanged. */
export function withProgressForwarding<T>(sink: ProgressSink, work: () => T): T {
  return forwarding.run(sink, work);
}

/** Live output stays below this size; the oldest lines go first. */
const MAX_LOG_CHARS = 16_000;

export function describeProgress(progress: Progress): string {
  const { progress: done, total, message } = progress;
  const amount =
    total !== undefined && total > 0
      ? `${done}/${total} (${Math.round((done / total) * 100)}%)`
      : String(done);
  return message ? `${amount} ${message}` : amount;
}

/** Collects progress lines and hands the whole log so far to `updateOutput`. */
export function progressReporter(
  label: string,
  updateOutput: ((output: string) => void) | undefined,
): ((progress: Progress) => void) | undefined {
  const forward = forwarding.getStore();
  if (forward) return forward;
  if (!updateOutput) return undefined;
  let log = '';
  return (progress) => {
    log += `${label} progress ${describeProgress(progress)}\n`;
    if (log.length > MAX_LOG_CHARS)
      log = log.slice(log.indexOf('\n', log.length - MAX_LOG_CHARS) + 1);
    updateOutput(log);
  };
}
