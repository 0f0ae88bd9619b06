/**
 * A `--input-format stream-json` session as the tests drive it: the command started with
 * `toolhost` on PATH (as the README's host script expects), JSON lines written to its
 * standard input, its events read back and waited for one by one.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach } from 'vitest';
import type { RecordedRequest } from '../../../core/test/helpers/model-server.js';
import { CLI } from '../run-cli.js';
import { type ModelProject, modelProject } from './model-project.js';

export type Event = Record<string, unknown> & { type: string };

export interface SessionPlace {
  root: string;
  home: string;
  baseUrl: string;
}

export function sessionEnvironment(place: SessionPlace): NodeJS.ProcessEnv {
  const bin = path.join(place.home, 'bin');
  mkdirSync(bin, { recursive: true });
  if (!existsSync(path.join(bin, 'toolhost'))) symlinkSync(CLI, path.join(bin, 'toolhost'));
  return {
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
    HOME: place.home,
    TOOLHOST_SYSTEM_SETTINGS_PATH: path.join(place.home, 'no-system-settings.json'),
    OPENAI_BASE_URL: place.baseUrl,
    OPENAI_API_KEY: 'sk-test',
    OPENAI_MODEL: 'scripted-model',
  };
}

export interface StreamProject {
  project: ModelProject;
  /** Pass to startSession: every session a test starts is killed after it. */
  children: ChildProcess[];
  /** Where this test's sessions run: its project, its home, its model server (if started). */
  place(): SessionPlace;
}

/**
 * The setup the stream-json session tests share: modelProject's folders and model server
 * per test, and the sessions the test started killed after it (before the server closes).
 * Call once at the top of a test file.
 */
export function streamProject(): StreamProject {
  const project = modelProject();
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });
  const place = (): SessionPlace => ({
    root: project.dirs.root,
    home: project.dirs.home,
    baseUrl: project.server?.baseUrl ?? '',
  });
  return { project, children, place };
}

/** Everything the model was sent in one request, as text. */
export function sent(request: RecordedRequest | undefined): string {
  return JSON.stringify(request?.body.messages ?? []);
}

export const userTurn = (content: string) => ({
  type: 'user',
  message: { role: 'user', content },
});

export type StreamSession = ReturnType<typeof startSession>;

/** `args` replace the default `--input-format stream-json -o stream-json` when `exactArgs`. */
export function startSession(
  place: SessionPlace,
  args: string[],
  children: ChildProcess[],
  exactArgs = false,
) {
  const child = spawn(
    CLI,
    exactArgs ? args : ['--input-format', 'stream-json', '-o', 'stream-json', ...args],
    { cwd: place.root, env: sessionEnvironment(place), stdio: ['pipe', 'pipe', 'pipe'] },
  );
  children.push(child);
  const events: Event[] = [];
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    for (const wake of waiters) wake();
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    events.push(JSON.parse(line) as Event);
    for (const wake of waiters) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const until = <T>(find: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = find();
        if (found === undefined) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no ${what} within ${timeoutMs} ms; stderr: ${stderr}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return {
    events,
    exited,
    stderr: () => stderr,
    send: (line: unknown) => child.stdin?.write(`${JSON.stringify(line)}\n`),
    sendRaw: (text: string) => child.stdin?.write(text),
    end: () => child.stdin?.end(),
    signal: (name: NodeJS.Signals) => child.kill(name),
    /** The first event after `from` that matches. */
    next: (match: (event: Event) => boolean, what: string, from = 0) =>
      until(() => events.slice(from).find(match), what),
    untilStderr: (text: string) =>
      until(() => (stderr.includes(text) ? true : undefined), `"${text}" on stderr`),
  };
}
