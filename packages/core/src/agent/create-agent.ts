/**
 * Puts an agent together for a front end (headless, terminal, or a library user): the
 * model client for the endpoint, the system prompt with memory, web_fetch's side
 * requests, and the loop. The caller owns the Config, the registry and what is shown.
 */
import type { Config } from '../config/config.js';
import { notify, sessionEnded, sessionStarted } from '../hooks/conversation-hooks.js';
import { HookRunner } from '../hooks/hook-runner.js';
import { type LoadedMemory, loadMemory } from '../memory/load-memory.js';
import type { ModelEndpoint } from '../models/endpoint.js';
import { ModelClient, type ModelClientOptions } from '../models/model-client.js';
import type { ChatMessage } from '../models/model-types.js';
import { UsageTracker } from '../models/token-usage.js';
import type {
  ConfirmationDecision,
  EditProposal,
  WaitingToolCall,
} from '../scheduler/tool-call-types.js';
import { SkillTool, skillToolFor } from '../skills/skill-tool.js';
import { DeferredTools } from '../tools/deferred-tools.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { ToolSearchTool } from '../tools/tool-search.js';
import type { AgentEventListener } from './agent-events.js';
import { type AgentLimits, AgentLoop } from './agent-loop.js';
import { limitsWithSettings } from './agent-loop-options.js';
import { Checkpointer, type CheckpointHook } from './checkpoints/checkpointer.js';
import { ContextCompressor } from './compression.js';
import type { ConversationRecorder } from './conversation-recorder.js';
import { environmentFacts } from './environment.js';
import { sessionFile } from './sessions/session-file.js';
import { pageExtractor } from './side-requests.js';
import { loadSubagents } from './subagents/subagent-files.js';
import { LoopSubagentRunner } from './subagents/subagent-runner.js';
import { buildSystemPrompt } from './system-prompt.js';

export interface AgentOptions {
  config: Config;
  registry: ToolRegistry;
  endpoint: ModelEndpoint;
  /** Replaces the built-in guidance of the system prompt. */
  systemPrompt?: string;
  appendSystemPrompt?: string;
  limits?: AgentLimits;
  onEvent?: AgentEventListener;
  onConfirmationRequest?: (call: WaitingToolCall) => Promise<ConfirmationDecision>;
  /** Opens a proposed change in the person's editor (a terminal UI suspends itself around it). */
  editProposal?: (proposal: EditProposal) => Promise<string | undefined>;
  history?: ChatMessage[];
  recorder?: ConversationRecorder;
  client?: ModelClientOptions;
  /** Levels of subagents below the main agent (default 2; 0 turns `task` off). */
  maxSubagentDepth?: number;
  /** Problems worth telling the person (a subagent file that cannot be used, ...). */
  onWarning?: (message: string) => void;
  /**
   * Checkpoints before changes: by default a Checkpointer unless settings turn them off
   * (general.checkpointing.enabled false); `false` turns them off here.
   */
  checkpoints?: CheckpointHook | false;
}

export interface Agent {
  loop: AgentLoop;
  model: ModelClient;
  usage: UsageTracker;
  /** The system prompt the loop sends now. */
  readonly systemPrompt: string;
  /** The hooks from settings (undefined: none configured, or disableAllHooks). */
  hooks: HookRunner | undefined;
  /**
   * Runs the SessionStart hooks (done once by itself when the session is made: `startup`, or
   * `resume` with a history); what they add reaches the model with the next prompt.
   */
  start(source: 'startup' | 'resume' | 'clear' | 'compact'): Promise<void>;
  /** Runs the SessionEnd hooks. */
  end(reason: 'clear' | 'logout' | 'prompt_input_exit' | 'other'): Promise<void>;
  /** Reads the memory files again and rebuilds the system prompt with them (`/memory refresh`). */
  refreshMemory(): LoadedMemory;
  /**
   * Stops following the Config (its approval mode), for a caller that keeps the Config and
   * makes another agent on it. The loop still answers runs, with the prompt it has.
   */
  close(): void;
}

export function createAgent(agentOptions: AgentOptions): Agent {
  const { config, registry } = agentOptions;
  const hooks = HookRunner.fromConfig(config, () =>
    sessionFile(config.userDir, config.targetDir, config.sessionId),
  );
  const options: AgentOptions & { hooks?: HookRunner } = hooks
    ? withHooks(agentOptions, hooks)
    : agentOptions;
  const model = new ModelClient(options.endpoint, options.client);
  const usage = new UsageTracker();
  config.pageExtractor = pageExtractor(model, usage);
  const deferredTools = new DeferredTools(() => config.settings.tools?.deferLoading);
  if (!registry.getRegisteredTool(ToolSearchTool.Name))
    registry.registerTool(new ToolSearchTool(deferredTools, registry));
  // Skills found now are offered for the conversation (their bodies load when the model asks).
  const skills = registry.getRegisteredTool(SkillTool.Name)
    ? undefined
    : skillToolFor(config, options.onWarning);
  if (skills) registry.registerTool(skills);
  // The loop is made below; a subagent only asks for its checkpoints once it runs.
  let loopForSubagents: AgentLoop | undefined;
  registerTaskTool(
    options,
    model,
    usage,
    (subagent) => loopForSubagents?.subagentCheckpoints(subagent),
    deferredTools,
  );
  const promptWith = (memory: LoadedMemory) =>
    buildSystemPrompt({
      environment: environmentFacts(config),
      approvalMode: config.getApprovalMode(),
      memory: memory.text,
      ...(options.systemPrompt !== undefined ? { replacement: options.systemPrompt } : {}),
      ...(options.appendSystemPrompt !== undefined ? { append: options.appendSystemPrompt } : {}),
    });
  let memory = loadMemory(config, { cwd: config.targetDir });
  // Memory files a Read deny rule keeps out, imports over the budget: each named.
  for (const warning of memory.warnings) options.onWarning?.(warning);
  let systemPrompt = promptWith(memory);
  const checkpoints =
    options.checkpoints === undefined
      ? Checkpointer.fromSettings(config, registry)
      : options.checkpoints || undefined;
  const loop = new AgentLoop({
    config,
    registry,
    model,
    systemPrompt,
    usage,
    ...(checkpoints ? { checkpoints } : {}),
    deferredTools,
    compressor: new ContextCompressor(model, () => model.endpoint.contextWindow, usage),
    limits: limitsWithSettings(config, options.limits),
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    ...(options.onConfirmationRequest
      ? { onConfirmationRequest: options.onConfirmationRequest }
      : {}),
    ...(options.editProposal ? { editProposal: options.editProposal } : {}),
    ...(options.history ? { history: options.history } : {}),
    ...(options.recorder ? { recorder: options.recorder } : {}),
    ...(hooks ? { hooks } : {}),
  });
  if (hooks)
    loop.addContext(
      sessionStarted(hooks, options.history?.length ? 'resume' : 'startup', model.model),
    );
  loopForSubagents = loop;
  const rebuildSystemPrompt = () => {
    systemPrompt = promptWith(memory);
    loop.setSystemPrompt(systemPrompt);
  };
  // The prompt says which approval mode is on; a change (Shift+Tab, /approval-mode, a plan
  // approved with exit_plan_mode) must reach the model's next request, not leave it stale.
  const stopFollowingMode = config.onApprovalModeChange(rebuildSystemPrompt);
  return {
    loop,
    model,
    usage,
    get systemPrompt() {
      return systemPrompt;
    },
    hooks,
    start(source) {
      if (!hooks) return Promise.resolve();
      const context = sessionStarted(hooks, source, model.model);
      loop.addContext(context);
      return context.then(() => undefined);
    },
    async end(reason) {
      if (hooks) await sessionEnded(hooks, reason);
    },
    refreshMemory() {
      memory = loadMemory(config, { cwd: config.targetDir });
      rebuildSystemPrompt();
      return memory;
    },
    close: stopFollowingMode,
  };
}

/** Offers `task` with the subagents found for this project (unless depth 0). */
function registerTaskTool(
  options: AgentOptions & { hooks?: HookRunner },
  model: ModelClient,
  usage: UsageTracker,
  checkpoints: (subagent: string) => CheckpointHook | undefined,
  deferredTools: DeferredTools,
) {
  const { config, registry } = options;
  const maxDepth = options.maxSubagentDepth ?? config.settings.model?.maxSubagentDepth ?? 2;
  if (maxDepth < 1 || registry.getRegisteredTool('task')) return;
  const { definitions, warnings } = loadSubagents(config);
  for (const warning of warnings) options.onWarning?.(warning);
  const task = LoopSubagentRunner.taskTool({
    config,
    registry,
    model,
    usage,
    definitions,
    maxDepth,
    checkpoints,
    deferredTools,
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    ...(options.onConfirmationRequest
      ? { onConfirmationRequest: options.onConfirmationRequest }
      : {}),
    ...(options.editProposal ? { editProposal: options.editProposal } : {}),
    ...(options.onWarning ? { warn: options.onWarning } : {}),
    ...(options.hooks ? { hooks: options.hooks } : {}),
  });
  if (task) registry.registerTool(task);
}

/**
 * The options with the hooks: what they tell the person arrives as notices, and
 * a question to the person first fires the Notification hooks.
 */
function withHooks(options: AgentOptions, hooks: HookRunner): AgentOptions & { hooks: HookRunner } {
  const { onEvent, onConfirmationRequest: ask } = options;
  hooks.onMessage = (message) => onEvent?.({ type: 'notice', level: 'warning', message });
  return {
    ...options,
    hooks,
    ...(ask
      ? {
          onConfirmationRequest: (call: WaitingToolCall) => {
            notify(hooks, `toolhost needs your permission to use ${call.tool.name}`);
            return ask(call);
          },
        }
      : {}),
  };
}
