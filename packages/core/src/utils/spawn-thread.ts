/**
 * Child processes started by a small helper process, for a process that serves many
 * callers at once (`toolhost mcp --http`). Node's spawn blocks its thread until the child
 * has called exec: the fork, then however long the child waits for a core. On a busy
 * machine that was 7-30 ms per search, during which a service answered nobody (a third to
 * a half of its time under load went there). Started elsewhere, only the helper waits. The
 * helper is a process, not a worker thread, because a fork copies the page tables of the
 * process that forks: from the service (140 MB) it cost about 1 ms of CPU more per search
 * than from a helper that loads nothing (50 MB). Output comes back in chunks with flow
 * control (at most a few chunks unread), so a search whose output is huge holds no more
 * memory than a direct one. Off unless turned on: a one-shot command runs one child and
 * would only pay the helper's start. (The names say thread: it was one first.)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';

/** Batches the thread sends before it waits for the reader: bounds the memory in between. */
const BATCHES_IN_FLIGHT = 4;
/** Output gathered into one message at most (ripgrep writes a little per file). */
const BATCH_BYTES = 256 * 1024;
/** How long output waits for more before it is sent anyway (a child's end sends it at once). */
const BATCH_MS = 10;

// CommonJS run by the helper: spawns, forwards output in batches (what arrived within
// BATCH_MS, up to BATCH_BYTES; what is left goes with the child's end, so a short search
// is one message: each wakes the service's thread), pauses while the reader is behind.
const THREAD_SOURCE = `
process.title = 'toolhost spawn helper';
const { spawn } = require('node:child_process');
const children = new Map();
const post = (message) => process.send(message);
// The service has ended: so does the helper (its children end on their next write).
process.on('disconnect', () => process.exit(0));
// One piece per message, however many chunks it gathers.
function joined(parts, size) {
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}
function take(own) {
  const chunk = joined(own.parts, own.size);
  own.parts = [];
  own.size = 0;
  return chunk;
}
function flush(id, own) {
  clearTimeout(own.timer);
  own.timer = undefined;
  if (own.size === 0) return;
  const chunk = take(own);
  // Only the batch after which the thread waits asks for an answer: one message per batch
  // instead of two.
  const paused = ++own.unread >= ${BATCHES_IN_FLIGHT};
  if (paused) own.child.stdout.pause();
  post({ id, type: 'stdout', chunk, paused });
}
process.on('message', (message) => {
  const { id } = message;
  const own = children.get(id);
  if (message.type === 'kill') return void own?.child.kill(message.signal);
  if (message.type === 'ack') {
    // Messages arrive in order: every batch before the one that paused has been read.
    if (own) {
      own.unread = 0;
      own.child.stdout.resume();
    }
    return;
  }
  let child;
  try {
    child = spawn(message.command, message.args, { cwd: message.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    post({ id, type: 'error', message: error.message, code: error.code });
    return void post({ id, type: 'close', code: null, signal: null });
  }
  const entry = { child, unread: 0, parts: [], size: 0, timer: undefined };
  children.set(id, entry);
  child.stdout.on('data', (chunk) => {
    entry.parts.push(chunk);
    entry.size += chunk.length;
    if (entry.size >= ${BATCH_BYTES}) flush(id, entry);
    else entry.timer ??= setTimeout(() => flush(id, entry), ${BATCH_MS});
  });
  child.stderr.on('data', (part) => {
    const chunk = joined([part], part.length);
    post({ id, type: 'stderr', chunk });
  });
  child.on('error', (error) => post({ id, type: 'error', message: error.message, code: error.code }));
  child.on('close', (code, signal) => {
    clearTimeout(entry.timer);
    children.delete(id);
    const chunk = entry.size > 0 ? take(entry) : undefined;
    post({ id, type: 'close', code, signal, chunk });
  });
});
`;

type ThreadMessage =
  | { id: number; type: 'stdout' | 'stderr'; chunk: Uint8Array; paused?: boolean }
  | { id: number; type: 'error'; message: string; code?: string }
  | {
      id: number;
      type: 'close';
      code: number | null;
      signal: NodeJS.Signals | null;
      started?: boolean;
      /** The output not sent yet. */
      chunk?: Uint8Array;
    };

/**
 * A child run by the thread. Emits `stdout` and `stderr` (Buffers), `error` (an Error with
 * the system's code) and `close` (code, signal), as a ChildProcess's streams and events do.
 */
export class ThreadChild extends EventEmitter {
  constructor(
    private readonly thread: SpawnThread,
    readonly id: number,
  ) {
    super();
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    this.thread.kill(this, signal);
  }
}

class SpawnThread {
  private readonly helper = new HelperProcess();
  private readonly children = new Map<number, ThreadChild>();
  /** Children waiting for one of the `limit` places; started in the order they came. */
  private readonly waiting: { child: ThreadChild; message: object }[] = [];
  private running = 0;
  private nextId = 1;
  /** Which helper (its number) each running child was started in. */
  private readonly startedIn = new Map<number, number>();

  constructor(private readonly limit: number) {
    this.helper.unref();
    this.helper.on('message', (message: ThreadMessage) => this.receive(message));
    // A helper ended: what it ran is lost; what waited starts in a new helper.
    this.helper.on('lost', (error: Error, helper: number) => {
      for (const [id, started] of this.startedIn) {
        if (started !== helper) continue;
        this.startedIn.delete(id);
        const child = this.children.get(id);
        if (!child) continue;
        this.children.delete(id);
        this.running--;
        child.emit('error', error);
      }
      if (this.children.size === 0) this.helper.unref();
      this.startWaiting();
    });
  }

  spawn(command: string, args: string[], cwd: string): ThreadChild {
    const child = new ThreadChild(this, this.nextId++);
    // A running child keeps the process alive, as one spawned here would.
    if (this.children.size === 0) this.helper.ref();
    this.children.set(child.id, child);
    this.waiting.push({ child, message: { id: child.id, type: 'spawn', command, args, cwd } });
    this.startWaiting();
    return child;
  }

  /** Children running or waiting for a place. */
  busy(): number {
    return this.children.size;
  }

  kill(child: ThreadChild, signal: NodeJS.Signals): void {
    const queued = this.waiting.findIndex((entry) => entry.child === child);
    if (queued === -1) {
      this.post({ id: child.id, type: 'kill', signal });
      return;
    }
    // Never started: it ends as a killed child would, without having run, and (as a
    // child's end always does) after the caller's own code has run on.
    this.waiting.splice(queued, 1);
    setImmediate(() =>
      this.receive({ id: child.id, type: 'close', code: null, signal, started: false }),
    );
  }

  private startWaiting(): void {
    while (this.running < this.limit && this.waiting.length > 0) {
      const next = this.waiting.shift()!;
      this.running++;
      this.post(next.message);
      this.startedIn.set(next.child.id, this.helper.number);
    }
  }

  post(message: object): void {
    this.helper.postMessage(message);
  }

  private receive(message: ThreadMessage): void {
    const child = this.children.get(message.id);
    if (!child) return;
    switch (message.type) {
      case 'stdout': {
        child.emit('stdout', asBuffer(message.chunk));
        if (message.paused) this.post({ id: child.id, type: 'ack' });
        return;
      }
      case 'stderr':
        child.emit('stderr', asBuffer(message.chunk));
        return;
      case 'error':
        child.emit('error', Object.assign(new Error(message.message), { code: message.code }));
        return;
      case 'close':
        if (message.chunk) child.emit('stdout', asBuffer(message.chunk));
        if (message.started !== false) this.running--;
        this.startedIn.delete(child.id);
        this.startWaiting();
        this.children.delete(child.id);
        if (this.children.size === 0) this.helper.unref();
        child.emit('close', message.code, message.signal);
        return;
    }
  }
}

function asBuffer(chunk: Uint8Array): Buffer {
  return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
}

/**
 * The helper process, started again should it have ended; `lost` (error, its number) says
 * which one ended, so that only the children it ran are reported failed.
 */
class HelperProcess extends EventEmitter {
  number = 0;
  private child = this.start();
  private referenced = false;

  postMessage(message: object): void {
    if (!this.child.connected) {
      this.child = this.start();
      if (this.referenced) this.ref();
    }
    this.child.send(message);
  }

  ref(): void {
    this.referenced = true;
    this.child.ref();
    this.child.channel?.ref();
  }

  unref(): void {
    this.referenced = false;
    this.child.unref();
    this.child.channel?.unref();
  }

  private start(): ChildProcess {
    const number = ++this.number;
    const child = spawn(process.execPath, ['-e', THREAD_SOURCE], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'advanced',
    });
    child.unref();
    child.channel?.unref();
    child.on('message', (message) => this.emit('message', message));
    let lost = false;
    const lose = (error: Error) => {
      if (lost) return;
      lost = true;
      this.emit('lost', error, number);
    };
    child.on('error', lose);
    child.on('exit', (code, signal) =>
      lose(new Error(`the spawn helper ended (${signal ?? `exit code ${code}`})`)),
    );
    return child;
  }
}

let thread: SpawnThread | undefined;

/**
 * Starts children from the helper process from now on (the service calls this once), at most
 * `limit` at a time; the others wait their turn.
 */
export function spawnFromThread(limit: number): void {
  thread ??= new SpawnThread(limit);
}

/** The helper, when it is on. */
export function spawnThread(): Pick<SpawnThread, 'spawn' | 'busy'> | undefined {
  return thread;
}
