/**
 * Commands the model started in the background (and processes a command left running):
 * listed for the person, and ended when the session ends unless settings keep them.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { spawn } from 'node:child_process';
import { closeSync } from 'node:fs';
import path from 'node:path';
import { openOwnFileToAppend } from '../utils/own-files.js';
import {
  endProcessGroup,
  processGroupMembers,
  trackProcessGroup,
  untrackProcessGroup,
} from '../utils/process-group.js';
import { feedFd3, type ShellProgram, shellProgram, shellStdio } from './shell-execution.js';

export interface BackgroundProcess {
  pid: number;
  command: string;
  /** Where its output goes, when toolhost started it. */
  logPath?: string;
  startedAt: Date;
  /** The front-end session whose call started it (see withProcessOwner), if one said so. */
  owner?: object;
}

const owners = new AsyncLocalStorage<object>();

/**
 * Runs `work` with `owner` as the owner of every background process it starts, so a front
 * end serving several clients (`toolhost mcp --http`) ends one client's processes when that
 * client's session ends, and no other's.
 */
export function withProcessOwner<T>(owner: object, work: () => T): T {
  return owners.run(owner, work);
}

export class BackgroundProcesses {
  private readonly processes = new Map<number, BackgroundProcess>();
  /** Set from tools.shell.keepBackgroundProcesses: they outlive toolhost, even on a signal. */
  keepAfterExit = false;

  /** Starts `command` detached, its output appended to a log file; returns at once. */
  start(
    command: string,
    options: {
      cwd: string;
      env: NodeJS.ProcessEnv;
      logDir: string;
      /** The folder above logDir that no command can replace (default: logDir's parent). */
      logBase?: string;
      shell?: ShellProgram;
    },
  ): BackgroundProcess {
    const logPath = path.join(
      options.logDir,
      `background-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.log`,
    );
    // Commands may write the folder above: a planted link must not carry the log elsewhere.
    const log = openOwnFileToAppend(options.logBase ?? path.dirname(options.logDir), logPath);
    try {
      const shell = options.shell ?? shellProgram();
      const child = (() => {
        try {
          return spawn(shell.file, shell.args(command), {
            cwd: options.cwd,
            env: options.env,
            stdio: shellStdio(shell, ['ignore', log, log]),
            detached: true,
          });
        } catch (error) {
          shell.release?.();
          throw error;
        }
      })();
      feedFd3(shell, child);
      child.on('error', () => shell.release?.());
      child.on('exit', () => shell.release?.());
      child.unref();
      if (!child.pid) throw new Error(`could not start ${shell.file}`);
      const entry: BackgroundProcess = {
        pid: child.pid,
        command,
        logPath,
        startedAt: new Date(),
        owner: owners.getStore(),
      };
      this.processes.set(child.pid, entry);
      if (!this.keepAfterExit) trackProcessGroup(child.pid);
      return entry;
    } finally {
      closeSync(log);
    }
  }

  /** Tracks a process group that a foreground command left running. */
  adopt(pgid: number, command: string): void {
    if (!this.processes.has(pgid))
      this.processes.set(pgid, {
        pid: pgid,
        command,
        startedAt: new Date(),
        owner: owners.getStore(),
      });
    if (this.keepAfterExit) untrackProcessGroup(pgid);
  }

  /** The ones still running. */
  list(): BackgroundProcess[] {
    return [...this.processes.values()].filter(
      (entry) => processGroupMembers(entry.pid).length > 0,
    );
  }

  /** Ends the process groups `owner` started (unless settings keep them), TERM then KILL. */
  async endOwnedBy(owner: object): Promise<void> {
    if (this.keepAfterExit) return;
    const owned = [...this.processes.values()].filter((entry) => entry.owner === owner);
    await Promise.all(
      owned.map(async ({ pid }) => {
        this.processes.delete(pid);
        await endProcessGroup(pid);
        untrackProcessGroup(pid);
      }),
    );
  }

  /** Ends every process group still running (TERM, then KILL). */
  async endAll(): Promise<void> {
    await Promise.all(
      [...this.processes.keys()].map(async (pgid) => {
        await endProcessGroup(pgid);
        untrackProcessGroup(pgid);
      }),
    );
    this.processes.clear();
  }
}
