/**
 * Runs one shell command: `bash -c` (or `sh -c` where bash is missing) in its own process
 * group, standard input closed, with a timeout and an AbortSignal that both end the whole
 * group. Output from stdout and stderr is kept in the order it came.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { decodeText } from '../utils/file-content.js';
import { endProcessGroup, processGroupMembers, trackProcessGroup } from '../utils/process-group.js';

export interface ShellRunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal: AbortSignal;
  /** Live output so far (ANSI removed), at most once per `updateIntervalMs`. */
  onOutput?: (output: string) => void;
  updateIntervalMs?: number;
  /** Most bytes kept in memory; beyond it the middle is dropped (the head and tail stay). */
  maxBytes?: number;
  /** The shell to run with (default: bash, else sh). */
  shell?: ShellProgram;
}

export interface ShellRunResult {
  output: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  pid: number | undefined;
  /** Processes the command left running in its group after it exited. */
  leftBehind: number[];
  /** Set when the output contained binary data: its size, and the text before it. */
  binaryBytes?: number;
  /** The shell could not be started at all. */
  spawnError?: string;
  droppedBytes: number;
}

const ANSI =
  /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]|\r(?!\n)/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, (match) => (match === '\r' ? '\n' : ''));
}

export const BASH_LOCATIONS = ['/bin/bash', '/usr/bin/bash', '/usr/local/bin/bash'];

export interface ShellProgram {
  file: string;
  args: (command: string) => string[];
  /** Called once the process has ended or could not start (the sandbox gives back mounts). */
  release?: () => void;
  /** Bytes the program reads on descriptor 3 as it starts (bwrap's socket filter). */
  fd3?: Buffer;
}

/** The standard streams for `shell`, and descriptor 3 as a pipe when it reads one. */
export function shellStdio(
  shell: ShellProgram,
  stdio: ['ignore', 'pipe' | number, 'pipe' | number],
): ('ignore' | 'pipe' | number)[] {
  return shell.fd3 ? [...stdio, 'pipe'] : stdio;
}

/** Writes what `shell` reads on descriptor 3 into the started child's pipe, and closes it. */
export function feedFd3(shell: ShellProgram, child: ChildProcess): void {
  if (!shell.fd3) return;
  const pipe = child.stdio[3] as Writable | null | undefined;
  // A launcher that failed before reading it: its error is reported through its exit.
  pipe?.on('error', () => {});
  pipe?.end(shell.fd3);
}

/** bash where it is installed, else the POSIX sh. */
export function shellProgram(bashLocations: readonly string[] = BASH_LOCATIONS): ShellProgram {
  const bash = bashLocations.find((candidate) => existsSync(candidate));
  if (bash) return { file: bash, args: (command) => ['-c', command] };
  return { file: '/bin/sh', args: (command) => ['-c', command] };
}

export async function runShellCommand(
  command: string,
  options: ShellRunOptions,
): Promise<ShellRunResult> {
  const shell = options.shell ?? shellProgram();
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const chunks: Buffer[] = [];
  let kept = 0;
  let dropped = 0;
  let binaryBytes: number | undefined;
  const live = new StringDecoder('utf8');
  let liveText = '';
  let lastUpdate = 0;
  // Output that came within the interval is shown when it ends: a command that then goes
  // quiet (a sleep, a prompt) must not leave its last lines unseen until it exits.
  let pendingUpdate: NodeJS.Timeout | undefined;
  const sendLive = () => {
    pendingUpdate = undefined;
    lastUpdate = Date.now();
    options.onOutput?.(stripAnsi(liveText));
  };

  return new Promise<ShellRunResult>((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(shell.file, shell.args(command), {
        cwd: options.cwd,
        env: options.env,
        stdio: shellStdio(shell, ['ignore', 'pipe', 'pipe']),
        detached: true, // its own process group, so the whole tree can be ended
      });
      feedFd3(shell, child);
    } catch (error) {
      shell.release?.();
      resolve(emptyResult({ spawnError: (error as Error).message }));
      return;
    }
    const pgid = child.pid;
    const untrack = pgid ? trackProcessGroup(pgid) : () => undefined;
    let timedOut = false;
    let aborted = false;
    let ending: Promise<void> | undefined;
    const endGroup = () => {
      if (pgid && !ending) ending = endProcessGroup(pgid);
      return ending;
    };
    const timer = setTimeout(() => {
      timedOut = true;
      void endGroup();
    }, options.timeoutMs);
    const onAbort = () => {
      aborted = true;
      void endGroup();
    };
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });

    const onData = (chunk: Buffer) => {
      if (binaryBytes !== undefined) {
        binaryBytes += chunk.length;
        return;
      }
      if (chunk.includes(0)) {
        // Binary data: stop collecting, keep counting.
        binaryBytes = chunk.length;
        return;
      }
      // Once output overflows, everything after goes to the tail, however small, to keep order.
      if (dropped > 0 || kept + chunk.length > maxBytes) {
        // Over the memory budget: keep a rolling tail, count what falls out between.
        dropped += chunk.length;
        tail.push(chunk);
        tailBytes += chunk.length;
        while (tailBytes > maxBytes / 4 && tail.length > 1) tailBytes -= tail.shift()!.length;
      } else {
        chunks.push(chunk);
        kept += chunk.length;
      }
      if (options.onOutput) {
        liveText += live.write(chunk);
        const wait = lastUpdate + (options.updateIntervalMs ?? 1000) - Date.now();
        if (wait <= 0) {
          clearTimeout(pendingUpdate);
          sendLive();
        } else pendingUpdate ??= setTimeout(sendLive, wait);
      }
    };
    const tail: Buffer[] = [];
    let tailBytes = 0;
    let lastData = Date.now();
    child.stdout?.on('data', (chunk: Buffer) => {
      lastData = Date.now();
      onData(chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      lastData = Date.now();
      onData(chunk);
    });
    // The output is complete when both pipes end. A process left running in the group may
    // hold them open; only then does output that has gone quiet after the exit count as done.
    const ended = (stream: NodeJS.ReadableStream | null) =>
      new Promise<void>((done) => (stream ? stream.once('end', done).once('error', done) : done()));
    const bothEnded = Promise.all([ended(child.stdout), ended(child.stderr)]).then(() => undefined);
    let poll: NodeJS.Timeout | undefined;
    const quietFor = (ms: number) =>
      new Promise<void>((done) => {
        poll = setInterval(() => {
          if (Date.now() - lastData > ms) done();
        }, 50);
      });
    const drain = async (groupStillRunning: boolean) => {
      try {
        // With the group empty only a process that left it (setsid) can hold the pipes, so
        // wait long for the end; with members left, they are expected to keep them open.
        await Promise.race([bothEnded, quietFor(groupStillRunning ? 300 : 3000)]);
      } finally {
        clearInterval(poll);
      }
    };

    let spawnError: string | undefined;
    child.on('error', (error) => {
      spawnError = error.message;
      if (!pgid) {
        // It never started, so no 'exit' will come.
        shell.release?.();
        clearInterval(poll);
        clearTimeout(timer);
        options.signal.removeEventListener('abort', onAbort);
        resolve(emptyResult({ spawnError: error.message }));
      }
    });
    // 'exit', not 'close': a background process that inherited the pipes would hold 'close' back.
    child.on('exit', async (code, signal) => {
      shell.release?.();
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      if (ending) await ending;
      const leftBehind = pgid && !timedOut && !aborted ? await lingeringMembers(pgid) : [];
      // Members left running stay recorded until the session ends them.
      if (leftBehind.length === 0) untrack();
      await drain(leftBehind.length > 0);
      child.stdout?.destroy();
      child.stderr?.destroy();
      // The result shows the whole output: no live update comes after it.
      clearTimeout(pendingUpdate);
      const head = Buffer.concat(chunks);
      const tailText = dropped > 0 ? Buffer.concat(tail) : Buffer.alloc(0);
      let output = stripAnsi(decodeText(head).text);
      if (dropped > 0) {
        const tailDecoded = stripAnsi(decodeText(tailText).text);
        output += `\n[... ${dropped - tailText.length} bytes of output not kept ...]\n${tailDecoded}`;
      }
      resolve({
        output,
        exitCode: code,
        signal,
        timedOut,
        aborted,
        pid: pgid,
        leftBehind,
        droppedBytes: dropped,
        ...(binaryBytes !== undefined ? { binaryBytes } : {}),
        ...(spawnError ? { spawnError } : {}),
      });
    });
  });
}

function emptyResult(extra: Partial<ShellRunResult>): ShellRunResult {
  return {
    output: '',
    exitCode: null,
    signal: null,
    timedOut: false,
    aborted: false,
    pid: undefined,
    leftBehind: [],
    droppedBytes: 0,
    ...extra,
  };
}

/**
 * Members of the group still running once it has had a moment to settle: when the sandbox's
 * bwrap exits, the processes of its PID namespace are torn down a moment later, and a
 * foreground child caught mid-exit is not a background process.
 */
async function lingeringMembers(pgid: number): Promise<number[]> {
  let members = processGroupMembers(pgid);
  for (let attempt = 0; members.length > 0 && attempt < 10; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    members = processGroupMembers(pgid);
  }
  return members;
}
