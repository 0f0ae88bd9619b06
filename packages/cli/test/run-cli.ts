/**
 * Runs the `toolhost` command as a person or script would, in a given folder: the command
 * installed globally from the packed tarballs by the suite's global setup
 * (setup/installed-command.ts), started through its bin link as a shell starts it.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { inject } from 'vitest';

/** The command under test; `node CLI ...` runs it too, for tests that name node themselves. */
export const CLI: string = inject('toolhostCommand');

/** Below the suite's 30 s test timeout, so a hung command fails its test with a message. */
export const CLI_TIMEOUT_MS = 25_000;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd: string;
  home: string;
  input?: string;
  env?: NodeJS.ProcessEnv;
  /** For tests that set a longer timeout of their own; keep it below theirs. */
  timeoutMs?: number;
}

function cliEnvironment(options: CliOptions): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: options.home,
    TOOLHOST_SYSTEM_SETTINGS_PATH: path.join(options.home, 'no-system-settings.json'),
    ...options.env,
  };
}

export function runCli(args: string[], options: CliOptions): CliResult {
  const result = spawnSync(CLI, args, {
    cwd: options.cwd,
    input: options.input ?? '',
    encoding: 'utf8',
    env: cliEnvironment(options),
    timeout: options.timeoutMs ?? CLI_TIMEOUT_MS,
  });
  if (result.error) throw new Error(`toolhost ${args.join(' ')}: ${result.error.message}`);
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

export interface RunningCli {
  child: ChildProcess;
  /** Everything written to stdout / stderr so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) and the whole output. */
  exited: Promise<CliResult & { signal: NodeJS.Signals | null }>;
}

/** Starts the command without waiting for it, for tests that signal it while it runs. */
export function startCli(args: string[], options: CliOptions): RunningCli {
  const child = spawn(CLI, args, {
    cwd: options.cwd,
    env: cliEnvironment(options),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<CliResult & { signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

export interface RunningInstalledCli {
  child: ChildProcess;
  /** Resolves when the command exits. */
  done: Promise<CliResult>;
  stdout(): string;
  stderr(): string;
}

/** Starts the installed command without blocking (a model server in this process must answer it). */
export function startInstalledCli(
  args: string[],
  options: { cwd: string; home: string; input?: string; env?: NodeJS.ProcessEnv },
): RunningInstalledCli {
  const child = spawn(CLI, args, {
    cwd: options.cwd,
    env: {
      PATH: process.env.PATH,
      HOME: options.home,
      TOOLHOST_SYSTEM_SETTINGS_PATH: path.join(options.home, 'no-system-settings.json'),
      ...options.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (data: Buffer) => {
    stdout += data.toString('utf8');
  });
  child.stderr?.on('data', (data: Buffer) => {
    stderr += data.toString('utf8');
  });
  child.stdin?.end(options.input ?? '');
  const done = new Promise<CliResult>((resolve) => {
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, done, stdout: () => stdout, stderr: () => stderr };
}

export function runCliAsync(
  args: string[],
  options: { cwd: string; home: string; input?: string; env?: NodeJS.ProcessEnv },
): Promise<CliResult> {
  return startInstalledCli(args, options).done;
}
