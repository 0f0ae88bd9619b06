/**
 * Checkpoints: the state of a project's files, kept before the agent changes them, so a
 * person can bring the files (and the conversation) back to any earlier point.
 *
 * This folder owns the shadow repository under `~/.toolhost/history/<project-id>/` (a git
 * folder, one index per workspace root, and `checkpoints.jsonl`, one record a line), the
 * decision which batches need a checkpoint (batch-changes.ts), the loop's hook
 * (checkpointer.ts) and the front ends' API (restore-checkpoint.ts). It never touches the
 * project's own `.git` (index, config, hooks, objects), never applies the person's git
 * config or hooks, and never writes files that ignore rules leave out. It reads the
 * sessions store but owns no session format; it shows nothing to the person.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { SETTING_DEFAULTS } from '../../contract/settings-types.js';
import { openOwnFileToAppend } from '../../utils/own-files.js';
import { projectKey } from '../../utils/project-key.js';
import type { Checkpoint, CheckpointToolCall } from './checkpoint-types.js';
import {
  adoptMovedHistory,
  folderIdentity,
  type ProjectFile,
  readProjectFile,
  writeProjectFile,
} from './moved-project.js';
import { type HistoryRetention, removeCheckpoints, retained } from './prune-history.js';
import { diffTrees, type RestoredFiles, restoreFiles } from './restore-files.js';
import { CheckpointError, ShadowGit } from './shadow-git.js';
import { type SkippedFile, takeSnapshot } from './snapshot.js';

export interface NewCheckpoint {
  roots: readonly string[];
  kind: Checkpoint['kind'];
  toolCalls?: CheckpointToolCall[];
  restoring?: string;
  sessionId?: string;
  messageIndex?: number;
  subagent?: string;
  signal?: AbortSignal;
}

export interface TakenCheckpoint {
  checkpoint: Checkpoint;
  /** Files left out because they were too large or could not be read. */
  skipped: SkippedFile[];
  /** False when nothing had changed since the previous checkpoint (no new commit). */
  changed: boolean;
}

export interface CheckpointStoreOptions {
  /** ~/.toolhost (Config.userDir). */
  userDir: string;
  /** The project root: checkpoints are kept per project. */
  projectRoot: string;
  /** The git program (default `git` on PATH). */
  gitPath?: string;
  /** Bytes; larger files are left out of snapshots (0: no limit). */
  maxFileSize?: number;
  /** How many checkpoints, and how old, are kept; older ones are pruned after a new one. */
  retention?: HistoryRetention;
}

const RECORDS = 'checkpoints.jsonl';

/** ~/.toolhost/history */
export function historyDir(userDir: string): string {
  return path.join(userDir, 'history');
}

/** The project's history folder name (the same key as its sessions and temp folders). */
export const projectId = projectKey;

export class CheckpointStore {
  readonly dir: string;
  readonly projectRoot: string;
  private readonly userDir: string;
  private readonly git: ShadowGit;
  private readonly maxFileSize: number;
  private readonly retention: HistoryRetention;

  constructor(options: CheckpointStoreOptions) {
    this.userDir = options.userDir;
    this.maxFileSize = options.maxFileSize ?? SETTING_DEFAULTS.general.checkpointing.maxFileSize;
    this.retention = options.retention ?? SETTING_DEFAULTS.general.checkpointing.retention;
    this.projectRoot = options.projectRoot;
    this.dir = path.join(historyDir(options.userDir), projectId(options.projectRoot));
    this.git = new ShadowGit(path.join(this.dir, 'git'), options.gitPath);
    if (!existsSync(this.dir)) {
      this.adoptedFrom = adoptMovedHistory(
        historyDir(options.userDir),
        this.dir,
        options.projectRoot,
        options.userDir,
        RECORDS,
      );
    }
    this.keys = readProjectFile(this.dir)?.keys ?? {};
  }

  /** The project's former path, when its history was just brought here after a move. */
  readonly adoptedFrom: string | undefined;
  private readonly keys: Record<string, string>;

  /** Snapshots the roots and records a checkpoint; throws a CheckpointError when it cannot. */
  async create(input: NewCheckpoint): Promise<TakenCheckpoint> {
    this.prepare();
    await this.git.ensure();
    const snapshot = await takeSnapshot(
      this.git,
      this.dir,
      input.roots,
      this.snapshotOptions(input.signal),
    );
    const [head, headTree] = await this.resolveHead();
    const id = randomBytes(4).toString('hex');
    let commit = head;
    const changed = !head || headTree !== snapshot.tree;
    if (!commit || changed) {
      // No parent: each checkpoint is its own commit, so pruning one frees what only it held.
      commit = (
        await this.git.run(['commit-tree', snapshot.tree, '-m', `checkpoint ${id}`])
      ).trim();
      await this.git.run(['update-ref', 'HEAD', commit]);
    }
    await this.git.run(['update-ref', `refs/checkpoints/${id}`, commit]);
    const checkpoint: Checkpoint = {
      id,
      at: new Date().toISOString(),
      kind: input.kind,
      toolCalls: input.toolCalls ?? [],
      ...(input.restoring ? { restoring: input.restoring } : {}),
      ...(input.sessionId ? { sessionId: input.sessionId } : {}),
      ...(input.messageIndex !== undefined ? { messageIndex: input.messageIndex } : {}),
      ...(input.subagent ? { subagent: input.subagent } : {}),
      commit,
      roots: snapshot.roots,
      ...(snapshot.skipped.length > 0 ? { skipped: snapshot.skipped } : {}),
    };
    try {
      // Never through a link planted among toolhost's history folders.
      const fd = openOwnFileToAppend(path.dirname(this.dir), path.join(this.dir, RECORDS));
      try {
        writeSync(fd, `${JSON.stringify(checkpoint)}\n`);
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      throw new CheckpointError(
        `cannot record the checkpoint in ${this.dir}: ${(error as Error).message}`,
      );
    }
    await this.prune();
    return { checkpoint, skipped: snapshot.skipped, changed };
  }

  /** Drops checkpoints past the retention; failing to never fails the checkpoint just taken. */
  private async prune(): Promise<void> {
    const { kept, dropped } = retained(this.list(), this.retention, Date.now());
    if (dropped.length === 0) return;
    try {
      await removeCheckpoints(this.git, this.dir, RECORDS, kept, dropped, this.retention);
    } catch {
      // Tried again after the next checkpoint.
    }
  }

  private snapshotOptions(signal: AbortSignal | undefined) {
    return {
      excluded: [this.userDir],
      maxFileSize: this.maxFileSize,
      keyFor: (root: string) => this.keys[root],
      ...(signal ? { signal } : {}),
    };
  }

  /** The project's checkpoints, oldest first (optionally one session's). */
  list(filter: { sessionId?: string } = {}): Checkpoint[] {
    let text: string;
    try {
      text = readFileSync(path.join(this.dir, RECORDS), 'utf8');
    } catch {
      return [];
    }
    const all: Checkpoint[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const record = JSON.parse(line) as Checkpoint;
        if (typeof record.id === 'string' && typeof record.commit === 'string') all.push(record);
      } catch {
        // a line cut by a killed process
      }
    }
    return filter.sessionId ? all.filter((c) => c.sessionId === filter.sessionId) : all;
  }

  /** A checkpoint by id or unique id prefix, or a message saying why none was found. */
  find(id: string): Checkpoint | string {
    const all = this.list();
    if (all.length === 0) return `There are no checkpoints for ${this.projectRoot}.`;
    const exact = all.find((c) => c.id === id);
    if (exact) return exact;
    const matches = all.filter((c) => c.id.startsWith(id));
    if (matches.length === 1 && matches[0]) return matches[0];
    return matches.length > 1
      ? `Checkpoint id "${id}" matches ${matches.length} checkpoints; give more of it.`
      : `No checkpoint "${id}" for ${this.projectRoot}; toolhost restore lists them.`;
  }

  /**
   * The files the calls after a checkpoint changed (absolute paths): compared with the next
   * checkpoint, or with the files as they are now for the latest one.
   */
  async changedFiles(checkpoint: Checkpoint, signal?: AbortSignal): Promise<string[]> {
    const all = this.list();
    const next = all.slice(all.findIndex((c) => c.id === checkpoint.id) + 1)[0];
    const changes = next
      ? await this.differences(checkpoint, next.commit)
      : await this.differencesFromNow(checkpoint, signal);
    return changes.map((change) => change.file);
  }

  /** A file's content as a checkpoint holds it; undefined when it was not there. */
  async fileAt(checkpoint: Checkpoint, file: string): Promise<string | undefined> {
    const root = checkpoint.roots.find(
      (candidate) => file === candidate.path || file.startsWith(`${candidate.path}${path.sep}`),
    );
    if (!root) return undefined;
    const inside = path.relative(root.path, file).split(path.sep).join('/');
    try {
      return await this.git.run(['show', `${checkpoint.commit}:${root.key}/${inside}`]);
    } catch {
      return undefined;
    }
  }

  /**
   * How the files now differ from a checkpoint: what restoring it would do (`A` write back
   * a file removed since, `D` remove a file created since, `M`/`T` write back a changed one,
   * `L` leave a changed file alone because it is now too large for the undo checkpoint).
   */
  async differencesFromNow(
    checkpoint: Checkpoint,
    signal?: AbortSignal,
  ): Promise<{ status: string; file: string }[]> {
    this.prepare();
    await this.git.ensure();
    const roots = checkpoint.roots.map((root) => root.path).filter((root) => existsSync(root));
    const now = await takeSnapshot(this.git, this.dir, roots, this.snapshotOptions(signal));
    const changes = await this.differences(checkpoint, now.tree);
    // diff-tree says how to get from the checkpoint to now; a restore goes the other way.
    const reverse: Record<string, string> = { A: 'D', D: 'A' };
    // A file this snapshot left out looks removed, but a restore leaves it (restoreFiles).
    const left = new Set(now.skipped.map((skipped) => skipped.file));
    return changes.map((change) => ({
      ...change,
      status: left.has(change.file) ? 'L' : (reverse[change.status] ?? change.status),
    }));
  }

  /** Changes from a checkpoint to another tree, with absolute paths. */
  private async differences(
    checkpoint: Checkpoint,
    after: string,
  ): Promise<{ status: string; file: string }[]> {
    const byKey = new Map(checkpoint.roots.map((root) => [root.key, root.path]));
    const changes = await diffTrees(this.git, checkpoint.commit, after);
    return changes.flatMap(({ status, file }) => {
      const slash = file.indexOf('/');
      const root = byKey.get(file.slice(0, slash));
      return root ? [{ status, file: path.join(root, ...file.slice(slash + 1).split('/')) }] : [];
    });
  }

  /**
   * Brings the files back to `target`, after taking a checkpoint of the current state
   * (returned as `undo`) so the restore itself can be undone.
   */
  async restoreFiles(
    target: Checkpoint,
    position: { sessionId?: string; messageIndex?: number } = {},
  ): Promise<{ undo: Checkpoint; files: RestoredFiles }> {
    const missing = target.roots.filter((root) => !existsSync(root.path));
    if (missing.length > 0) {
      throw new CheckpointError(
        `the folder ${missing.map((r) => r.path).join(', ')} of checkpoint ${target.id} no longer exists (was the project moved or deleted?); nothing was restored.`,
      );
    }
    const { checkpoint: undo } = await this.create({
      roots: target.roots.map((root) => root.path),
      kind: 'restore',
      restoring: target.id,
      ...position,
    });
    // What the undo checkpoint could not keep is not overwritten or removed: it would be lost.
    const keep = new Set((undo.skipped ?? []).map((skipped) => skipped.file));
    const files = await restoreFiles(
      this.git,
      this.dir,
      undo.commit,
      target.commit,
      target.roots,
      keep,
    );
    return { undo, files };
  }

  /** Project folders with checkpoints that no longer exist and share this one's name. */
  movedFrom(): string[] {
    const base = path.basename(this.projectRoot);
    let names: string[];
    try {
      names = readdirSync(historyDir(this.userDir));
    } catch {
      return [];
    }
    return names.flatMap((name) => {
      const root = readProjectFile(path.join(historyDir(this.userDir), name))?.projectRoot;
      return root && path.basename(root) === base && !existsSync(root) ? [root] : [];
    });
  }

  private prepare(): void {
    try {
      mkdirSync(path.join(this.dir, 'indexes'), { recursive: true, mode: 0o700 });
      if (!readProjectFile(this.dir)) {
        const project: ProjectFile = {
          projectRoot: this.projectRoot,
          ...folderIdentity(this.projectRoot),
        };
        writeProjectFile(this.dir, project);
      }
    } catch (error) {
      throw new CheckpointError(
        `cannot create the checkpoint folder ${this.dir}: ${(error as Error).message}`,
      );
    }
  }

  /** The latest commit and its tree; none before the first checkpoint. */
  private async resolveHead(): Promise<[string | undefined, string | undefined]> {
    try {
      const [commit, tree] = (await this.git.run(['rev-parse', 'HEAD^{commit}', 'HEAD^{tree}']))
        .trim()
        .split('\n');
      return [commit || undefined, tree || undefined];
    } catch {
      return [undefined, undefined];
    }
  }
}
