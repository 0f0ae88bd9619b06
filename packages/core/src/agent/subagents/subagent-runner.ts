/**
 * Runs a subagent: the same agent loop with a fresh conversation, the subagent's own
 * instructions plus the environment, only its tools, the same approval flow (each
 * confirmation names the subagent), and the parent's usage tracker. Its events reach the
 * parent as `subagent` events and its progress as the task call's live output. Its
 * batches that may change files take checkpoints as the main agent's do. Nesting
 * stops at `maxDepth`: deeper subagents get no `task` tool.
 */

import { randomUUID } from 'node:crypto';
import { ApprovalMemory, withApprovalMemory } from '../../config/approval-memory.js';
import type { Config } from '../../config/config.js';
import type { HookRunner } from '../../hooks/hook-runner.js';
import type { ModelClient } from '../../models/model-client.js';
import type { UsageTracker } from '../../models/token-usage.js';
import type {
  ConfirmationDecision,
  EditProposal,
  WaitingToolCall,
} from '../../scheduler/tool-call-types.js';
import type { DeferredTools } from '../../tools/deferred-tools.js';
import {
  type SubagentDefinition,
  type SubagentOutcome,
  type SubagentRequest,
  type SubagentRunner,
  TaskTool,
} from '../../tools/task.js';
import type { ToolRegistry } from '../../tools/tool-registry.js';
import type { AgentEvent, AgentEventListener } from '../agent-events.js';
import { AgentLoop } from '../agent-loop.js';
import type { CheckpointHook } from '../checkpoints/checkpointer.js';
import { describeEnvironment, environmentFacts } from '../environment.js';
import { subagentApprovalMode } from './subagent-fields.js';
import { ToolSubset } from './tool-subset.js';

export interface SubagentRunnerOptions {
  config: Config;
  /** The main agent's registry (the subagent's tools are a subset of it). */
  registry: ToolRegistry;
  model: ModelClient;
  usage: UsageTracker;
  definitions: SubagentDefinition[];
  /** How many levels of subagents may exist below the main agent (1: no nesting). */
  maxDepth: number;
  /** The depth of the subagents this runner starts (1 for the main agent's). */
  depth?: number;
  onEvent?: AgentEventListener;
  onConfirmationRequest?: (call: WaitingToolCall) => Promise<ConfirmationDecision>;
  /** The parent's editor hook, so a subagent's proposed change can be edited the same way. */
  editProposal?: (proposal: EditProposal) => Promise<string | undefined>;
  /**
   * The checkpoints a subagent takes before its own batches that may change files (the
   * main agent's checkpointer and session, marked with the subagent's name); none when
   * absent or undefined.
   */
  checkpoints?: (subagent: string) => CheckpointHook | undefined;
  /** The session's hooks: a subagent's calls pass the same ones, its end is SubagentStop. */
  hooks?: HookRunner;
  /** Model requests one subagent run may make (default 50). */
  maxTurns?: number;
  /** The session's held-back MCP tools (a subagent finds them with tool_search too). */
  deferredTools?: DeferredTools;
  warn?: (message: string) => void;
}

const SUBAGENT_NOTE =
  'You are running as a subagent. Your final answer (a message without tool calls) ends your work and is handed to the agent that started you: make it complete on its own.';

export class LoopSubagentRunner implements SubagentRunner {
  private readonly depth: number;

  constructor(private readonly options: SubagentRunnerOptions) {
    this.depth = options.depth ?? 1;
  }

  /** The task tool the agent at `depth - 1` offers, or undefined past the depth limit. */
  static taskTool(options: SubagentRunnerOptions): TaskTool | undefined {
    const depth = options.depth ?? 1;
    if (depth > options.maxDepth) return undefined;
    return new TaskTool(options.definitions, new LoopSubagentRunner(options));
  }

  private inOwnMode<T>(definition: SubagentDefinition, work: () => Promise<T>): Promise<T> {
    return runInMode(this.options.config, definition, work, this.options.warn);
  }

  async run(
    request: SubagentRequest,
    signal: AbortSignal,
    progress: (line: string) => void,
  ): Promise<SubagentOutcome> {
    const { definition } = request;
    const { config } = this.options;
    const deeper = LoopSubagentRunner.taskTool({ ...this.options, depth: this.depth + 1 });
    const tools = new ToolSubset(config, this.options.registry, definition.tools, deeper);
    const unknown = tools.unknownNames();
    if (unknown.length > 0) {
      this.options.warn?.(
        `subagent ${definition.name} (${definition.source}) lists tools that do not exist here: ${unknown.join(', ')}`,
      );
    }
    const taskId = randomUUID();
    const forward = (event: AgentEvent) => {
      this.options.onEvent?.({
        type: 'subagent',
        taskId,
        subagent: definition.name,
        ...(definition.color ? { color: definition.color } : {}),
        description: request.description,
        ...(request.parentCallId ? { parentCallId: request.parentCallId } : {}),
        event,
      });
      const line = progressLine(event);
      if (line) progress(line);
    };
    const ask = this.options.onConfirmationRequest;
    const checkpoints = this.options.checkpoints?.(definition.name);
    const loop = new AgentLoop({
      config,
      registry: tools,
      model: this.options.model,
      systemPrompt: `${definition.systemPrompt}\n\n${SUBAGENT_NOTE}\n\nEnvironment:\n${describeEnvironment(environmentFacts(config))}`,
      usage: this.options.usage,
      limits: { maxTurns: definition.maxTurns ?? this.options.maxTurns ?? 50 },
      onEvent: forward,
      ...(checkpoints ? { checkpoints } : {}),
      ...(ask
        ? {
            onConfirmationRequest: (call: WaitingToolCall) =>
              ask({
                ...call,
                confirmationDetails: {
                  ...call.confirmationDetails,
                  title: `[subagent ${definition.name}] ${call.confirmationDetails.title}`,
                },
              }),
          }
        : {}),
      ...(this.options.editProposal ? { editProposal: this.options.editProposal } : {}),
      ...(definition.model ? { modelName: definition.model } : {}),
      ...(this.options.deferredTools ? { deferredTools: this.options.deferredTools } : {}),
      ...(this.options.hooks ? { hooks: this.options.hooks, subagent: definition.name } : {}),
    });
    progress(`${definition.name} started: ${request.description}`);
    const result = await this.inOwnMode(definition, () => loop.run(request.prompt, signal));
    return {
      text: result.text,
      status: result.status,
      turns: result.turns,
      toolCalls: result.toolCalls,
      ...(result.message ? { message: result.message } : {}),
    };
  }
}

/**
 * Runs `work` in the approval mode the subagent's file asks for, as far as the session's
 * mode and the project's trust allow (subagent-fields.ts), sharing the person's "always"
 * answers; the session's own mode is left as it is.
 */
function runInMode<T>(
  config: Config,
  definition: SubagentDefinition,
  work: () => Promise<T>,
  warn?: (message: string) => void,
): Promise<T> {
  const session = config.getApprovalMode();
  const mayLoosen = !definition.fromProject || config.projectTrusted;
  const mode = subagentApprovalMode(session, definition.approvalMode, mayLoosen);
  if (mode !== subagentApprovalMode(session, definition.approvalMode, true))
    warn?.(
      `subagent ${definition.name} (${definition.source}) asks for approval mode ${definition.approvalMode}, which a project's file may not give before you trust the folder ("toolhost trust"); it runs in ${mode} mode.`,
    );
  if (mode === session) return work();
  const memory = new ApprovalMemory(config.approvals);
  memory.approvalMode = mode;
  return withApprovalMemory(memory, work);
}

function progressLine(event: AgentEvent): string | undefined {
  if (event.type === 'tool_results') {
    return event.results
      .map(
        (r) => `${r.status === 'success' ? '✓' : r.status === 'cancelled' ? '-' : '✗'} ${r.name}`,
      )
      .join('\n');
  }
  if (event.type === 'retry') return `retrying the model request: ${event.reason}`;
  return undefined;
}
