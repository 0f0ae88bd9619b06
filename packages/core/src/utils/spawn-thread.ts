/**
 * Child processes started from a worker thread, for a process that serves many callers at
 * once (`toolhost mcp --http`). Node's spawn blocks its thread until the child has called
 * exec: the fork, then however long the child waits for a core. On a busy machine that was
 * 7-30 ms per search, during which a service answered nobody (a third to a half of its
 * time under load went there). Started from this thread, only the thread waits. Output
 * comes back in chunks with flow control (at most a few chunks unread), so a search whose
 * output is huge holds no more memory than a direct one. Off unless turned on: a one-shot
 * command runs one child and would only pay the thread's start.
 */
import { EventEmitter } from 'node:events';
import { Worker } from 'node:worker_threads';

/** Batches the thread sends before it waits for the reader: bounds the memory in between. */
const BATCHES_IN_FLIGHT = 4;
/** Output gathered into one message at most (ripgrep writes a little per file). */
const BATCH_BYTES = 256 * 1024;
/** How long output waits for more before it is sent anyway (a child's end sends it at once). */
const BATCH_MS = 10;

// CommonJS run by the worker: spawns, forwards output in batches (what arrived within
// BATCH_MS, up to BATCH_BYTES; what is left goes with the child's end, so a short search
// is one message: each wakes the service's thread), pauses while the reader is behind.
const THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { spawn } = require('node:child_process');
const children = new Map();
const post = (message, bytes) => parentPort.postMessage(message, bytes ? [bytes.buffer] : []);
// Its own memory, not a view of a shared pool: it is handed over, not copied.
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
  post({ id, type: 'stdout', chunk, paused }, chunk);
}
parentPort.on('message', (message) => {
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
    post({ id, type: 'stderr', chunk }, chunk);
  });
  child.on('error', (error) => post({ id, type: 'error', message: error.message, code: error.code }));
  child.on('close', (code, signal) => {
    clearTimeout(entry.timer);
    children.delete(id);
    const chunk = entry.size > 0 ? take(entry) : undefined;
    post({ id, type: 'close', code, signal, chunk }, chunk);
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
  private readonly worker = new Worker(THREAD_SOURCE, { eval: true });
  private readonly children = new Map<number, ThreadChild>();
  /** Children waiting for one of the `limit` places; started in the order they came. */
  private readonly waiting: { child: ThreadChild; message: object }[] = [];
  private running = 0;
  private nextId = 1;

  constructor(private readonly limit: number) {
    this.worker.unref();
    this.worker.on('message', (message: ThreadMessage) => this.receive(message));
    this.worker.on('error', (error) => {
      for (const child of this.children.values()) child.emit('error', error);
      this.children.clear();
    });
  }

  spawn(command: string, args: string[], cwd: string): ThreadChild {
    const child = new ThreadChild(this, this.nextId++);
    // A running child keeps the process alive, as one spawned here would.
    if (this.children.size === 0) this.worker.ref();
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
    }
  }

  post(message: object): void {
    this.worker.postMessage(message);
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
        this.startWaiting();
        this.children.delete(child.id);
        if (this.children.size === 0) this.worker.unref();
        child.emit('close', message.code, message.signal);
        return;
    }
  }
}

function asBuffer(chunk: Uint8Array): Buffer {
  return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
}

let thread: SpawnThread | undefined;

/**
 * Starts children from a worker thread from now on (the service calls this once), at most
 * `limit` at a time; the others wait their turn.
 */
export function spawnFromThread(limit: number): void {
  thread ??= new SpawnThread(limit);
}

/** The worker thread, when it is on. */
export function spawnThread(): Pick<SpawnThread, 'spawn' | 'busy'> | undefined {
  return thread;
}
