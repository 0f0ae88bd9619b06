/**
 * Runs git against a shadow repository (its own GIT_DIR and index) with a project folder
 * as the work tree. The person's system and global git config, hooks, credential helpers
 * and any GIT_* variable of the calling process are kept out, so neither the project's own
 * `.git` nor the person's settings can change what a snapshot does.
 */
import { mkdirSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { runProcess } from '../../utils/run-process.js';

/** Thrown when git cannot do what a checkpoint needs; the message is written for a person. */
export class CheckpointError extends Error {
  constructor(
    message: string,
    /** What git wrote to standard error, when git failed. */
    readonly gitStderr = '',
  ) {
    super(message);
  }
}

/** git's object name of the empty tree, known to every repository. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

const GIT_TIMEOUT_MS = 120_000;
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;
/** An index.lock this old was left by a killed process, not by a snapshot still running. */
const STALE_LOCK_MS = 60_000;
const LOCK_RETRIES = 20;

/** Settings that would otherwise come from the person's config and change what git does. */
const FIXED_CONFIG = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.untrackedCache=false',
  'core.autocrlf=false',
  'core.safecrlf=false',
  'core.symlinks=true',
  'core.fileMode=true',
  'core.ignoreCase=false',
  'core.quotePath=false',
  'core.bigFileThreshold=16m',
  'gc.auto=0',
  'safe.directory=*',
  'commit.gpgSign=false',
];

export interface GitRun {
  /** The work tree (a workspace root); omit for commands that only read the repository. */
  workTree?: string;
  /** The index file, one per work tree. */
  indexFile?: string;
  input?: string;
  signal?: AbortSignal;
}

export class ShadowGit {
  constructor(
    /** The shadow repository's git folder. */
    readonly gitDir: string,
    /** The git program (tests point it at a missing one). */
    private readonly gitPath = 'git',
  ) {}

  /** Creates the repository on first use (no template: no sample hooks, no description). */
  async ensure(): Promise<void> {
    try {
      if (statSync(path.join(this.gitDir, 'HEAD')).isFile()) return;
    } catch {
      // not there yet
    }
    try {
      mkdirSync(this.gitDir, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw new CheckpointError(
        `cannot create the checkpoint folder ${this.gitDir}: ${(error as Error).message}`,
      );
    }
    await this.run(['init', '--quiet', '--bare', '--template=', this.gitDir]);
    await this.run(['config', 'core.bare', 'false']);
  }

  /** Runs git and returns its standard output; a failure throws a CheckpointError. */
  async run(args: string[], options: GitRun = {}): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      const result = await runProcess(
        this.gitPath,
        [...FIXED_CONFIG.flatMap((setting) => ['-c', setting]), ...args],
        {
          cwd: options.workTree ?? this.gitDir,
          env: this.environment(options),
          input: options.input ?? '',
          timeoutMs: GIT_TIMEOUT_MS,
          maxBytes: MAX_OUTPUT_BYTES,
          ...(options.signal ? { signal: options.signal } : {}),
        },
      );
      if (result.spawnError) {
        throw new CheckpointError(
          /ENOENT/.test(result.spawnError)
            ? `git is not installed (or not on PATH); checkpoints need it. Install git, or turn checkpoints off with general.checkpointing.enabled false.`
            : `git could not start: ${result.spawnError}`,
        );
      }
      if (result.exitCode === 0) return result.stdout;
      const stderr = result.stderr.trim();
      const lock = /Unable to create '([^']+\.lock)'/.exec(stderr)?.[1];
      if (lock && attempt < LOCK_RETRIES) {
        // Another toolhost in the same project is taking a snapshot; or a killed one left its lock.
        removeIfStale(lock);
        await new Promise((resolve) => setTimeout(resolve, 100 + attempt * 50));
        continue;
      }
      if (result.timedOut)
        throw new CheckpointError(`git ${args[0]} took too long and was stopped`);
      throw new CheckpointError(
        `git ${args[0]} failed${stderr ? `: ${lastLines(stderr)}` : ` with exit code ${result.exitCode}`}`,
        stderr,
      );
    }
  }

  private environment(options: GitRun): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) {
      if (!key.startsWith('GIT_')) env[key] = value;
    }
    return {
      ...env,
      GIT_DIR: this.gitDir,
      ...(options.workTree ? { GIT_WORK_TREE: options.workTree } : {}),
      ...(options.indexFile ? { GIT_INDEX_FILE: options.indexFile } : {}),
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
      GIT_AUTHOR_NAME: 'toolhost',
      GIT_AUTHOR_EMAIL: 'checkpoints@toolhost.invalid',
      GIT_COMMITTER_NAME: 'toolhost',
      GIT_COMMITTER_EMAIL: 'checkpoints@toolhost.invalid',
      LC_ALL: 'C',
    };
  }
}

function removeIfStale(lock: string): void {
  try {
    if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) unlinkSync(lock);
  } catch {
    // gone already
  }
}

function lastLines(text: string): string {
  return text.split('\n').slice(-3).join(' ').slice(0, 600);
}

/** Splits git's -z output into its fields. */
export function nulFields(output: string): string[] {
  const fields = output.split('\0');
  if (fields.at(-1) === '') fields.pop();
  return fields;
}
