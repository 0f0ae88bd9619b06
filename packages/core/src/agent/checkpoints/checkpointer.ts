/**
 * The agent loop's side of checkpoints: before a batch whose calls may change files, the
 * workspace roots are snapshotted with the calls and the conversation position. When that
 * fails, the loop is told why and whether the batch may still run
 * (general.checkpointing.onFailure; by default it may not).
 */
import type { Config } from '../../config/config.js';
import { SETTING_DEFAULTS } from '../../contract/settings-types.js';
import type { ToolRegistry } from '../../tools/tool-registry.js';
import type { AgentToolCall } from '../agent-events.js';
import { changingCalls } from './batch-changes.js';
import { CheckpointStore } from './checkpoint-store.js';
import type { Checkpoint } from './checkpoint-types.js';
import { checkpointProjectOf } from './restore-checkpoint.js';
import { describeSkipped } from './snapshot.js';

export type CheckpointFailurePolicy = 'stop' | 'continue';

export type BatchCheckpoint =
  | { kind: 'not_needed' }
  /** `skipped` describes each file left out, for the person. */
  | { kind: 'taken'; checkpoint: Checkpoint; skipped: string[] }
  | { kind: 'failed'; message: string; runBatch: boolean };

/** Whose batch it is, when not the main agent's. */
export interface BatchOwner {
  /** The subagent (a `task` run) whose calls these are. */
  subagent?: string;
}

/** What the loop calls before each batch (a library user may give its own). */
export interface CheckpointHook {
  /**
   * @param messageIndex messages in the main conversation before the model turn with these
   * calls (for a subagent's batch: before the turn with its `task` call)
   */
  beforeBatch(
    calls: readonly AgentToolCall[],
    messageIndex: number,
    signal: AbortSignal,
    owner?: BatchOwner,
  ): Promise<BatchCheckpoint>;
}

export interface CheckpointerOptions {
  /** The git program (tests point it elsewhere). */
  gitPath?: string;
  /** Overrides general.checkpointing.onFailure. */
  onFailure?: CheckpointFailurePolicy;
}

export class Checkpointer implements CheckpointHook {
  private readonly store: CheckpointStore;
  private readonly onFailure: CheckpointFailurePolicy;

  constructor(
    private readonly config: Config,
    private readonly registry: ToolRegistry,
    options: CheckpointerOptions = {},
  ) {
    this.store = new CheckpointStore({
      ...checkpointProjectOf(config),
      ...(options.gitPath ? { gitPath: options.gitPath } : {}),
    });
    this.onFailure =
      options.onFailure ??
      config.settings.general?.checkpointing?.onFailure ??
      SETTING_DEFAULTS.general.checkpointing.onFailure;
  }

  /** A checkpointer when settings leave checkpoints on (the default), else undefined. */
  static fromSettings(
    config: Config,
    registry: ToolRegistry,
    options: CheckpointerOptions = {},
  ): Checkpointer | undefined {
    if (
      !(
        config.settings.general?.checkpointing?.enabled ??
        SETTING_DEFAULTS.general.checkpointing.enabled
      )
    )
      return undefined;
    return new Checkpointer(config, registry, options);
  }

  async beforeBatch(
    calls: readonly AgentToolCall[],
    messageIndex: number,
    signal: AbortSignal,
    owner: BatchOwner = {},
  ): Promise<BatchCheckpoint> {
    const toolCalls = await changingCalls(calls, this.registry, this.config);
    if (toolCalls.length === 0) return { kind: 'not_needed' };
    try {
      const taken = await this.store.create({
        roots: this.config.workspace.roots,
        kind: 'tool_calls',
        toolCalls,
        sessionId: this.config.sessionId,
        messageIndex,
        ...(owner.subagent ? { subagent: owner.subagent } : {}),
        signal,
      });
      return {
        kind: 'taken',
        checkpoint: taken.checkpoint,
        skipped: taken.skipped.map((skipped) => describeSkipped(skipped, this.config.targetDir)),
      };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const runBatch = this.onFailure === 'continue';
      const names = [...new Set(toolCalls.map((call) => call.name))].join(', ');
      return {
        kind: 'failed',
        runBatch,
        message: runBatch
          ? `No checkpoint could be taken before ${names} (${reason}); the calls run anyway (general.checkpointing.onFailure is "continue"), so their changes cannot be undone with toolhost restore.`
          : `No checkpoint could be taken before ${names} (${reason}), so the calls were not run. Fix the cause, or set general.checkpointing.onFailure to "continue" (changes then run without a way back) or general.checkpointing.enabled to false.`,
      };
    }
  }
}
