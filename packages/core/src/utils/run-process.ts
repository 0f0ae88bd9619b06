/**
 * Runs a program without a shell (arguments as an array), with input on stdin, a time
 * limit that ends its whole process group, and a cap on the output kept.
 */
import { spawn } from 'node:child_process';
import { endProcessGroup, processGroupMembers, trackProcessGroup } from './process-group.js';

export interface ProcessResult {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** True when the output went over the cap and the process was ended. */
  overflowed: boolean;
  spawnError?: string;
}

export function runProcess(
  command: string,
  args: string[],
  options: {
    cwd: string;
    input?: string;
    timeoutMs: number;
    maxBytes: number;
    env?: NodeJS.ProcessEnv;
    signal?: AbortSignal;
  },
): Promise<ProcessResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const untrack = child.pid ? trackProcessGroup(child.pid) : () => undefined;
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let timedOut = false;
    let overflowed = false;
    let spawnError: string | undefined;
    const end = () => {
      if (child.pid) void endProcessGroup(child.pid, 1000);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      end();
    }, options.timeoutMs);
    const onAbort = () => end();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      if (overflowed) return;
      size += chunk.length;
      if (size > options.maxBytes) {
        overflowed = true;
        end();
        return;
      }
      into.push(chunk);
    };
    child.stdout.on('data', collect(out));
    child.stderr.on('data', collect(err));
    child.stdin.on('error', () => undefined); // a program that ignores its input closes the pipe early
    child.stdin.end(options.input ?? '');
    child.on('error', (error) => {
      spawnError = error.message;
    });
    child.on('close', (exitCode, signal) => {
      if (!child.pid || processGroupMembers(child.pid).length === 0) untrack();
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        exitCode,
        signal,
        timedOut,
        overflowed,
        ...(spawnError ? { spawnError } : {}),
      });
    });
  });
}
